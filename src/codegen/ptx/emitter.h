// The PTX emitter: one lowered kernel variant → one `.entry`. The Emitter is the shared
// context (context.h) plus the dispatcher: kernel.cpp writes the entry (parameters, the
// thread-coordinate prologue, structured control flow, grid registers) and hands each op to
// its family, one class and one file pair each:
//   elementwise.h  arithmetic, compare, casts, iota, layout changes   (arith.h, math.h: per register)
//   reduce.h       reductions                    scan.h       cumsum, cumprod
//   memory.h       tile load and store           gather.h     gather, scatter
//   atomic.h       atomics                       histogram.h  histogram
//   shape.h        cat, extract                  debug.h      device assert, printf
//   mma_sync.h     mma.sync                      cp_async.h   the cp.async pipeline of a loop
// The TmaWgmma path's TMA pipeline and wgmma (tma.cpp, wgmma.cpp) are members of the Emitter.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "codegen/lower.h"
#include "codegen/ptx/arith.h"
#include "codegen/ptx/atomic.h"
#include "codegen/ptx/context.h"
#include "codegen/ptx/cp_async.h"
#include "codegen/ptx/debug.h"
#include "codegen/ptx/elementwise.h"
#include "codegen/ptx/gather.h"
#include "codegen/ptx/histogram.h"
#include "codegen/ptx/math.h"
#include "codegen/ptx/memory.h"
#include "codegen/ptx/mma_sync.h"
#include "codegen/ptx/reduce.h"
#include "codegen/ptx/scan.h"
#include "codegen/ptx/shape.h"
#include "codegen/paths/tma_wgmma/lowering.h"

namespace tilec::codegen {

using tma_wgmma::StagedRun;
using tma_wgmma::TmaStore;
using tma_wgmma::wgmma_k;

class Emitter : public EmitContext {
 public:
  Emitter(const LoweredKernel& k, const EmitOptions& o, DiagnosticEngine& diag) : EmitContext(k, o, diag) {}

  /// The `.entry` named `name`, or "" after reporting an error.
  std::string entry(const std::string& name);
  /// Module-scope declarations this entry needs: string constants, and whether it calls the
  /// device runtime's __assertfail or vprintf (declared once per module by emit_module).
  const std::string& globals() const { return debug_.globals(); }
  bool uses_assertfail() const { return debug_.uses_assertfail(); }
  bool uses_vprintf() const { return debug_.uses_vprintf(); }

 private:
  // ---- kernel.cpp
  void params();
  void prologue();
  void block(const ir::Block& b);
  /// Emits one op: a switch over every op kind (no default: the library compiles with
  /// -Werror=switch, so a new op kind without a lowering does not build).
  void op(const ir::Op& op);
  /// Emits again, before `at`, the ops of `at`'s index operands (operands 2 on) that are cheap
  /// scalars defined before a loop in `at`'s block (constants, grid ids, scalar arithmetic on
  /// kernel arguments): their values get fresh registers, so that none is held across the loop.
  void recompute_scalars(const ir::Op& at);
  void emit_for(const ir::Op& op);
  void emit_if(const ir::Op& op);
  void emit_while(const ir::Op& op);
  /// break/continue: the carried registers take the operands, then jump.
  void emit_leave(const ir::Op& op);
  /// Parallel copy of `src` values into the registers of `dst` values.
  void move_values(const std::vector<const ir::Value*>& dst, const std::vector<ir::Value*>& src);
  void grid_op(const ir::Op& op);

