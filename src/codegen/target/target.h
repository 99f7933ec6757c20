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
  /// Whether the tensor cores run an f8 mma.sync themselves (QMMA in SASS): sm_89 and sm_120+.
  /// On sm_90-sm_110, ptxas 13.0 assembles each m16n8k32 as two f16 HMMA.16816 from zero,
  /// added to the accumulator with four FADDs (checked in the SASS), so the compiler lowers
  /// it to two f16 mmas on converted registers itself (mma_sync.cpp).
  bool has_native_f8_mma_sync() const { return sm == 89 || sm >= 120; }
  /// cvt between f32 (or f16x2) and e4m3x2/e5m2x2 (PTX ISA §9.7.9.21; ptxas 13.0 asks PTX 8.1
  /// on sm_89, 7.8 on sm_90).
  bool has_f8_convert() const { return sm >= 89; }
  /// Bulk tensor copies (TMA, `cp.async.bulk.tensor`), mbarrier transaction counts, clusters,
  /// `stmatrix`, `elect.sync`, `fence.proxy.async` (PTX ISA §9.7.9.25, sm_90).
  bool has_tma() const { return sm >= 90; }
  bool has_clusters() const { return sm >= 90; }
  bool has_stmatrix() const { return sm >= 90; }
  /// Programmatic dependent launch (`griddepcontrol.launch_dependents` and `.wait`, PTX ISA
  /// 7.8, sm_90; CUDA's CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION).
  bool has_griddepcontrol() const { return sm >= 90; }
  /// Warpgroup MMA (`wgmma.mma_async`, PTX ISA §9.7.15): sm_90a only (later GPUs have other
  /// tensor-core instructions).
  bool has_wgmma() const { return sm == 90 && suffix == 'a'; }
  /// `setmaxnreg` (PTX ISA §9.7.19.3) and TMA `.multicast::cluster`: arch-specific targets from
  /// sm_90a on.
  bool has_setmaxnreg() const { return sm >= 90 && suffix == 'a'; }
  bool has_tma_multicast() const { return sm >= 90 && suffix == 'a'; }
  /// The most shared memory one CTA can use on a device of this target's compute capability
  /// (max_shared_per_cta(int)).
  int64_t max_shared_per_cta() const;
  /// Shared memory of one SM: the per-CTA maximum plus the 1 KiB the hardware reserves per CTA.
  int64_t max_shared_per_sm() const { return max_shared_per_cta() + 1024; }
  /// Whether this target's SASS runs on a device of compute capability `cc` (major * 10 +
  /// minor): a plain target's on its major's later minors (sm_80 SASS on 8.0 to 8.9), an `a`
  /// target's only on its own, an `f` target's on its family, the later minors of its major
  /// (CUDA C Programming Guide, "Binary Compatibility"; PTX ISA "Target ISA notes").
  bool sass_runs_on(int cc) const;
  /// Whether this target's PTX can be JIT-compiled for compute capability `cc`: a plain
  /// target's for every later one, a suffixed target's as its SASS runs (CUDA C Programming
  /// Guide, "PTX Compatibility").
  bool ptx_runs_on(int cc) const;
};

/// The most shared memory one CTA can use, in bytes, on a device of compute capability `cc`
/// (major * 10 + minor), after opting in with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
/// (CUDA C Programming Guide, "Technical Specifications per Compute Capability"): 163 KB on
/// 8.0/8.7, 99 KB on 8.6/8.8/8.9/12.x, 227 KB on 9.0/10.x/11.0.
int64_t max_shared_per_cta(int cc);

/// The targets one -arch value builds SASS for, in order. `sm_90` builds `sm_90a` and `sm_80`:
/// sm_90a code runs on exactly the devices sm_90 code runs on (compute capability 9.0; Triton
/// compiles 9.0 as sm_90a too) and also has the tma_wgmma path; sm_80 carries the portable path
/// for every other GPU: its SASS runs on 8.x, and its PTX, the image's forward-compatible PTX
/// when no newer plain arch is given (forward_compatible_ptx_arch), is JIT-compiled on later
/// ones (issue 16). Every other value builds itself alone.
std::vector<std::string> arch_builds(std::string_view arch);

/// The least shared memory per CTA (max_shared_per_cta) among the compute capabilities tilec
/// knows whose devices can run an image holding SASS for `sass` and, unless `ptx_arch` is empty,
/// the PTX of `ptx_arch`: one plan of the portable path's stages then fits every device the
/// image loads on (sm_80 SASS also runs on 8.6 and 8.9, and PTX on 12.x: 99 KB). With nothing
/// runnable (no targets), 227 KB.
int64_t image_shared_per_cta(const std::vector<Target>& sass, const std::string& ptx_arch);

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
