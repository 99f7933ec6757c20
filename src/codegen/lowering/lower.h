// Lowering decisions for one kernel (the data model every later stage reads): warps per CTA, the
// layout of every tile value, the shared memory of layout conversions and pipelines, and the
// path's plan; and the runner that lowers a kernel by its path's steps (lowering_steps.h), each
// declared in a header of its own (docs/internals.md section 4). `--emit=tir-lowered` prints
// the result (lowered_text.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "basic/warnings.h"
#include "codegen/lowering/layout.h"
#include "codegen/lowering/path_plan.h"
#include "codegen/lowering/path_table.h"
#include "codegen/target/target.h"
#include "ir/ir.h"

namespace tilec::codegen {

/// Pipeline stages, and each async load's place in a stage, start at multiples of this many
/// bytes: the swizzle XORs address bits below it (layout.h, swizzled_offset), and a line is at
/// most this long (pipeline_loads.h, follow_chain).
inline constexpr int64_t kStageAlign = 1024;
/// `bytes` rounded up to a multiple of kStageAlign.
inline int64_t stage_aligned(int64_t bytes) { return (bytes + kStageAlign - 1) / kStageAlign * kStageAlign; }

/// A tile load that goes from global to shared memory without passing through registers and
/// that mma reads from there: with 16-byte cp.async (PTX ISA §9.7.9.25) in the portable path's
/// vectorized variant, by the copy engine of an arch-specific path (TMA: paths/tma_wgmma/).
/// The load's result reaches operand `operand`
/// (0 = a, 1 = b) of `mma` through at most a permute and reshapes that add or drop unit
/// dimensions, and nothing else uses it. In shared memory the tile is `lines` lines of
/// `line_elems` elements (the load's last, contiguous dimension): swizzled rows of the whole
/// line for cp.async (layout.h, swizzled_offset); for TMA, boxes of 64 elements (128 bytes) of
/// every line, one after the other, each in the 128-byte swizzle of TMA.
struct AsyncLoad {
  const ir::Op* load = nullptr;
  const ir::Op* mma = nullptr;
  int operand = 0;
  int64_t lines = 0, line_elems = 0;
  int esz = 2;             ///< element bytes
  int contiguous_dim = 1;  ///< the mma operand's dimension that runs along a line
  int64_t offset = 0;      ///< bytes from the start of a stage (a multiple of 1024)
  int64_t pitch() const { return line_elems * esz; }
  int64_t bytes() const { return lines * pitch(); }
  /// TMA: boxes of 128 bytes of each line, and the bytes of one box.
  int64_t boxes() const { return pitch() / 128; }
  int64_t box_bytes() const { return lines * 128; }
};

/// A `for` loop whose async loads run `stages` (or `stages - 1`, ptx/cp_async.cpp) iterations
/// ahead of the mma that reads them, in a ring of `stages` shared-memory buffers (the
/// multi-stage cp.async pipeline of CUTLASS's sm80 mainloop; perf.md, rung L1).
struct Pipeline {
  const ir::Op* loop = nullptr;
  int stages = 2;
  int64_t stage_bytes = 0;  ///< one stage: every async load of the loop
  std::vector<AsyncLoad> loads;
  /// Tiles loaded once, before the loop, into a buffer of their own that every iteration's mma
  /// reads as its A operand (the Q tile of flash attention, FA3's "Q in shared memory": no
  /// registers held across the loop), found by the path's plan (PathPlan::plan_loop; none on
  /// the portable path). They sit after the stages (offset: bytes from stage 0, 1024-byte
  /// aligned).
  std::vector<AsyncLoad> resident;
  int64_t resident_bytes() const;
  /// cp.async: the mma that holds the late sync (the wait, the barrier and the next stage's
  /// copies, before its last k step), when it is the body's last reader of the stage and sits
  /// at the top level of the body (so every thread reaches it once per iteration); else null,
  /// and they sit at the top of each iteration (finish_pipelines).
  const ir::Op* sync_mma = nullptr;
};

/// A divisor of integer // and % whose value the launch stub computes on the host
/// (launch_divisors.cpp): the quotient is then a multiply-high and two shifts by a magic number
/// the stub passes too, instead of a division, which the GPU has no instruction for (about 20
/// SASS instructions with a reciprocal round trip through the float pipe, or a subroutine for
/// 64 bits, on the path of every CTA to its first load).
struct LaunchDivisor {
  const ir::Value* value = nullptr;  ///< the divisor: a scalar of an integer dtype
  /// Its value as a C int64_t expression over variables named after the dimension symbols and
  /// the integer scalar parameters (host_expr.h), as the grid's are.
  std::string c_expr;
};

/// A load whose tile is the tile of `base` (an earlier load) moved by `delta` elements along
/// the last tile axis: element e of the window is element e + delta (along that axis) of
/// `base`'s tile wherever that lies inside it.
struct WindowLoad {
  const ir::Op* base = nullptr;
  int64_t delta = 0;
  /// The two offsets differ by `delta` only where the offset arithmetic does not wrap: some
  /// add or subtract on the way is narrower than 64 bits and not known to stay in its dtype's
  /// range (from constants and block indices under CUDA's grid limits: `bid(1) * 256 + 1`
  /// cannot wrap, `bid(1) * 64 + dc` with a run-time `dc` can), so the emitter compares the two
  /// offsets at run time and takes the plain load where they differ by anything else. 64-bit
  /// offsets are not tested: they wrap only past 2^63, where both tiles read padding alone.
  bool check_wrap = false;
};

/// Something the lowering could not do as the source asked, said as a warning at `loc` (the
/// driver reports it under its -W name).
struct LoweringWarning {
  Warning id;
  SourceRange loc;
  std::string text;
};

struct LoweredKernel {
  ir::Function* fn = nullptr;
  Target target;  ///< the target this lowering is for
  CodePath path = CodePath::Portable;
  /// The path's own decisions (paths/<name>/plan.h), asked through PathPlan; null on the
  /// portable path.
  std::unique_ptr<PathPlan> plan;
  /// Warps that hold the kernel's tile values (the consumers, on a warp-specialized kernel).
  int num_warps = 4;
  int threads() const { return num_warps * 32; }
  /// Threads a CTA launches with: threads(), or as the path's plan says (a producer warpgroup).
  int launch_threads() const { return plan ? plan->launch_threads(threads()) : threads(); }
  /// Tensor maps the entry's parameters start with (kernel_abi.h AbiTensorMap).
  int tensor_map_params() const { return plan ? plan->tensor_map_params(*this) : 0; }
  /// Whether the entry's parameters end with the logical grid of a persistent grid.
  bool persistent_grid() const { return plan && plan->persistent_grid(); }
  /// Elements per thread along the last dimension, per tile shape (16 bytes of the narrowest
  /// dtype loaded or stored with that shape).
  std::map<std::vector<int64_t>, int> vec;
  std::map<const ir::Value*, Layout> layouts;
  /// Bytes of shared memory for layout conversions and staged mma operands (one buffer at
  /// offset 0, reused), in the general variant and in the vectorized one (where the operands
  /// of async loads need no staging).
  int64_t conversion_smem = 0;
  int64_t conversion_smem_vectorized = 0;
  /// The general variant's stores of an mma accumulator through the conversion buffer
  /// (plan_staged_stores).
  std::set<const ir::Op*> staged_stores;
  /// The op that needs the largest conversion buffer (where a too-large one is reported).
  SourceRange conversion_smem_loc;
  /// The cp.async pipelines of the vectorized variant; their stages start at pipeline_offset
  /// (after the conversion buffer, 1024-byte aligned). Loops run one after the other, so they
  /// share that space.
  std::vector<Pipeline> pipelines;
  int64_t pipeline_offset = 0;
  /// A load at element offsets that would be a cp.async or TMA stage (or a resident tile) but
  /// for its innermost offset, which is not known to be a multiple of 16 bytes (the rule of
  /// both; pipeline_loads.cpp, copy_kind). It goes through registers; the path's checks and
  /// --emit=tir-lowered name it.
  struct UnalignedLoad {
    CodePath path = CodePath::Portable;   ///< whose copy engine it misses: cp.async or TMA
    const ir::Op* load = nullptr;
    int64_t align = 1;  ///< bytes the innermost offset is known to be a multiple of
    std::vector<const ir::Value*> chain;  ///< the load's result, then its permutes and reshapes
    const ir::Op* mma = nullptr;          ///< the mma the chain reaches
    int operand = 0;                      ///< 0: a, 1: b
  };
  std::vector<UnalignedLoad> unaligned_loads;
  /// The UnalignedLoad whose chain (load, permute, reshapes) reaches `v`, or null.
  const UnalignedLoad* unaligned_load(const ir::Value* v) const;