  // ---- tma.cpp: the TmaWgmma path's pipeline (lower.h CodePath; bench/hopper_proto/NOTES.md)
  /// One TMA pipeline: a ring of `stages` buffers, each with a full mbarrier (the TMA bytes
  /// landed) and an empty one (every warpgroup's wgmma read it). Thread 0 produces; the slot
  /// and phase registers count round the ring (a phase flips at each wrap).
  /// How one TMA load's boxes are copied in a cluster of two CTAs (tma_cluster.cpp): `local`
  /// when the peer's tile differs (each CTA copies every box into its own stages), else box b
  /// by the CTA of rank b % 2 (`mine[b % 2]`), multicast into both.
  struct ClusterCopy {
    std::string local, mine[2];
  };
  struct TmaState : LoopCounter {
    const Pipeline* p = nullptr;
    std::string base;              ///< u32: shared address of stage 0
    std::string full, empty;       ///< u32: shared addresses of full[0] and empty[0]
    std::string rslot, rphase;     ///< u32: the stage read now and its parity
    std::string wslot, wphase;     ///< u32: the stage written next and its parity
    std::string prev;              ///< u32: the stage the previous iteration read (stages: none)
    std::string leader;            ///< pred: thread 0, which issues the copies
    std::string wg_leader;         ///< pred: thread 0 of each warpgroup, which releases a stage
    /// Per TMA load, per array dimension: the u32 tile origin (index * extent) of the fixed
    /// dimensions ("" for the one that moves with the induction variable).
    std::vector<std::vector<std::string>> origin;
    /// u32 shared addresses of the resident tiles (Pipeline::resident) and of their mbarrier;
    /// empty without resident tiles.
    std::string resident, resident_full;
    /// Clusters (Specialization::cluster), per TMA load: the predicates of how its boxes go
    /// this tile (tma_cluster.cpp); empty strings without clusters or for a one-box tile.
    std::vector<ClusterCopy> cluster_copy;
  };
  /// The stages' and mbarriers' shared addresses (st.base, full, empty) of pipeline `p`.
  void tma_setup(const Pipeline& p, TmaState& st);
  /// The calling thread initializes the mbarriers (full: 1 arrival, empty: one per compute
  /// warpgroup), fences them for the other threads and the copy engine, and prefetches the
  /// tensor maps; a CTA barrier must follow before any thread uses them.
  void tma_init_barriers(const TmaState& st);
  /// The tile origins of the TMA loads' fixed dimensions (st.origin), from their indices.
  void tma_origins(const ir::Op& loop, TmaState& st);
  /// Per dimension of `al`'s load: the u32 tile origin in elements (index * extent, or at
  /// element offsets the offset: tma_coordinate), "" where the index is `iv` or computed from it
  /// in the loop's body (it moves with the loop: tma_issue computes it per iteration).
  std::vector<std::string> tma_origin(const AsyncLoad& al, const ir::Value* iv);
  /// The u32 tile origin `index` (a register of `dtype`) times `extent` elements.
  std::string tma_tile_origin(const std::string& index, DType dtype, int64_t extent);
  /// The TMA coordinate (u32 holding an s32, elements; PTX ISA §9.7.9.25.5.1: tensor
  /// coordinates are .s32) of `al`'s tile origin along dimension `d`, from register `value` of
  /// `dtype` holding the origin (an element offset): 32-bit and narrower as they are (any s32
  /// origin is exact: TMA reads the part of a box outside the array as zeros); 64-bit clamped
  /// to [-tile extent, array extent] first (the innermost's extent rounded up to 16 bytes, the
  /// alignment TMA needs there), which leaves every box wholly outside the array wholly
  /// outside.
  std::string tma_coordinate(const AsyncLoad& al, size_t d, const std::string& value, DType dtype);
  /// The register of scalar `v` when the loop's induction variable `iv` (its body's argument)
  /// is register `at`: `v` itself is `iv`, or is computed from it (and values from before the
  /// loop) by ops at the top of the body (pipeline.cpp), which are emitted again here with `at`
  /// in `iv`'s place; the body's own registers are left as they were.
  std::string value_at(const ir::Value* v, const ir::Value* iv, const std::string& at);
  /// The copies of `al`'s boxes to shared address `dst` (u32) + `offset` bytes, completing on
  /// mbarrier `bar`, from the tile origin per dimension (u32, elements).
  void tma_copy(const AsyncLoad& al, const std::vector<std::string>& origin, const std::string& dst,
                int64_t offset, const std::string& bar, const ClusterCopy* cluster = nullptr);
  /// The producer thread: expect the resident tiles' bytes and issue their copies (once).
  void tma_issue_resident(const TmaState& st);
  /// Every compute thread: wait for the resident tiles, and note their shared addresses.
  void tma_wait_resident(const TmaState& st);
  /// Before the loop. Inline: the barriers, then the first stages issued. Specialized (a
  /// consumer): only the read counters; the producer set up everything else.
  void tma_prologue(const ir::Op& loop, const Pipeline& p, TmaState& st);
  /// A Specialized kernel's body (lower.h TmaSchedule): mbarriers, then the role branch. The
  /// producer warpgroup gives registers back, its thread 0 runs the producer ops and
  /// tma_produce, the others exit; the consumer warpgroups take registers and run the body.
  void specialized_body();
  /// The producer thread: every iteration of `loop`, each stage issued when the consumers
  /// have emptied it.
  /// In a cluster, `peer_origin` is the peer's tile origins of each load
  /// (cluster_peer_origins); empty otherwise.
  void tma_produce(const ir::Op& loop, TmaState& st, const std::vector<std::vector<std::string>>& peer_origin = {});
  /// A persistent grid's tile loop (lower.h Specialization::persistent): `tile` (u64) starts at
  /// %ctaid.x; at `top`, past the last logical CTA it branches to `done`, else sets
  /// persistent_bid_ to the logical CTA's (x, y, z) (x fastest, as the hardware numbers CTAs).
  /// Ping-pong consumer c starts at %ctaid.x + c %nctaid.x (`first`, u32 c; "" for 0).
  void tile_loop_begin(const std::string& tile, const std::string& top, const std::string& done,
                       const std::string& first = "");
  /// tile += `strides` %nctaid.x, and back to `top`.
  void tile_loop_next(const std::string& tile, const std::string& top, int strides = 1);
  /// Ping-pong (lower.h Specialization::pingpong), a consumer before its main loop: unless this
  /// is consumer 0's first tile, skip the other consumer's trips round the ring (as many as this
  /// tile's, which do not depend on bid()) and wait until the other has issued its main loop's
  /// wgmma (named barrier 5 - c, arrived at by the other's pingpong_pass).
  void pingpong_turn(const ir::Op& loop, TmaState& st);
  /// Ping-pong, after a consumer's main loop issued its last wgmma: the tensor cores go to the
  /// other consumer (bar.arrive on named barrier 4 + c).
  void pingpong_pass();
  /// The logical CTA (x, y, z: u32 registers) of logical tile number `tile` (u64; x fastest).
  std::vector<std::string> logical_cta(const std::string& tile);

