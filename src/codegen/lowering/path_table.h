// The code paths' table: the type of its rows and the lookups every layer from lowering up
// asks (the rows themselves are the paths registry, code_paths() in paths/paths.cpp, the one
// layer that sees each path's room). A path is one of the ways a kernel can be lowered and
// emitted, each in a room of its own (conventions.md 16). A row says which targets have the
// path (a feature predicate of Target, never an arch-number comparison), its lowering steps,
// its entry names, how the launch ABI describes it and which emitter family writes it. Shared
// code asks this table, or the path's plan through the PathPlan interface (path_plan.h), and
// names no path's types: only the registry includes a path's headers
// (tests/structure/path_rooms.py checks it).
//
// The portable path (mma.sync, cp.async) is the base every target has: its families are the
// ones in ptx/ (MmaSyncEmitter, CpAsyncPipeline), which the arch-specific paths use too (an mma
// off wgmma stays on mma.sync; every op that is not an mma, a pipelined load or a TMA store is
// emitted alike). An arch-specific path adds a plan, lowering steps and emitter families of its
// own in src/codegen/paths/<name>/ and its row in paths/paths.cpp.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codegen/target/target.h"

namespace tilec {
struct AbiPath;
}

namespace tilec::codegen {

struct LoweredKernel;
struct LoweringStep;
class PathPlan;
class PathEmitter;
class EmitContext;

/// The code paths a kernel can be lowered to (each is one AbiPath of the header, kernel_abi.h):
/// - Portable: mma.sync with operands staged in shared memory by cp.async pipelines; every
///   target; entries `<k>_v16` (vectorized) and `<k>` (general).
/// - TmaWgmma: the operand tiles of pipelined mma loops come by TMA (cp.async.bulk.tensor) into
///   128-byte-swizzled shared memory, guarded by mbarriers, and wgmma reads them from there
///   (perf.md rung L2; bench/hopper_proto); targets with wgmma and TMA; entry `<k>_wgmma`
///   (paths/tma_wgmma/).
enum class CodePath { Portable, TmaWgmma };

/// One entry a path's kernel becomes: its name is the kernel's plus `suffix`; `vectorized`
/// entries assume 16-byte-aligned arrays with unit innermost strides (EmitOptions::vectorized).
struct EntryVariant {
  const char* suffix;
  bool vectorized;
};

/// One row of the table.
struct CodePathInfo {
  CodePath id;
  /// The name in --emit=tir-lowered, -v traces, --list-passes and AbiPath::name.
  const char* name;
  /// Whether a target has the path: a feature predicate of Target.
  bool (*on_target)(const Target&);
  /// Arch-specific: lowered for each target that has it beside the portable path (which every
  /// kernel has), with its own target's options; its AbiPath comes before the portable one.
  bool specific;
  /// Its lowering steps, in order (names in all_lowering_steps(), lowering_steps.h).
  std::vector<std::string> steps;
  /// The lowering steps of its own (the others are shared), in the order --list-passes lists
  /// them; null: none.
  const std::vector<LoweringStep>& (*own_steps)();
  /// Its entries, in the order the module holds them.
  std::vector<EntryVariant> entries;
  /// What moves a pipelined tile into shared memory, for messages: "a cp.async copy".
  const char* copy_engine;
  /// Whether a pipelined load's index may be any scalar arithmetic of the induction variable in
  /// the loop's body (a producer computes it again for the iteration it issues), rather than
  /// only an affine one (the copies' addresses move by a constant per iteration).
  bool any_scalar_index;
  /// For ptxas's spill warning: what makes a thread of this path need fewer registers ("" for
  /// the portable path, whose advice depends on num_warps).
  const char* register_advice;
  /// Its AbiPath for a kernel lowered on it.
  AbiPath (*abi)(const LoweredKernel&);
  /// Its plan (LoweredKernel::plan, path_plan.h) for a kernel about to be lowered on it; null:
  /// none (the portable path).
  std::unique_ptr<PathPlan> (*make_plan)();
  /// Its emitter family (ptx/path_emitter.h) for the kernel `cx` emits; null: none (the
  /// Emitter's own families are the portable path).
  std::unique_ptr<PathEmitter> (*make_emitter)(EmitContext& cx);
};

/// Every code path, the portable one first: the registry (paths/paths.cpp), above the layers
/// that ask it, since each row names its path's steps, plan, ABI and emitter.
const std::vector<CodePathInfo>& code_paths();
const CodePathInfo& code_path(CodePath p);
const char* code_path_name(CodePath p);

/// The arch-specific path `target` has, or null (at most one per target today).
const CodePathInfo* specific_path(const Target& target);

/// The name of `kernel`'s entry `v`.
std::string entry_name(const std::string& kernel, const EntryVariant& v);
/// The path whose entry of `kernel` is named `entry`, or null (`entry` is no entry of it).
const CodePathInfo* entry_path(const std::string& kernel, const std::string& entry);

}  // namespace tilec::codegen