  const Layout& layout(const ir::Value* v) const { return layouts.at(v); }
  /// The pipeline of loop `op`, or null.
  const Pipeline* pipeline(const ir::Op* loop) const;
  /// The async load whose chain (load, permute, reshapes) defines `v`, or null.
  const AsyncLoad* async_load(const ir::Value* v) const;
  /// Dynamic shared memory the kernel launches with: the larger of the two variants' needs.
  int64_t shared_bytes() const;
  /// The pipeline stages the vectorized variant runs with: the most of any loop, 1 without one.
  int num_stages() const;
  /// The register layout of `mma`'s accumulator: mma.sync fragments (mma_layout), or the
  /// fragments of the path's own instruction (PathPlan::own_accumulator_layout).
  Layout accumulator_layout(const ir::Op& mma) const;
  std::vector<LoweringWarning> warnings;
  /// Values of async-load chains, mapped to their load (the emitter skips their ops).
  std::map<const ir::Value*, const AsyncLoad*> async_values;
  /// The divisors the launch stub computes (plan_launch_divisors), in the order of their
  /// parameters, and the // and % ops that divide by each (index into launch_divisors).
  std::vector<LaunchDivisor> launch_divisors;
  std::map<const ir::Op*, int> divided_at_launch;
  /// Scalar ops whose results only those divisors needed: the emitter leaves them out.
  std::set<const ir::Op*> computed_at_launch;