  // ---- tma_cluster.cpp (Specialization::cluster: two CTAs per cluster along x)
  /// Every thread, before the role branch: this CTA's rank in the cluster and the peer's.
  void cluster_setup();
  /// Every thread of both CTAs: barrier.cluster arrive (release) and wait (acquire), so the
  /// peer's mbarriers are initialized before any copy or arrival reaches them.
  void cluster_sync();
  /// At the top of a tile of the tile loop (`tile`, u64): cluster_peer_in_ = whether the peer
  /// CTA has a tile this round (logical tile `tile ^ 1` exists); returns `tile ^ 1` (u64).
  std::string cluster_peer_tile(const std::string& tile);
  /// The producer thread, before its own producer ops: the tile origins of every TMA load at
  /// the peer's logical tile `peer` (u64; the producer ops run again at that logical CTA).
  std::vector<std::vector<std::string>> cluster_peer_origins(const ir::Op& loop, const std::string& peer);
  /// The producer thread, after tma_origins: st.cluster_copy from the two CTAs' origins.
  void cluster_copy_plan(TmaState& st, const std::vector<std::vector<std::string>>& peer_origin);
  /// One thread per warpgroup (`release`) frees stage `bar` (u32 shared address) in both CTAs
  /// when the peer has a tile this round (its producer may multicast into this CTA's stage), else
  /// twice here.
  void cluster_release(const std::string& release, const std::string& bar);
  /// The producer thread, after its last tile: waits until every stage is empty in the ring's
  /// next round, so every arrival the peer's consumers make on this CTA's mbarriers has landed
  /// before the CTA exits (CUTLASS's producer tail).
  void cluster_producer_tail(TmaState& st);
  /// Top of an iteration: wait until this stage's bytes landed; the operands' shared addresses.
  void tma_iteration(TmaState& st);
  /// End of an iteration: release the stage the previous one read (its wgmma group finished at
  /// this iteration's wait_group 1); thread 0 refills it with the tile `stages - 1` ahead.
  void tma_advance(TmaState& st);
  /// After the loop: every wgmma group finished, so the accumulators can be read.
  void tma_epilogue(TmaState& st);
  /// Predicate: thread 0 of the calling thread's warpgroup (of the compute threads).
  std::string warpgroup_leader();
  /// One thread per warpgroup arrives on empty[st.prev], unless prev is `stages` (no stage
  /// read yet): the wgmma groups that read it have finished.
  void tma_release_prev(const TmaState& st);
  /// Thread 0 (the caller branches): wait for stage wslot to be empty, expect its bytes, issue
  /// the copies of iteration iv_issue into it, then move wslot and iv_issue on.
  void tma_issue(TmaState& st);
  /// Spins on mbarrier.try_wait.parity of the mbarrier at u32 shared address `bar`; with device
  /// asserts, traps after 2^22 failed tries (a deadlock becomes a launch error, not a hang).
  void mbarrier_wait(const std::string& bar, const std::string& parity);
  /// slot += 1 round a ring of `n`, flipping `phase` at the wrap.
  void ring_next(const std::string& slot, const std::string& phase, int n);

