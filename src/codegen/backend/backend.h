// The backend behind one call: from the optimized tile IR of a module's kernels to, per target,
// the lowered kernels and their PTX, and per kernel its launch interface (KernelAbi); then, on
// request, the assembled cubins and fatbin. The policy lives here: which code paths each target
// gets, one plan of the portable path for every target, the warnings about paths not taken.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "basic/diagnostics.h"
#include "codegen/launch/kernel_abi.h"
#include "codegen/lowering/lower.h"
#include "codegen/target/target.h"
#include "codegen/toolchain/occupancy.h"
#include "codegen/toolchain/toolchain.h"
#include "ir/ir.h"

namespace tilec::codegen {

/// How the backend compiles (the command line's code generation options).
struct BackendOptions {
  bool fast_math = false;       ///< hardware approximations for f32 math
  bool fmad = true;             ///< a*b+c may contract into fma (PTX and ptxas)
  bool lineinfo = false;        ///< .loc lines (PTX) and ptxas -lineinfo
  bool device_asserts = true;
  int jobs = 0;                 ///< threads and ptxas runs at a time (-j); 0: one per available CPU
  /// --print-after-all: the lowered form after each lowering step goes to
  /// CompiledModule::lowering_trace (and everything runs on one thread, so it is in order).
  bool print_after_all = false;
  /// Stop after lowering and its checks of registers (--emit=tir-lowered): no shared-memory
  /// check, no PTX, no KernelAbi.
  bool lower_only = false;
};

/// One target's code.
struct TargetCode {
  Target target;
  /// The copies of the kernels that `kernels` lowered (they point into them).
  std::vector<std::unique_ptr<ir::Function>> functions;
  /// Kernel i's portable lowering at index i, then the arch-specific paths' lowerings.
  std::vector<LoweredKernel> kernels;
  /// Per kernel: the index in `kernels` of its arch-specific path on this target, or -1.
  std::vector<int> specific;
  std::string ptx;  ///< the module, without register caps (empty with lower_only)
};

/// What compile_module made.
struct CompiledModule {
  BackendOptions options;
  const SourceManager* sources = nullptr;  ///< the files the kernels come from (PTX .file lines)
  std::vector<TargetCode> targets;         ///< in the order of the targets given
  /// Per kernel: its launch interface, the portable path described by the first target's
  /// lowering (every target's has the same launch data) and the arch-specific paths first.
  std::vector<KernelAbi> abis;
  /// `// kernel k: no tma_wgmma path for sm_90a: why` lines, for --emit=tir-lowered.
  std::vector<std::string> no_path_notes;
  std::string lowering_trace;  ///< with print_after_all
};

/// Lowers `kernels` (optimized tile IR, unchanged: each lowering works on its own copy) for each
/// of `targets` (at least one), checks each lowering's registers and shared memory, emits each
/// target's PTX module and describes each kernel's launch interface. Errors and warnings go to
/// `diag` (whose sources name the PTX's files); false after an error. The result does not
/// depend on the number of threads.
bool compile_module(const std::vector<std::unique_ptr<ir::Function>>& kernels, const std::vector<Target>& targets,
                    const BackendOptions& options, DiagnosticEngine& diag, CompiledModule& out);

/// --emit=tir-lowered: every target's lowered kernels (with a `// ---- target ... ----` line
/// before each when there are several), then the notes on paths not taken.
std::string print_lowered_module(const CompiledModule& m);

/// Per kernel lowering of `lowered` (one target's), the entries whose registers assemble_module
/// may cap (occupancy.h register_caps): the portable path's entries of kernels without mma
/// and without max_registers or min_ctas_per_sm options.
std::vector<CapCandidate> cap_candidates(const std::vector<LoweredKernel>& lowered);

/// The assembled code.
struct AssembledCode {
  std::vector<AssembledModule> modules;  ///< per assembled target, in order (PTX with its register caps)
  Fatbin fatbin;                         ///< every module's SASS and the forward-compatible PTX
};

/// Assembles `m` with `tk`'s ptxas under the register caps that pay off (occupancy.h): only the
/// first target for a cubin (`cubin_only`), else every target, bundled into a fatbin. ptxas's
/// failures, warnings and spills go to `diag` at the kernels (`kernels`, as given to
/// compile_module); PTX that ptxas rejects is saved under `failed_ptx_prefix`. False after an
/// error.
bool assemble_module(const CudaToolkit& tk, const CompiledModule& m,
                     const std::vector<std::unique_ptr<ir::Function>>& kernels, bool cubin_only,
                     const std::string& failed_ptx_prefix, DiagnosticEngine& diag, AssembledCode& out);

}  // namespace tilec::codegen