  /// Decided once, after the last step (record_decisions), and read by the emitter, the launch
  /// ABI and --emit=tir-lowered, which never compute them again:
  /// the vectorized variant's bytes per access of each tile load and store
  /// (access_vector_bytes; the launch stub's check of array_vector_bytes comes from them),
  std::map<const ir::Op*, int> vector_bytes;
  /// the loads whose tiles are windows of earlier loads' tiles (window_loads.h),
  std::map<const ir::Op*, WindowLoad> windows;
  /// and the asserts the launch stub checks, each with its C condition (host_assert.h): the
  /// vectorized variant leaves them out.
  std::vector<std::pair<const ir::Op*, std::string>> host_asserts;
};

/// Lowers `f` for `target` on arch-specific path `path` (path_table.h): runs its lowering steps
/// (lowering_steps.h) with its plan, or returns nullopt with `why` when the kernel does not fit
/// it (only the path's own steps find that). `print_after` as for lower_kernel.
std::optional<LoweredKernel> lower_on_path(const CodePathInfo& path, ir::Function& f, const Target& target,
                                           int64_t smem_limit, std::string& why, std::string* print_after = nullptr);

/// Why `u` goes through registers instead of its copy engine, for messages: "the load at line
/// L, whose innermost offset (column C) is known to be a multiple of N bytes but not of 16: a
/// TMA box must start at a multiple of 16 bytes along its innermost dimension (language.md
/// §7.2.1)".
std::string unaligned_text(const LoweredKernel::UnalignedLoad& u);

/// The mmas of `k` that stay on mma.sync on an arch-specific path, in program order, each with
/// why (PathPlan::mmas_off_path; -Wwgmma); empty on the portable path.
std::vector<std::pair<const ir::Op*, std::string>> mmas_off_path(const LoweredKernel& k);

/// Lowers `f` for `target` on the portable path: runs its lowering steps (its row of the paths
/// table: mma-shapes, warps, early-loads, vector-widths, pipelines, layouts, stages,
/// launch-divisors; lowering_steps.h), then records their decisions for later stages. The
/// launch options come from f.sig.options: `num_warps` 0 lets the compiler choose enough warps
/// that each thread holds about 16 elements of the largest tile (32 from 4096 elements up),
/// between 1 and 16; `num_stages` (0 = compiler's choice) and `smem_limit` (bytes per CTA; the
/// backend passes the smallest limit among the targets whose code shares entry names, so that
/// every arch's entry launches with the same shared memory) size the pipelines. `f` is changed
/// in place (layout conversions are inserted): lower a copy (ir::clone) per target. With
/// `print_after`, the lowered form after each step is appended to it (--print-after-all).
LoweredKernel lower_kernel(ir::Function& f, const Target& target, int64_t smem_limit,
                           std::string* print_after = nullptr);

/// Every value of `k.fn` in program order: the kernel's arguments, then, op by op (depth
/// first), its results and the arguments of its regions. Output that depends on the order of
/// values iterates this, never `layouts` (keyed by pointer: heap order), so it is the same on
/// every run and machine.
std::vector<const ir::Value*> values_in_program_order(const LoweredKernel& k);

}  // namespace tilec::codegen
