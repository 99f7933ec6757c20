// GPU architecture names and the forward-compatible PTX choice.
#include <catch2/catch.hpp>

#include <algorithm>

#include "codegen/target/target.h"

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

TEST_CASE("-arch sm_90 builds sm_90a and sm_80; other values build themselves", "[arch]") {
  CHECK(arch_builds("sm_90") == std::vector<std::string>{"sm_90a", "sm_80"});
  CHECK(arch_builds("sm_90a") == std::vector<std::string>{"sm_90a"});
  CHECK(arch_builds("sm_80") == std::vector<std::string>{"sm_80"});
  CHECK(arch_builds("sm_100") == std::vector<std::string>{"sm_100"});
  for (const std::string& a : arch_builds("sm_90")) CHECK(parse_target(a));
}

TEST_CASE("SASS runs on its major's later minors, `a` SASS on its own; PTX on every later GPU", "[arch]") {
  struct Case {
    const char* arch;
    int cc;
    bool sass, ptx;
  };
  for (const Case& c : {Case{"sm_80", 80, true, true}, Case{"sm_80", 86, true, true}, Case{"sm_80", 89, true, true},
                        Case{"sm_80", 90, false, true}, Case{"sm_80", 120, false, true}, Case{"sm_86", 80, false, false},
                        Case{"sm_90a", 90, true, true}, Case{"sm_90a", 100, false, false},
                        Case{"sm_100f", 103, true, true}, Case{"sm_100f", 120, false, false}}) {
    INFO(c.arch << " on " << c.cc);
    CHECK(parse_target(c.arch)->sass_runs_on(c.cc) == c.sass);
    CHECK(parse_target(c.arch)->ptx_runs_on(c.cc) == c.ptx);
  }
}

TEST_CASE("the portable plan fits every GPU the image loads on", "[arch]") {
  auto targets = [](std::vector<std::string> names) {
    std::vector<Target> out;
    for (const std::string& n : names) out.push_back(*parse_target(n));
    return out;
  };
  CHECK(max_shared_per_cta(87) == 163 * 1024);
  CHECK(max_shared_per_cta(121) == 99 * 1024);
  // sm_90a alone: 9.0 only. sm_80 SASS also runs on 8.6 and 8.9, PTX also on 12.x: 99 KB.
  CHECK(image_shared_per_cta(targets({"sm_90a"}), "") == 227 * 1024);
  CHECK(image_shared_per_cta(targets({"sm_90a", "sm_80"}), "sm_80") == 99 * 1024);
  CHECK(image_shared_per_cta(targets({"sm_90a", "sm_80"}), "") == 99 * 1024);
  CHECK(image_shared_per_cta(targets({"sm_90a", "sm_100a"}), "") == 227 * 1024);
  CHECK(image_shared_per_cta(targets({"sm_100"}), "") == 227 * 1024);
  CHECK(image_shared_per_cta(targets({"sm_100"}), "sm_100") == 99 * 1024);
  CHECK(image_shared_per_cta(targets({"sm_87"}), "") == 99 * 1024);  // also runs on 8.8 and 8.9
  CHECK(image_shared_per_cta({}, "") == 227 * 1024);
}
