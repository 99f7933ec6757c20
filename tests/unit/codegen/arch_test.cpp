// GPU architecture names and the forward-compatible PTX choice.
#include <catch2/catch.hpp>

#include <algorithm>

#include "codegen/target.h"

using namespace tilec::codegen;

TEST_CASE("arch names parse into number, suffix and PTX version", "[arch]") {
  auto a = parse_target("sm_90a");
  REQUIRE(a);
  CHECK(a->sm == 90);
  CHECK(a->suffix == 'a');
  CHECK(a->arch == "sm_90a");
  CHECK(a->ptx_version == 80);
  REQUIRE(parse_target("sm_100f"));
  CHECK(parse_target("sm_100f")->sm == 100);
  CHECK(parse_target("sm_100f")->ptx_version == 88);
  CHECK(parse_target("sm_80")->suffix == 0);
  CHECK(parse_target("sm_80")->ptx_version == 70);
  for (const char* bad : {"", "sm_", "sm_8", "sm_08", "sm90", "compute_90", "sm_90b", "sm_90aa", "sm_9x", "-sm_90",
                          "sm_70", "sm_75", "sm_95", "sm_80a", "sm_90f", "sm_99999"})
    CHECK_FALSE(parse_target(bad));
  std::string why;
  CHECK_FALSE(parse_target("sm_75", &why));
  CHECK(why == "tilec emits code for sm_80 and newer");
  CHECK_FALSE(parse_target("sm_95", &why));
  CHECK(why == "an architecture tilec does not know");
  CHECK_FALSE(parse_target("sm_89a", &why));
  CHECK(why == "sm_89 has no 'a' variant");
}

TEST_CASE("features are predicates of the target", "[arch]") {
  CHECK(parse_target("sm_90a")->has_wgmma());
  CHECK_FALSE(parse_target("sm_90")->has_wgmma());
  CHECK_FALSE(parse_target("sm_100a")->has_wgmma());
  CHECK(parse_target("sm_90")->has_tma());
  CHECK_FALSE(parse_target("sm_89")->has_tma());
  CHECK(parse_target("sm_89")->has_f8_mma_sync());
  CHECK_FALSE(parse_target("sm_86")->has_f8_mma_sync());
  CHECK(parse_target("sm_90a")->has_setmaxnreg());
  CHECK_FALSE(parse_target("sm_90")->has_setmaxnreg());
  CHECK(parse_target("sm_80")->max_shared_per_cta() == 163 * 1024);
  CHECK(parse_target("sm_89")->max_shared_per_cta() == 99 * 1024);
  CHECK(parse_target("sm_90a")->max_shared_per_cta() == 227 * 1024);
  std::vector<std::string> known = known_targets();
  CHECK(known.front() == "sm_80");
  CHECK(std::find(known.begin(), known.end(), "sm_100f") != known.end());
  CHECK(std::find(known.begin(), known.end(), "sm_90a") != known.end());
}

TEST_CASE("the embedded PTX is the newest arch without a suffix", "[arch]") {
  CHECK(forward_compatible_ptx_arch({"sm_80", "sm_86", "sm_89", "sm_90"}) == "sm_90");
  CHECK(forward_compatible_ptx_arch({"sm_90a", "sm_80"}) == "sm_80");
  CHECK(forward_compatible_ptx_arch({"sm_100", "sm_90", "sm_120f"}) == "sm_100");
  CHECK(forward_compatible_ptx_arch({"sm_90a"}).empty());
  CHECK(forward_compatible_ptx_arch({}).empty());
}
