// The TMA ring of a pipelined loop (ring.cpp): a ring of stages, each with a full mbarrier (the
// TMA bytes landed) and an empty one (every consumer warpgroup's wgmma read it), filled by one
// producer thread with cp.async.bulk.tensor and read by the consumers. How a consumer warpgroup
// releases a stage is a parameter of the ring (release_step): an mbarrier arrive on this CTA's
// empty mbarrier, or in a cluster on both CTAs' (cluster.h).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "codegen/paths/tma_wgmma/plan.h"
#include "codegen/ptx/context.h"

namespace tilec::codegen::tma_wgmma {

/// How one TMA load's boxes are copied in a cluster of two CTAs (cluster.cpp): `local` when
/// the peer's tile differs (each CTA copies every box into its own stages), else box b by the
/// CTA of rank b % 2 (`mine[b % 2]`), multicast into both.
struct ClusterCopy {
  std::string local, mine[2];
};

/// One TMA pipeline's registers: the slot and phase registers count round the ring (a phase
/// flips at each wrap).
struct RingState : EmitContext::LoopCounter {
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
  /// u32 shared addresses of the resident tiles (Pipeline::resident) and of their mbarriers
  /// (full: the bytes in; empty: the consumer warpgroups done with them, on a persistent grid);
  /// empty without resident tiles.
  std::string resident, resident_full, resident_empty;
  /// u32: on a persistent grid, the parity of the resident tiles' next load, the consumers' (to
  /// wait for full) and the producer's (to wait for empty); they flip once per tile.
  std::string resident_rphase, resident_wphase;
  /// Clusters (Specialization::cluster), per TMA load: the predicates of how its boxes go this
  /// tile (cluster.cpp); empty strings without clusters or for a one-box tile.
  std::vector<ClusterCopy> cluster_copy;
};

class TmaRing : FamilyEmitter {
 public:
  TmaRing(EmitContext& cx, const Plan& plan);

  /// One thread per warpgroup (`release`, a predicate) frees stage `bar` (u32 shared address):
  /// the ring's release step; by default an arrive on this CTA's empty mbarrier.
  std::function<void(const std::string& release, const std::string& bar)> release_step;
  /// The generic address (u64 register) of each TMA load's tensor-map parameter.
  std::map<const AsyncLoad*, std::string> maps;

  /// The stages' and mbarriers' shared addresses (st.base, full, empty) of pipeline `p`.
  void setup(const Pipeline& p, RingState& st);
  /// The calling thread initializes the mbarriers (full: 1 arrival, empty: one per consumer
  /// warpgroup, of both CTAs of a cluster), fences them for the other threads and the copy
  /// engine, and prefetches the tensor maps; a CTA barrier must follow before any thread uses
  /// them.
  void init_barriers(const RingState& st);
  /// Inline (thread 0 of the consumers produces) before the loop: the barriers, then the first
  /// stages issued.
  void inline_prologue(const ir::Op& loop, const Pipeline& p, RingState& st);
  /// The producer thread, before a tile's copies of `loop`: its counter, the resident tiles and
  /// the fixed tile origins (st.cluster_copy cleared: ClusterEmitter::copy_plan may fill it).
  void start_producing(const ir::Op& loop, RingState& st);
  /// The producer thread: every iteration's copies, each stage issued when the consumers have
  /// emptied it.
  void produce(RingState& st);
  /// Every consumer thread: wait for the resident tiles, and note their shared addresses.
  void wait_resident(const RingState& st);
  /// Persistent grid, after the loop's wgmma have finished: one thread per consumer warpgroup
  /// releases the resident tiles, so that the producer may load the next tile's.
  void release_resident(const RingState& st);
  /// Top of an iteration: wait until this stage's bytes landed; the operands' shared addresses.
  void iteration(RingState& st);
  /// End of an iteration: release the stage the previous one read (its wgmma group finished at
  /// this iteration's wait_group 1); with `refill`, thread 0 refills it with the tile `stages -
  /// 1` ahead (inline: no producer warpgroup).
  void advance(RingState& st, bool refill);
  /// One thread per warpgroup releases the stage st.prev, unless prev is `stages` (no stage
  /// read yet): the wgmma groups that read it have finished.
  void release_prev(const RingState& st);
  /// After an inline loop: every warp is done with the stages, then thread 0 invalidates the
  /// mbarriers (a later loop, or this one inside an outer loop, starts afresh).
  void invalidate(const RingState& st);
  /// The tile origins of the TMA loads' fixed dimensions (st.origin), from their indices.
  void origins(const ir::Op& loop, RingState& st);
  /// Per dimension of `al`'s load: the u32 tile origin in elements (index * extent, or at
  /// element offsets the offset: coordinate), "" where the index is `iv` or computed from it in
  /// the loop's body (it moves with the loop: issue computes it per iteration).
  std::vector<std::string> origin(const AsyncLoad& al, const ir::Value* iv);
  /// Predicate: thread 0 of the calling thread's warpgroup (of the compute threads).
  std::string warpgroup_leader();
  /// Spins on mbarrier.try_wait.parity of the mbarrier at u32 shared address `bar`; with device
  /// asserts, traps after 2^22 failed tries (a deadlock becomes a launch error, not a hang).
  void mbarrier_wait(const std::string& bar, const std::string& parity);
  /// slot += 1 round a ring of `n`, flipping `phase` at the wrap.
  void ring_next(const std::string& slot, const std::string& phase, int n);

 private:
  /// The u32 tile origin `index` (a register of `dtype`) times `extent` elements.
  std::string tile_origin(const std::string& index, DType dtype, int64_t extent);
  /// The TMA coordinate (u32 holding an s32, elements; PTX ISA §9.7.9.25.5.1: tensor
  /// coordinates are .s32) of `al`'s tile origin along dimension `d`, from register `value` of
  /// `dtype` holding the origin (an element offset): 32-bit and narrower as they are (any s32
  /// origin is exact: TMA reads the part of a box outside the array as zeros); 64-bit clamped
  /// to [-tile extent, array extent] first (the innermost's extent rounded up to 16 bytes, the
  /// alignment TMA needs there), which leaves every box wholly outside the array wholly
  /// outside.
  std::string coordinate(const AsyncLoad& al, size_t d, const std::string& value, DType dtype);
  /// The register of scalar `v` when the loop's induction variable `iv` (its body's argument)
  /// is register `at`: `v` itself is `iv`, or is computed from it (and values from before the
  /// loop) by ops at the top of the body (pipelines.cpp), which are emitted again here with `at`
  /// in `iv`'s place; the body's own registers are left as they were.
  std::string value_at(const ir::Value* v, const ir::Value* iv, const std::string& at);
  /// The copies of `al`'s boxes to shared address `dst` (u32) + `offset` bytes, completing on
  /// mbarrier `bar`, from the tile origin per dimension (u32, elements).
  void copy(const AsyncLoad& al, const std::vector<std::string>& origin, const std::string& dst, int64_t offset,
            const std::string& bar, const ClusterCopy* cluster = nullptr);
  /// The producer thread: expect the resident tiles' bytes and issue their copies (once; on a
  /// persistent grid once per tile, after the consumers released the last tile's).
  void issue_resident(const RingState& st);
  /// Thread 0 (the caller branches): wait for stage wslot to be empty, expect its bytes, issue
  /// the copies of iteration iv_issue into it, then move wslot and iv_issue on.
  void issue(RingState& st);

  const Plan& pl_;
};

}  // namespace tilec::codegen::tma_wgmma
