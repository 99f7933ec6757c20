// The tma_wgmma path's plan (lower.h LoweredKernel::plan): the operand tiles of pipelined mma
// loops come by TMA (cp.async.bulk.tensor) into 128-byte-swizzled shared memory, guarded by
// mbarriers, and wgmma reads them from there (perf.md rung L2; bench/hopper_proto). Beside the
// shared lowering (layouts, pipelines, stages) the path decides the producer/consumer split
// (Specialization: warp specialization, a persistent grid, clusters, ping-pong consumers), the
// stages' mbarriers and the tile stores that leave by TMA (TmaStore). Shared code reads these
// through PathPlan (paths/path_plan.h); only the path's own files include this header.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/lowering/lower.h"

namespace tilec::codegen::tma_wgmma {

/// How a kernel on this path issues its TMA copies (perf.md, rungs L2 and L4; bench/hopper_proto
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

/// The producer/consumer split of a Specialized kernel (specialize.cpp, plan_specialization).
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
  /// two or more consumer warpgroups and no `return` (a consumer leaving a tile early would leave
  /// the producer's stages unread); with resident tiles only when asked for (persistent=True,
  /// not yet measured): the producer reloads them for each tile once the consumers' wgmma of the
  /// last one have read them (their `resident empty` mbarrier), so the next tile's resident
  /// load overlaps the last one's epilogue.
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

/// A tile store of a kernel on this path that goes through shared memory and a TMA bulk tensor
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

/// The plan of a kernel lowered on the tma_wgmma path.
class Plan final : public PathPlan {
 public:
  /// What the accumulators of the pipelined mmas need: one warpgroup per 64 rows
  /// (tma-wgmma-plan).
  int warpgroups = 0;
  /// The producer/consumer split.
  Specialization spec;
  /// tma-wgmma-plan lowered the kernel with one warpgroup per accumulator tile for ping-pong
  /// consumers (pingpong=True); plan_specialization then takes them or falls back to one
  /// cooperative consumer warpgroup.
  bool pingpong_layout = false;
  /// Ping-pong: bytes from consumer 0's TMA-store staging buffers to consumer 1's.
  int64_t staging_stride = 0;
  /// Per pipelined loop: where its mbarriers start, after the stages and the resident tiles:
  /// full[s] at barriers + 8 s, empty[s] at barriers + 8 (stages + s), the resident tiles' at
  /// barriers + 16 stages (bytes from the 1024-byte aligned start of the stages).
  std::map<const ir::Op*, int64_t> barriers;
  /// The tile stores that go through shared memory and TMA (plan_tma_stores); their tensor
  /// maps follow the loads' in the entry's parameters.
  std::vector<TmaStore> tma_stores;

  /// Warpgroups that run the kernel's body: num_warps / 4, or two ping-pong consumers, each
  /// with the whole tile.
  int consumer_warpgroups(const LoweredKernel& k) const { return spec.pingpong ? 2 : std::max(k.num_warps / 4, 1); }
  /// Whether `mma` runs on wgmma (both operands come by TMA).
  bool is_wgmma(const LoweredKernel& k, const ir::Op& mma) const;
  /// The TMA loads in the order of the entry's tensor-map parameters.
  std::vector<const AsyncLoad*> tensor_maps(const LoweredKernel& k) const;
  /// The TmaStore of store op `op`, or null.
  const TmaStore* tma_store(const ir::Op& op) const;
  /// The mbarriers of pipeline `p` (barriers); 0 before tma-stages places them (the text of
  /// --print-after-all after the earlier steps).
  /// The bytes of pipeline `p`'s mbarriers with `stages` stages: full and empty per stage, and
  /// the resident tiles' full and empty (persistent grids reload them per tile).
  static int64_t mbarrier_bytes(const Pipeline& p, int stages) { return 16 * stages + (p.resident.empty() ? 0 : 16); }
  int64_t barriers_of(const Pipeline& p) const {
    auto it = barriers.find(p.loop);
    return it == barriers.end() ? 0 : it->second;
  }

  // ---- PathPlan (plan.cpp, lowered_text.cpp)
  void plan_loop(LoweredKernel& k, const ir::Op& loop, Pipeline& p, const ir::Users& users,
                 const IntegerFacts& facts) override;
  bool own_mma(const LoweredKernel& k, const ir::Op& mma) const override { return is_wgmma(k, mma); }
  Layout own_accumulator_layout(const LoweredKernel& k, const ir::Op& mma) const override;
  std::optional<Layout> register_a_layout(const LoweredKernel& k, const ir::Op& mma) const override;
  int64_t shared_bytes(const LoweredKernel& k) const override;
  int launch_threads(int threads) const override {
    return threads * (spec.pingpong ? 2 : 1) + (spec.specialized() ? 128 : 0);
  }
  int tensor_map_params(const LoweredKernel& k) const override {
    return int(tensor_maps(k).size() + tma_stores.size());
  }
  bool persistent_grid() const override { return spec.persistent; }
  bool moves_registers() const override { return spec.producer_registers != 0; }
  std::string summary(const LoweredKernel& k) const override;
  std::vector<std::string> notes_before(const LoweredKernel& k, const ir::Op& op,
                                        const ir::ValueName& name) const override;
  std::vector<std::string> notes_after(const LoweredKernel& k, const ir::Op& op,
                                       const ir::ValueName& name) const override;
  std::string annotation(const LoweredKernel& k, const ir::Op& op) const override;
  std::vector<std::pair<const ir::Op*, std::string>> mmas_off_path(const LoweredKernel& k) const override;
};

/// The plan of `k`, lowered on the tma_wgmma path.
Plan& plan_of(LoweredKernel& k);
const Plan& plan_of(const LoweredKernel& k);

}  // namespace tilec::codegen::tma_wgmma
