// The @kernel options (language.md §3): one table gives each option its keyword, type, rule,
// whether by_target(...) may set it, and how the generated header reports what the compiler
// made of it. The `kernel` decorator's keywords (frontend/builtins.h), the checker
// (check_module.cpp), the options struct below (the checker's and ir::Signature's), by_target's
// error message and the --emit=tir printer all come from it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "basic/target_values.h"

namespace tilec {

/// The value an option takes: a count (0 when not given: the compiler chooses) or a flag, the
/// constant True or False (-1 when not given: the compiler chooses).
enum class OptionType : uint8_t { Count, Flag };

/// Which counts an option allows: lo..hi, or the powers of two from lo to hi, less `refused`
/// (0: none), whose error lists `refused_allowed` instead.
struct OptionRule {
  bool powers_of_two = false;
  int lo = 0, hi = 0;
  int refused = 0;
  const char* refused_allowed = "";

  static constexpr OptionRule range(int lo, int hi) { return {false, lo, hi, 0, ""}; }
  static constexpr OptionRule powers(int lo, int hi) { return {true, lo, hi, 0, ""}; }
  static constexpr OptionRule truth() { return {}; }
  constexpr OptionRule except(int value, const char* allowed) const {
    return {powers_of_two, lo, hi, value, allowed};
  }
  /// "one of 1, 2, 4, 8, 16, 32" or "between 1 and 8", as the error says it.
  std::string text() const;
};

// X(name, type, rule, by_target, header), in the order of the `kernel` decorator's keywords
// (after grid=), which is the order the checker reports them in. `header`: what the generated
// header says of the option (header.md), from the launch configuration the compiler chose.
// clang-format off
#define TILEC_KERNEL_OPTIONS(X)                                                                     \
  X(num_warps, Count, OptionRule::powers(1, 32), true,                                             \
    "the portable path's warps: tilec_path_info.num_warps, \"(N warps)\" in the launch comment")  \
  X(num_stages, Count, OptionRule::range(1, 8), true,                                              \
    "the stages of the path's pipeline: tilec_path_info.num_stages, \"N pipeline stages\"")        \
  X(max_registers, Count, OptionRule::range(24, 255), true,                                        \
    "not reported: the entry's .maxnreg in the PTX")                                               \
  X(min_ctas_per_sm, Count, OptionRule::range(1, 32), true,                                        \
    "not reported: the entry's .minnctapersm in the PTX")                                          \
  X(persistent, Flag, OptionRule::truth(), false,                                                  \
    "tilec_path_info.persistent: the launch stub runs min(CTAs, SMs) CTAs over the logical grid") \
  X(cluster, Count, OptionRule::range(1, 2), false,                                                \
    "tilec_path_info.cluster_dims, \"clusters of (2, 1, 1) CTAs\" in the launch comment")         \
  X(consumers, Count,                                                                              \
    OptionRule::range(1, 4).except(3, "1, 2 or 4 (warpgroups of 64 rows each, or more)"), false,  \
    "the tma_wgmma path's threads per CTA: one warpgroup per consumer and the producer's")         \
  X(pingpong, Flag, OptionRule::truth(), false,                                                    \
    "not reported: the consumers' schedule inside the tma_wgmma entry")                            \
  X(split_k, Count, OptionRule::range(1, 64), false,                                               \
    "K_workspace_bytes and the workspace arguments; the configuration's grid has the slices as its last axis")
// clang-format on

/// The options written in `@kernel(...)`: the checker's KernelInfo and ir::Signature hold them.
struct KernelOptions {
  // codegen/paths/tma_wgmma/plan.h's Specialization says what the tma_wgmma path chooses for persistent, cluster,
  // consumers and pingpong when they are not given, and -Wpersistent, -Wcluster, -Wconsumers
  // and -Wpingpong say why a kernel cannot have what was asked for.
#define X(name, type, rule, by_target, header) int name = OptionType::type == OptionType::Flag ? -1 : 0;
  TILEC_KERNEL_OPTIONS(X)
#undef X
  /// The per-arch values of the options given `by_target(...)`; the fields above hold their
  /// `default` (or the value when not given).
  std::vector<TargetValue> by_target;

  /// These options as code compiled for `arch` ("sm_90a") sees them: each option given
  /// by_target takes the entry for `arch` (value_for_arch), else its default; no by_target left.
  KernelOptions for_arch(std::string_view arch) const;
};

/// One row of TILEC_KERNEL_OPTIONS.
struct KernelOptionInfo {
  const char* name;
  OptionType type;
  OptionRule rule;
  bool by_target;       ///< by_target(...) may give it a value per arch
  const char* header;   ///< what the generated header says of it
  int KernelOptions::*field;
};

/// The rows of TILEC_KERNEL_OPTIONS, in its order.
std::span<const KernelOptionInfo> kernel_options();

/// The options by_target may set, as by_target's error lists them: "num_warps=, num_stages=,
/// max_registers= and min_ctas_per_sm=".
std::string by_target_option_list();

}  // namespace tilec
