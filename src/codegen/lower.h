// Lowering decisions for one kernel: warps per CTA, the layout of every tile value, and the
// shared memory the layout conversions need. `--emit=tir-lowered` prints them.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "basic/warnings.h"
#include "codegen/layout.h"
#include "codegen/paths/paths.h"
#include "codegen/target.h"
#include "ir/ir.h"

namespace tilec::codegen {

/// How a TmaWgmma kernel issues its TMA copies (perf.md, rungs L2 and L4; bench/hopper_proto
/// measured both on the H200):
/// - Inline: thread 0 of the compute warpgroups is also the producer; it refills a stage
///   between its own warpgroup's wgmma groups.
/// - Specialized: warp specialization. An extra producer warpgroup (warpgroup 0 of the CTA)
///   runs ahead of the loop: one of its threads waits for free stages and issues the copies of
///   every iteration, the other 127 exit. The consumer warpgroups (1 ..) run the kernel's body
///   with the thread numbering it was lowered for, and only wait for stages to fill.
///   `setmaxnreg` (PTX ISA §9.7.17.1) moves the producer's registers to the consumers.
enum class TmaSchedule { Inline, Specialized };
const char* tma_schedule_name(TmaSchedule s);

/// The producer/consumer split of a Specialized kernel (tma_pipeline.cpp, plan_specialization).
struct Specialization {
  TmaSchedule schedule = TmaSchedule::Inline;
  /// setmaxnreg counts (registers per thread) of the producer and the consumer warpgroups; 0
  /// when the registers the entry starts with are kept.
  int producer_registers = 0, consumer_registers = 0;
  /// The top-level ops before the pipelined loop that the producer thread runs too, in program
  /// order: everything the loop's bounds and the TMA loads' fixed indices depend on (scalar
  /// arithmetic on bid(), num_blocks() and the kernel's scalar arguments).
  std::vector<const ir::Op*> producer_ops;
  /// Inline: why the kernel is not specialized (printed by --emit=tir-lowered).
  std::string why_inline;
  /// A persistent grid (perf.md rung L5): the launch function starts min(tiles, SMs) CTAs and
  /// each loops over the logical CTAs of the grid= expression (tile = %ctaid.x, + %nctaid.x,
  /// ...); the producer runs on into the next tile while the consumers finish the last one, so
  /// their epilogue overlaps the next tile's loads. bid() and num_blocks() report the logical
  /// CTA and grid, so the kernel's code keeps its meaning. Taken for a Specialized kernel with
  /// two or more consumer warpgroups, no `return` (a consumer leaving a tile early would leave
  /// the producer's stages unread) and no resident tiles (they would need a ring of their own).
  bool persistent = false;
  /// Not persistent: why (printed by --emit=tir-lowered).
  std::string why_not_persistent;
  /// CTAs per cluster (perf.md rung L6, fast.cu's H7): 2 runs a persistent grid in clusters of
  /// two CTAs along x that take logical CTAs t and t ^ 1 in each round; where an operand tile's
  /// origins are the same for both (the B tile of neighbouring row tiles), each CTA copies half
  /// of its 128-byte boxes and TMA multicasts them into both CTAs' stages, so the pair reads the
  /// tile from L2 once. Each consumer warpgroup releases a stage in both CTAs (the peer may
  /// write into it), so the two rings run in step: taken only when the loop's trip count does
  /// not depend on bid(). Taken only when asked for (cluster=2: measured no faster on the H200).
  /// 1: no clusters.
  int cluster = 1;
  /// Not clustered: why (printed by --emit=tir-lowered).
  std::string why_not_cluster;
  /// Ping-pong consumers (CUTLASS's sm90 "pingpong" kernel schedule): two consumer warpgroups
  /// that each hold a whole accumulator tile (the kernel is lowered for one warpgroup, num_warps
  /// 4) and take alternate logical CTAs of the persistent grid (t, t + 2 nctaid, ... and
  /// t + nctaid, ...). The producer fills the ring for the CTA's tiles in order; each stage is
  /// read by one consumer (its empty mbarrier expects one arrival), and a consumer skips the
  /// other's trips round the ring. Named barriers pass the tensor cores from one consumer to the
  /// other: a consumer's main loop starts when the other has issued its last wgmma, so one's
  /// epilogue overlaps the other's main loop. Taken only when asked for (pingpong=True), on a
  /// persistent grid whose loop's trip count does not depend on bid(), without layout
  /// conversions through shared memory; each consumer stages its TMA stores apart.
  bool pingpong = false;
  /// pingpong=True not honoured: why (printed by --emit=tir-lowered).
  std::string why_not_pingpong;
  bool specialized() const { return schedule == TmaSchedule::Specialized; }
};

/// A tile load that goes from global to shared memory without passing through registers and
/// that mma reads from there: with 16-byte cp.async (PTX ISA §9.7.9.25) in the portable path's
/// vectorized variant, by TMA in the TmaWgmma path. The load's result reaches operand `operand`
/// (0 = a, 1 = b) of `mma` through at most a permute and reshapes that add or drop unit
/// dimensions, and nothing else uses it. In shared memory the tile is `lines` lines of
/// `line_elems` elements (the load's last, contiguous dimension): swizzled rows of the whole
/// line for cp.async (layout.h, swizzled_offset); for TMA, boxes of 64 elements (128 bytes) of
/// every line, one after the other, each in the 128-byte swizzle of TMA and wgmma.
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
  /// TMA: tiles loaded once, before the loop, into a buffer of their own that every iteration's
  /// wgmma reads as its A operand (the Q tile of flash attention, FA3's "Q in shared memory":
  /// no registers held across the loop). They sit after the stages (offset: bytes from stage
  /// 0, 1024-byte aligned) and complete on one mbarrier of their own, after the empty ones.
  std::vector<AsyncLoad> resident;
  int64_t resident_bytes() const;
  /// cp.async: the mma that holds the late sync (the wait, the barrier and the next stage's
  /// copies, before its last k step), when it is the body's last reader of the stage and sits
  /// at the top level of the body (so every thread reaches it once per iteration); else null,
  /// and they sit at the top of each iteration (finish_pipelines).
  const ir::Op* sync_mma = nullptr;
  /// TMA: the mbarriers after the stages and the resident tiles: full[s] at barriers + 8 s,
  /// empty[s] at barriers + 8 (stages + s), the resident tiles' at barriers + 16 stages (bytes
  /// from the 1024-byte aligned start of the stages).
  int64_t barriers = 0;
};

