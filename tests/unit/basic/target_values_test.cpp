// Options per target (basic/target_values.h, ir::LaunchOptions::for_arch): which entry of
// by_target(...) code compiled for an arch takes (language.md §3.5, "Options per target").
#include <catch2/catch.hpp>

#include <vector>

#include "basic/target_values.h"
#include "ir/signature.h"

using namespace tilec;

TEST_CASE("an arch key covers itself and its arch-specific form only", "[by_target]") {
  CHECK(target_key_covers("sm_90", "sm_90"));
  CHECK(target_key_covers("sm_90", "sm_90a"));
  CHECK_FALSE(target_key_covers("sm_90a", "sm_90"));
  CHECK_FALSE(target_key_covers("sm_80", "sm_86"));
  CHECK_FALSE(target_key_covers("sm_9", "sm_90"));
  CHECK_FALSE(target_key_covers("sm_10", "sm_100"));
  CHECK(target_key_covers("sm_100", "sm_100f"));
  CHECK_FALSE(target_key_covers("sm_100a", "sm_100f"));
}

TEST_CASE("the exact arch wins over the key that covers it, in any order", "[by_target]") {
  std::vector<TargetValue> v = {{"num_stages", "sm_90a", 5, {}}, {"num_stages", "sm_90", 4, {}},
                                {"num_warps", "sm_90", 8, {}}};
  CHECK(value_for_arch(v, "num_stages", "sm_90a") == 5);
  CHECK(value_for_arch(v, "num_stages", "sm_90") == 4);
  CHECK(value_for_arch(v, "num_warps", "sm_90a") == 8);
  CHECK_FALSE(value_for_arch(v, "num_stages", "sm_80").has_value());
  CHECK_FALSE(value_for_arch(v, "max_registers", "sm_90a").has_value());
  std::vector<TargetValue> reversed(v.rbegin(), v.rend());
  CHECK(value_for_arch(reversed, "num_stages", "sm_90a") == 5);
}

TEST_CASE("for_arch resolves each option and leaves no entries", "[by_target]") {
  ir::LaunchOptions o;
  o.num_warps = 4;  // the default
  o.persistent = 1;
  o.by_target = {{"num_warps", "sm_90", 8, {}}, {"num_stages", "sm_90", 4, {}}, {"min_ctas_per_sm", "sm_80", 2, {}}};
  ir::LaunchOptions hopper = o.for_arch("sm_90a");
  CHECK(hopper.num_warps == 8);
  CHECK(hopper.num_stages == 4);
  CHECK(hopper.min_ctas_per_sm == 0);
  CHECK(hopper.persistent == 1);
  CHECK(hopper.by_target.empty());
  ir::LaunchOptions ampere = o.for_arch("sm_80");
  CHECK(ampere.num_warps == 4);
  CHECK(ampere.num_stages == 0);
  CHECK(ampere.min_ctas_per_sm == 2);
}
