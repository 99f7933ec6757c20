// Kernel options with a value per target architecture: `@kernel(num_stages=by_target(sm_90=4,
// default=2))` (language.md §3, "Options per target"; cuTile's ByTarget). The checker keeps the
// per-arch entries beside the option's plain value (the `default`); the driver resolves them
// for each lowering (ir::LaunchOptions::for_arch).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basic/source.h"

namespace tilec {

/// One `arch=value` entry of `by_target(...)` for the @kernel option `option` (its keyword:
/// "num_stages"); `arch` as written, "sm_90" or "sm_90a".
struct TargetValue {
  std::string option;
  std::string arch;
  int value = 0;
  SourceRange range;  ///< the entry, `sm_90=4`
};

/// True when an entry for `key` applies to code compiled for `arch`: the same arch, or `key`
/// without a suffix and `arch` its arch- or family-specific form (sm_90 covers sm_90a,
/// sm_100 covers sm_100a and sm_100f).
bool target_key_covers(std::string_view key, std::string_view arch);

/// The value of `option` for code compiled for `arch`: an entry for `arch` itself first, then
/// one that covers it (target_key_covers); nullopt when none does (the option's plain value).
std::optional<int> value_for_arch(const std::vector<TargetValue>& values, std::string_view option,
                                  std::string_view arch);

}  // namespace tilec