  // ---- tma_store.cpp
  /// A TMA store (lower.h TmaStore): registers to the swizzled staging buffer, then thread 0
  /// stores it box by box with cp.async.bulk.tensor and waits until the copy has read it.
  void tma_store(const TmaStore& ts);
  /// Thread 0 waits until the TMA stores it issued have read their staging buffers (a
  /// persistent grid: before the next tile's staging, and before the CTA exits).
  void tma_store_drain();

  // ---- wgmma.cpp
  /// An mma whose operands came by TMA (LoweredKernel::is_wgmma): wgmma.mma_async m64nNk16 per
  /// 16-deep k step with shared-memory descriptors, this warpgroup's 64 rows of the
  /// accumulator, then commit_group and wait_group 1.
  void wgmma(const ir::Op& op);
  /// `wgmma.wait_group n`, then, when n is 0 and the accumulators are read next, a fence that
  /// keeps ptxas from scheduling those reads above the wait: ptxas 13.0 hoisted the reads of a
  /// 128-register accumulator in the same basic block above WARPGROUP.DEPBAR (it tracked only
  /// the first register), and the last k steps went missing on the H200; tools/
  /// check_wgmma_sass.py checks the SASS for it.
  void wgmma_wait(int n);
  /// Whether `mma`'s result is read only by its loop's yield (at `*slot` of the yield).
  bool wgmma_yield_only(const ir::Op& mma, size_t* slot) const;
  /// For an accumulator that may stay in flight into the next iteration (its carried value is
  /// read there only after a wgmma that waits for every group): the loop-carried value whose
  /// registers it accumulates in; else null.
  const ir::Value* deferred_home(const ir::Op& mma) const;
  /// wgmma's A fragment from 16-bit registers in wgmma_layout: consecutive pairs packed into
  /// .b32 registers (four per k step); also an f16 accumulator's D (N/4 registers per thread).
  std::vector<std::string> wgmma_pack(const std::vector<std::string>& halves);
  /// The inverse of wgmma_pack: .b32 register i into halves 2i (low) and 2i + 1.
  void wgmma_unpack(const std::vector<std::string>& packed, const std::vector<std::string>& halves);
  /// The 64-bit shared-memory matrix descriptor (PTX ISA §9.7.15.5.1.2) of a 128-byte-swizzled
  /// operand that starts at u32 shared address `addr`, with leading byte offset `lbo`.
  std::string wgmma_descriptor(const std::string& addr, int64_t lbo, int64_t sbo = 1024);

  // ---- the op families, each with its own state; the later ones use the earlier ones
  MathEmitter math_{*this};
  ArithEmitter arith_{*this, math_};
  ElementwiseEmitter elementwise_{*this, arith_, math_};
  ReduceEmitter reduce_{*this, arith_};
  ScanEmitter scan_{*this, arith_};
  MemoryEmitter memory_{*this};
  GatherEmitter gather_{*this};
  ShapeEmitter shape_{*this};
  AtomicEmitter atomic_{*this, arith_, gather_, shape_};
  HistogramEmitter histogram_{*this, shape_};
  DebugEmitter debug_{*this, arith_};
  CpAsyncPipeline cp_async_{*this};
  MmaSyncEmitter mma_sync_{*this, cp_async_, memory_};

  /// Specialized: the ring's addresses, set up before the role branch.
  TmaState specialized_tma_;
  /// Ping-pong: u32, 1 when the consumer's next main loop must first skip the other's trips and
  /// wait for its turn (all but consumer 0's first tile).
  std::string pingpong_skip_;
  std::string param_text_;  ///< the entry's parameter list
  /// A persistent grid: the logical grid (u32 registers, x y z) and the logical CTA of the
  /// tile being run, which bid() and num_blocks() report; empty otherwise.
  std::vector<std::string> persistent_grid_, persistent_bid_;
  /// A persistent grid: the logical CTA count (u64) of the role's tile loop (tile_loop_begin).
  std::string tile_total_;
  /// Clusters: this CTA's rank (u32), the peer's rank (u32), and whether the peer has a tile in
  /// this round of the tile loop (pred).
  std::string cluster_rank_, cluster_peer_, cluster_peer_in_;
  /// The generic address (u64 register) of each TMA store's tensor-map parameter.
  std::map<const TmaStore*, std::string> store_maps_;
  /// The enclosing loops: where break and continue jump, and the carried registers.
  struct Loop {
    std::string break_label, continue_label;
    std::vector<const ir::Value*> carried;  ///< body arguments holding the carried values
  };
  std::vector<Loop> loops_;
  std::string exit_label_;
};

}  // namespace tilec::codegen
