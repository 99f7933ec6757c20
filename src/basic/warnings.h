// The named warnings: one table gives each warning its -W name, whether it is on by default,
// and the one line that `tilec --help` and man/tilec.1 (WARNINGS) say about it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

// X(Id, "name", on by default, "summary"). Alphabetical by name: the man page lists them in this
// order (tests/unit/basic/warnings_test.cpp compares the two).
#define TILEC_WARNINGS(X)                                                                          \
  X(AssertAlwaysFails, "assert-always-fails", true,                                                \
    "an assert whose condition is the constant False (static_assert is the compile-time check)")  \
  X(ByTarget, "by-target", true,                                                                  \
    "a by_target() value that no code of the build uses (the portable path takes the oldest target's)") \
  X(Cluster, "cluster", true,                                                                      \
    "cluster=2 on a kernel the tma_wgmma path cannot run in clusters of two CTAs")                 \
  X(Config, "config", true,                                                                        \
    "a configuration of configs= that fails to check or build is left out of the image")          \
  X(Consumers, "consumers", true,                                                                  \
    "consumers= on a kernel the tma_wgmma path cannot run with that many consumer warpgroups")     \
  X(GridAxis, "grid-axis", true,                                                                   \
    "bid() or num_blocks() of an axis the grid does not have (always 0, or 1)")                    \
  X(HistogramPadding, "histogram-padding", true,                                                   \
    "histogram() of a zero-padded load without a mask: the padding counts in bin 0")               \
  X(InfiniteLoop, "infinite-loop", true,                                                           \
    "a while loop whose condition is always true and that no break or return leaves: it never ends") \
  X(NumStages, "num-stages", true,                                                                 \
    "a num_stages request that does not fit in shared memory: the loop runs fewer stages")        \
  X(OutputExtension, "output-extension", true,                                                     \
    "the -o file's extension names another output kind than --emit, or none that tilec knows")     \
  X(Persistent, "persistent", true,                                                                \
    "persistent=True on a kernel the tma_wgmma path cannot make persistent: one CTA per tile")    \
  X(Pingpong, "pingpong", true,                                                                    \
    "pingpong=True on a kernel the tma_wgmma path cannot run with ping-pong consumers")           \
  X(Ptxas, "ptxas", true, "a warning of ptxas, at the kernel it names")                             \
  X(ReductionPadding, "reduction-padding", true,                                                   \
    "max, min, argmax, argmin, prod or cumprod of a zero-padded load: the padding can win")       \
  X(ShadowBuiltin, "shadow-builtin", true, "an assignment to the name of a built-in or a dtype")   \
  X(Spills, "spills", true, "a kernel spills registers to local memory (ptxas)")                    \
  X(UnreachableCode, "unreachable-code", true,                                                     \
    "a statement after return, break or continue, or after a while True loop that no break leaves") \
  X(UnusedValue, "unused-value", true, "an expression statement whose value is not used")           \
  X(Wgmma, "wgmma", true,                                                                          \
    "an mma in a loop that runs on mma.sync on a target with wgmma: the tma_wgmma path does not fit")

enum class Warning : uint8_t {
#define X(id, name, on, summary) id,
  TILEC_WARNINGS(X)
#undef X
};

struct WarningInfo {
  Warning id;
  const char* name;     ///< as in -Wname, without the "-W"
  bool on_by_default;
  const char* summary;  ///< one line, no final period
};

/// Every warning, in the table's order.
std::span<const WarningInfo> all_warnings();
const WarningInfo& warning_info(Warning w);
std::optional<Warning> find_warning(std::string_view name);
/// "assert-always-fails, grid-axis, ..." for messages.
std::string warning_names();

/// Which warnings are reported, and which as errors, after the -W flags of a command line.
/// A later flag overrides an earlier one about the same warning; -Wno-error=name exempts that
/// warning from -Werror whatever their order (as in GCC and Clang).
class WarningSettings {
 public:
  WarningSettings();

  /// Applies one flag as typed: -Wname, -Wno-name, -Werror, -Wno-error, -Werror=name,
  /// -Wno-error=name (a second leading '-' is accepted). False, with `error` set, for a flag
  /// that is not one of these or names no warning.
  bool apply(std::string_view flag, std::string& error);

  bool enabled(Warning w) const { return enabled_[size_t(w)]; }
  /// True when an enabled warning is reported as an error.
  bool is_error(Warning w) const;

 private:
  static constexpr size_t kCount = 0
#define X(id, name, on, summary) +1
      TILEC_WARNINGS(X)
#undef X
      ;
  enum class AsError : uint8_t { Unset, Yes, No };
  std::array<bool, kCount> enabled_{};
  std::array<AsError, kCount> as_error_{};
  bool all_errors_ = false;
};

}  // namespace tilec