/// One run of a TMA-stored tile's registers that a thread writes to the staging buffer with one
/// st.shared: registers [reg, reg + count) go to address thread_base[key] + imm, where
/// thread_base[key] is the thread's part of the 128-byte-swizzled address with the chunk index
/// XORed by `key` (TmaStore; tma_store.cpp checks the decomposition for every thread).
struct StagedRun {
  int64_t reg = 0;
  int count = 1;     ///< 1, 2 or 4 elements, at most 16 bytes, aligned to their size
  int key = 0;       ///< 0-7: the register's 16-byte chunk bits, XORed into the thread's
  int64_t imm = 0;   ///< bytes: the register's part of the address within its box, plus offset
  int64_t box = 0;   ///< the 128-byte box (span of the line) the registers fall in
};

/// A tile store of a TmaWgmma kernel that goes through shared memory and a TMA bulk tensor
/// store (cp.async.bulk.tensor global.shared::cta, PTX ISA §9.7.9.25.5.2) instead of one
/// st.global per register: every thread writes its elements into a staging buffer in the
/// 128-byte swizzle of TMA (boxes of 128 bytes of each line, as AsyncLoad lays out loads),
/// fences them for the async proxy (fence.proxy.async), the consumers meet at a barrier and
/// thread 0 issues one store per box; the copy engine clips the parts outside the array, so
/// edge tiles need no predicates. The staging buffer is in the TMA stages, which are dead
/// after the kernel's last pipelined loop (tma_store.cpp, plan_tma_stores).
struct TmaStore {
  const ir::Op* store = nullptr;
  int64_t lines = 0, line_elems = 0;
  int esz = 2;             ///< element bytes
  /// Bytes from the start of stage 0 (a multiple of 1024): in the stages, or on a persistent
  /// grid after the mbarriers.
  int64_t offset = 0;
  /// Boxes the staging buffer holds: boxes(), or, on a persistent grid whose ring would give up
  /// a stage for the whole tile, a ring of fewer slots that the boxes pass through one by one
  /// (box b in slot b % slots, stored as soon as it is written; tma_store.cpp).
  int64_t slots = 0;
  std::vector<StagedRun> runs;
  int64_t pitch() const { return line_elems * esz; }
  int64_t boxes() const { return pitch() / 128; }
  int64_t box_bytes() const { return lines * 128; }
  int64_t bytes() const { return lines * pitch(); }
  int64_t staging_bytes() const { return slots * box_bytes(); }
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
  /// Warps that hold the kernel's tile values (the consumers, on a Specialized kernel).
  int num_warps = 4;
  int threads() const { return num_warps * 32; }
  /// TmaWgmma: the producer/consumer split.
  Specialization spec;
  /// TmaWgmma: tma-wgmma-plan lowered the kernel with one warpgroup per accumulator tile for
  /// ping-pong consumers (pingpong=True); plan_specialization then takes them or falls back to
  /// one cooperative consumer warpgroup.
  bool pingpong_layout = false;
  /// Warpgroups that run the kernel's body: num_warps / 4, or two ping-pong consumers, each with
  /// the whole tile.
  int consumer_warpgroups() const { return spec.pingpong ? 2 : std::max(num_warps / 4, 1); }
  /// Threads a CTA launches with: the consumers, plus the producer warpgroup of a Specialized
  /// kernel.
  int launch_threads() const { return threads() * (spec.pingpong ? 2 : 1) + (spec.specialized() ? 128 : 0); }
  /// Ping-pong: bytes from consumer 0's TMA-store staging buffers to consumer 1's.
  int64_t staging_stride = 0;
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
  /// both; pipeline.cpp, copy_kind). It goes through registers; wgmma_plan_ok and
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
  /// TmaWgmma: whether `mma` runs on wgmma (both operands come by TMA).
  bool is_wgmma(const ir::Op& mma) const;
  /// The TMA loads in the order of the entry's tensor-map parameters (TmaWgmma; else empty).
  std::vector<const AsyncLoad*> tensor_maps() const;
  /// The register layout of `mma`'s accumulator: mma.sync fragments (mma_layout), or for a
  /// wgmma the fragments of m64nNk16, one warpgroup per 64 rows (wgmma_layout).
  Layout accumulator_layout(const ir::Op& mma) const;
  /// TmaWgmma: the tile stores that go through shared memory and TMA (plan_tma_stores); their
  /// tensor maps follow the loads' in the entry's parameters.
  std::vector<TmaStore> tma_stores;
  /// The TmaStore of store op `op`, or null.
  const TmaStore* tma_store(const ir::Op& op) const;
  std::vector<LoweringWarning> warnings;
  /// Values of async-load chains, mapped to their load (the emitter skips their ops).
  std::map<const ir::Value*, const AsyncLoad*> async_values;
  /// The divisors the launch stub computes (plan_launch_divisors), in the order of their
  /// parameters, and the // and % ops that divide by each (index into launch_divisors).
  std::vector<LaunchDivisor> launch_divisors;
  std::map<const ir::Op*, int> divided_at_launch;
  /// Scalar ops whose results only those divisors needed: the emitter leaves them out.
  std::set<const ir::Op*> computed_at_launch;
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

/// The TmaWgmma path of `f` for `target` (has_wgmma and has_tma), or nullopt with `why` when
/// the kernel does not fit it: every mma fed by a pipelined loop must read both operands by TMA
/// (f16 or bf16 with f32 accumulators, or f16 with f16 accumulators: PTX ISA §9.7.15.5; M a
/// multiple of 64 up to 256, N a multiple of 8 up to 256, K a multiple of 16; lines of a
/// multiple of 128 bytes and at most 256 of them). The
/// path runs one warpgroup per 64 rows of the accumulator (or as the consumers= and pingpong=
/// options ask, consumers_fit; -Wconsumers and -Wpingpong when they cannot) and as many stages (at most 8) as fit
/// in `smem_limit`, whatever num_warps and num_stages say (they apply to the portable path;
/// num_stages=1, no pipelining, also means no tma_wgmma path). Runs the path's lowering steps
/// (lowering_steps.h); `print_after` as for lower_kernel.
std::optional<LoweredKernel> lower_tma_wgmma(ir::Function& f, const Target& target, int64_t smem_limit,
                                             std::string& why, std::string* print_after = nullptr);

/// The k of one wgmma instruction for operands of dtype `t` (PTX ISA §9.7.15.5.1): 32 bytes
/// of each row, so 16 for f16 and bf16, 32 for f8e4m3 and f8e5m2, 8 for tf32.
int64_t wgmma_k(DType t);

/// TMA boxes of the 128-byte swizzle fit `al`: whole 128-byte spans of each line, 8 to 256
/// lines in multiples of 8 (one swizzle pattern), arrays of at most 5 dimensions (PTX ISA
/// §9.7.9.25.5.1, cp.async.bulk.tensor; tma_pipeline.cpp).
bool tma_box_ok(const AsyncLoad& al);

/// Why `u` goes through registers instead of TMA, for messages: "the load at line L, whose
/// innermost offset (column C) is known to be a multiple of N bytes but not of 16: a TMA box
/// must start at a multiple of 16 bytes along its innermost dimension (language.md §7.2.1)".
std::string unaligned_text(const LoweredKernel::UnalignedLoad& u);

/// TmaWgmma: the mmas of `k` that stay on mma.sync (not at the top of a pipelined loop's body
/// with that pipeline's loads as operands), in program order, and why one does, for messages:
/// "it runs under the if at line 13" (lowered_text.cpp; --emit=tir-lowered and -Wwgmma).
std::vector<const ir::Op*> sync_mmas(const LoweredKernel& k);
std::string why_mma_sync(const LoweredKernel& k, const ir::Op& mma);

/// TmaWgmma: whether the pipelines of `k` (planned, layouts not yet assigned) fit wgmma and TMA
/// (lower_tma_wgmma's rules); `warpgroups` is then the number the accumulators need.
bool wgmma_plan_ok(const LoweredKernel& k, int& warpgroups, std::string& why);

/// TmaWgmma, after wgmma_plan_ok: whether each accumulator tile of `k`'s pipelined loop can be
/// held by `tile_warpgroups` warpgroups (rows split evenly, a multiple of 64 each) in a CTA of
/// `consumers` consumer warpgroups beside a producer. A warpgroup holding more than 64 rows
/// issues one m64 wgmma per 64 of them at each k step, reading rows 8-line group by 8-line
/// group apart (ptx/wgmma.cpp), so A must come by TMA with K along its lines; the accumulators
/// must fit the registers setmaxnreg gives the consumers. Else false with `why`.
bool consumers_fit(const LoweredKernel& k, int tile_warpgroups, int consumers, std::string& why);

/// After the stages are placed, TmaWgmma: chooses the Specialized schedule when the kernel has
/// one pipelined loop at the top level of its body, nothing before it that can return, loop
/// bounds and fixed TMA indices computed by scalar arithmetic the producer can repeat, and
/// consumer accumulators that fit the registers setmaxnreg gives them; else Inline, with the
/// reason in `k.spec.why_inline` (tma_pipeline.cpp).
void plan_specialization(LoweredKernel& k);

/// After layouts, TmaWgmma: places the stages (1024-byte aligned) and their mbarriers after the
/// conversion buffer and picks their number (tma_pipeline.cpp).
void finish_tma_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit);

