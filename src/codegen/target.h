// GPU targets: one `-arch` value, parsed once, with the PTX ISA version it needs and predicates
// for the hardware features code generation chooses between (a feature, never an arch-number
// comparison, picks a code path).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec::codegen {

/// One -arch value: `sm_<major><minor>` with an optional suffix. `a` (sm_90a, sm_100a) marks
/// arch-specific features: its code runs only on exactly that compute capability. `f` (sm_100f)
/// marks family features: its code runs only within the family. (ptxas --help, option
/// --gpu-name; PTX ISA "Target ISA notes".)
struct Target {
  std::string arch;   ///< as written: "sm_90a"
  int sm = 90;        ///< 10 * major + minor: 80, 90, 100
  char suffix = 0;    ///< 0, 'a' or 'f'
  /// The lowest PTX ISA version ptxas accepts for this target (major * 10 + minor), checked with
  /// ptxas 13.0: sm_80 7.0, sm_86 7.1, sm_87 7.4, sm_88 7.3, sm_89/sm_90 7.8, sm_90a 8.0,
  /// sm_100/100a 8.6, sm_120/120a 8.7, sm_103, sm_121 and every `f` target 8.8, sm_110 9.0.
  int ptx_version = 78;

  bool arch_specific() const { return suffix == 'a'; }
  /// cp.async (PTX ISA §9.7.9.25.3, sm_80).
  bool has_cp_async() const { return sm >= 80; }
  /// mma.sync on e4m3/e5m2 (PTX ISA §9.7.14, sm_89 with PTX 8.4).
  bool has_f8_mma_sync() const { return sm >= 89; }
  /// Bulk tensor copies (TMA, `cp.async.bulk.tensor`), mbarrier transaction counts, clusters,
  /// `stmatrix`, `elect.sync`, `fence.proxy.async` (PTX ISA §9.7.9.25, sm_90).
  bool has_tma() const { return sm >= 90; }
  bool has_clusters() const { return sm >= 90; }
  bool has_stmatrix() const { return sm >= 90; }
  /// Warpgroup MMA (`wgmma.mma_async`, PTX ISA §9.7.15): sm_90a only (later GPUs have other
  /// tensor-core instructions).
  bool has_wgmma() const { return sm == 90 && suffix == 'a'; }
  /// `setmaxnreg` (PTX ISA §9.7.19.3) and TMA `.multicast::cluster`: arch-specific targets from
  /// sm_90a on.
  bool has_setmaxnreg() const { return sm >= 90 && suffix == 'a'; }
  bool has_tma_multicast() const { return sm >= 90 && suffix == 'a'; }
  /// The most shared memory one CTA can use, in bytes, after opting in with
  /// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (CUDA C Programming Guide, "Technical
  /// Specifications per Compute Capability"): 163 KB on sm_80/87, 99 KB on sm_86/88/89/120/121,
  /// 227 KB on sm_90/100/103/110.
  int64_t max_shared_per_cta() const;
  /// Shared memory of one SM: the per-CTA maximum plus the 1 KiB the hardware reserves per CTA.
  int64_t max_shared_per_sm() const { return max_shared_per_cta() + 1024; }
};

/// Parses an -arch value. nullopt, with `why` saying what is wrong, for anything that is not
/// `sm_<digits>[a|f]`, an architecture tilec does not emit for (older than sm_80, or a number it
/// does not know), an `a` suffix before sm_90 or an `f` suffix before sm_100.
std::optional<Target> parse_target(std::string_view arch, std::string* why = nullptr);

/// The architectures parse_target accepts, oldest first ("sm_80", ..., "sm_121f").
std::vector<std::string> known_targets();

/// The arch whose PTX a fatbin carries for forward compatibility: the newest of `archs` without
/// a suffix (an `a` or `f` PTX cannot be JIT-compiled for later GPUs). Empty when every arch has
/// a suffix or a name does not parse. Ties keep the first.
std::string forward_compatible_ptx_arch(const std::vector<std::string>& archs);

/// "8.0" from 80.
std::string ptx_version_text(int v);

}  // namespace tilec::codegen
