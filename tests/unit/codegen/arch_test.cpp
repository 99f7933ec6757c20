// GPU architecture names and the forward-compatible PTX choice.
#include <catch2/catch.hpp>

#include "codegen/arch.h"

using namespace tilec;

TEST_CASE("arch names parse into number and suffix", "[arch]") {
  auto a = parse_gpu_arch("sm_90a");
  REQUIRE(a);
  CHECK(a->number == 90);
  CHECK(a->suffix == 'a');
  CHECK(a->name == "sm_90a");
  CHECK(parse_gpu_arch("sm_100f")->number == 100);
  CHECK(parse_gpu_arch("sm_80")->suffix == 0);
  for (const char* bad : {"", "sm_", "sm_8", "sm_08", "sm90", "compute_90", "sm_90b", "sm_90aa", "sm_9x", "-sm_90"})
    CHECK_FALSE(parse_gpu_arch(bad));
}

TEST_CASE("the embedded PTX is the newest arch without a suffix", "[arch]") {
  CHECK(forward_compatible_ptx_arch({"sm_80", "sm_86", "sm_89", "sm_90"}) == "sm_90");
  CHECK(forward_compatible_ptx_arch({"sm_90a", "sm_80"}) == "sm_80");
  CHECK(forward_compatible_ptx_arch({"sm_100", "sm_90", "sm_120f"}) == "sm_100");
  CHECK(forward_compatible_ptx_arch({"sm_90a"}).empty());
  CHECK(forward_compatible_ptx_arch({}).empty());
}
