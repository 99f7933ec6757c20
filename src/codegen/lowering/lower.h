// Lowering decisions for one kernel: warps per CTA, the layout of every tile value, and the
// shared memory the layout conversions need. `--emit=tir-lowered` prints them.
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

/// An index of a pipelined cp.async load computed in the loop body (portable path): `slope` x
/// the induction variable plus the sum of `terms` (sign, value from before the loop), all in
/// i64, so that the tile's origin moves by a constant per iteration.
struct AffineIndex {
  int64_t slope = 1;
  std::vector<std::pair<int, const ir::Value*>> terms;
};
/// `v` as an AffineIndex of `loop`'s induction variable (itself: slope 1), or nullopt: only
/// +, -, negation, * and << by a constant of i64 scalars computed in the loop's body, from the
/// induction variable (or its widening to i64) and values from before the loop (what LICM
/// leaves in the body of `k * 64 + t`). i32 arithmetic is left out: it wraps at 32 bits, where
/// the copies' 64-bit addresses would not.
std::optional<AffineIndex> affine_index(const ir::Value* v, const ir::Op& loop);

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
  /// both; pipeline.cpp, copy_kind). It goes through registers; the path's checks and
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

/// Finds the loops of `k.fn` whose loads can go through a cp.async pipeline (none when
/// `num_stages` is 1), before layouts are assigned. A loop qualifies when its step is a
/// positive constant, it has no break, continue or return, and an mma in its body reads a
/// load whose indices are the induction variable or values defined before the loop, with
/// zero padding and a power-of-two line of 16 to 1024 bytes (pipeline.cpp).
void plan_pipelines(LoweredKernel& k, int num_stages);

/// After layouts: places the stages after the conversion buffer, finds each loop's late-sync
/// mma (Pipeline::sync_mma) and picks the number of stages: `num_stages` (2-8) when given, else as many as fit (2 to 4) in half of `smem_limit` (bytes
/// per CTA), so that two CTAs can share an SM, or in all of it when the accumulator alone
/// takes more than 64 registers per thread (then registers allow one CTA per SM anyway). A
/// `num_stages` that does not fit, or that no loop can use, adds a warning to `k.warnings`.
void finish_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit);

/// Lowers `f` for `target` on arch-specific path `path` (paths.h): runs its lowering steps
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

/// Last, on every path: the integer // and % ops of `k` whose quotient can come from a magic
/// number the launch stub computes (LaunchDivisor), into k.launch_divisors and
/// k.divided_at_launch. An op qualifies when its dividend is known to be in [0, 2^32)
/// (IntegerFacts::fits_u32: u32, bid(), a non-negative i32, a widening cast of one), its
/// divisor is not a constant (ptxas divides by those with its own magic numbers) but a scalar
/// the host can compute (host_c_expr: extents, integer scalars, constants), and, for a signed
/// divisor, known to be >= 0; and while the parameters stay within kMaxParamBytes.
void plan_launch_divisors(LoweredKernel& k);

/// Bytes of shared memory an mma op stages its operands in (ptx/mma_sync.cpp); `stage_a` and
/// `stage_b` say which operands are staged (the others come from async loads).
int64_t mma_staging_bytes(const ir::Op& op, bool stage_a = true, bool stage_b = true);
/// The same for the general variant, which stages an operand that is a 2-D transposition of a
/// load (through reshapes) as the load's tile: lines along the operand's rows.
int64_t general_mma_staging_bytes(const ir::Op& op);

/// Bytes of shared memory the general variant stores tile `tile`, in layout `l`, through
/// (ptx/mma_store.cpp): rows x (row bytes + 16) for an unsliced mma accumulator layout of 128
/// or more registers per thread, of 2-, 4- or 8-byte elements, at least 16 bytes per row, with
/// unit dimensions before the last two; else 0 (stored straight from registers).
int64_t staged_store_bytes(const ir::Value* tile, const Layout& l);
/// After layouts, on the portable path: the stores the general variant makes through shared
/// memory (staged_store_bytes, when that fits in `smem_limit`), into k.staged_stores, and their
/// bytes into its conversion buffer (ptx/mma_store.cpp).
void plan_staged_stores(LoweredKernel& k, int64_t smem_limit);

/// Lowers `f` for `target` on the portable path: runs its lowering steps (lowering_steps.h:
/// mma shapes, warps, early loads, vector widths, pipelines, layouts, stages). The
/// launch options come from f.sig.options: `num_warps` 0 lets the compiler choose enough warps
/// that each thread holds about 16 elements of the largest tile (32 from 4096 elements up),
/// between 1 and 16; `num_stages` (0 = compiler's choice) and `smem_limit` (bytes per CTA; the
/// driver passes the smallest limit among the targets whose code shares entry names, so that
/// every arch's entry launches with the same shared memory) size the pipelines. `f` is changed
/// in place (layout conversions are inserted): lower a copy (ir::clone) per target. With
/// `print_after`, the lowered form after each step is appended to it (--print-after-all).
LoweredKernel lower_kernel(ir::Function& f, const Target& target, int64_t smem_limit,
                           std::string* print_after = nullptr);

/// The vectorized variant's access size for a tile load or store `op` whose tile has layout
/// `l`: the bytes of one vector access along the array's innermost dimension (the run of
/// elements a thread holds there, at most 16), or 0 when the access goes element by element
/// (rank 0, a permuted order, runs under 4 bytes, 8- and 16-bit integers, bool, f8). The header
/// launches the vectorized variant only when each such array's innermost extent in bytes is a
/// multiple of it (AbiParam::vector_bytes), so every vector is wholly inside the array or
/// wholly outside: loads and stores need a predicate per vector and no edge path.
int vector_access_bytes(const ir::Op& op, const Layout& l);
/// The vectorized variant's access size of every tile load and store of `low` that is not a
/// scalar (cp.async pipeline loads excepted), in bytes, 0 for element by element: what
/// record_decisions keeps in LoweredKernel::vector_bytes. At tile
/// indices it is vector_access_bytes. At element offsets (load(offset=)) a vector must also
/// start at a multiple of its size: it is vector_access_bytes capped by the alignment of the
/// innermost offset, the largest power of two known to divide it (IntegerFacts, under the
/// launch stub's check of array_vector_bytes, which these widths enlarge: the least fixed
/// point from the tile-index accesses' check) times the element size, and 0 below 4 bytes.
std::map<const ir::Op*, int> access_vector_bytes(const LoweredKernel& low);
/// Per array that tile loads or stores access (cp.async pipeline loads excepted): the widest
/// of those accesses' bytes (LoweredKernel::vector_bytes, so after lowering), 1 when none is in
/// vectors. The launch stub takes the
/// vectorized variant only when each array's innermost extent in bytes is a multiple of it.
std::map<const ir::ArrayParam*, int> array_vector_bytes(const LoweredKernel& low);

/// Every value of `k.fn` in program order: the kernel's arguments, then, op by op (depth
/// first), its results and the arguments of its regions. Output that depends on the order of
/// values iterates this, never `layouts` (keyed by pointer: heap order), so it is the same on
/// every run and machine.
std::vector<const ir::Value*> values_in_program_order(const LoweredKernel& k);

/// The IR with each value's layout and the launch choices (`--emit=tir-lowered`), and the
/// asynchronous copies, waits and barriers of its pipelines where the emitter puts them
/// (lowered_text.cpp).
std::string print_lowered(const LoweredKernel& k);

}  // namespace tilec::codegen