/// After the specialization, TmaWgmma: the tile stores that can go through TMA (TmaStore): at the
/// top level of the body after every pipelined loop, at tile indices in the array's own order,
/// an f16, bf16 or f32 tile whose lines are whole 128-byte spans and a multiple of 8 lines (at
/// most 256) of an array of at most 5 dimensions that nothing later accesses, in a layout without
/// copies whose swizzled addresses split into a per-thread and a per-register part; their
/// staging buffers, one after the other, must fit in the stages. On a persistent grid (whose
/// producer refills the stages meanwhile) they get shared memory of their own after the
/// mbarriers, within `smem_limit` (bytes per CTA), and the ring gives up stages for them, down to
/// two. Others stay st.global stores.
void plan_tma_stores(LoweredKernel& k, int64_t smem_limit);

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
/// scalar (cp.async pipeline loads excepted), in bytes, 0 for element by element. At tile
/// indices it is vector_access_bytes. At element offsets (load(offset=)) a vector must also
/// start at a multiple of its size: it is vector_access_bytes capped by the alignment of the
/// innermost offset, the largest power of two known to divide it (IntegerFacts, under the
/// launch stub's check of array_vector_bytes, which these widths enlarge: the least fixed
/// point from the tile-index accesses' check) times the element size, and 0 below 4 bytes.
std::map<const ir::Op*, int> access_vector_bytes(const LoweredKernel& low);
/// Per array that tile loads or stores access (cp.async pipeline loads excepted): the widest
/// access_vector_bytes of those accesses, 1 when none is in vectors. The launch stub takes the
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
