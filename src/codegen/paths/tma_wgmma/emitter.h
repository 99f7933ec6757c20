// The tma_wgmma path's emitter (emitter.cpp; ptx/path_emitter.h): what an entry of the path
// writes beside the Emitter's shared families. It owns the path's families, one class and one
// file pair each:
//   ring.h           the TMA ring of a pipelined loop (its release step a parameter)
//   cluster.h        clusters of two CTAs: ranks, multicast boxes, release in both CTAs
//   wgmma.h          wgmma
//   store_emitter.h  TMA stores
// and itself writes the warp-specialized body: the role branch, a persistent grid's tile loop
// and ping-pong consumers (plan.h Specialization).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/paths/tma_wgmma/cluster.h"
#include "codegen/paths/tma_wgmma/plan.h"
#include "codegen/paths/tma_wgmma/ring.h"
#include "codegen/paths/tma_wgmma/store_emitter.h"
#include "codegen/paths/tma_wgmma/wgmma.h"
#include "codegen/ptx/path_emitter.h"

namespace tilec::codegen::tma_wgmma {

class TmaWgmmaEmitter final : public PathEmitter, FamilyEmitter {
 public:
  TmaWgmmaEmitter(EmitContext& cx, const Plan& plan);

  void take_params(const std::vector<std::string>& maps, const std::vector<std::string>& grid) override;
  void prologue() override;
  bool body() override;
  bool mma(const ir::Op& op) override;
  bool store(const ir::Op& op) override;
  bool grid_op(const ir::Op& op, const std::string& r) override;
  void loop_prologue(const ir::Op& loop, const Pipeline& p) override;
  void loop_iteration() override { ring_.iteration(ring_state_); }
  void loop_advance() override { ring_.advance(ring_state_, !pl_.spec.specialized()); }
  void loop_epilogue() override;

 private:
  /// A Specialized kernel's body (plan.h TmaSchedule): mbarriers, then the role branch. The
  /// producer warpgroup gives registers back, its thread 0 runs the producer ops and the
  /// ring's copies, the others exit; the consumer warpgroups take registers and run the body.
  void specialized_body();
  /// A persistent grid's tile loop (plan.h Specialization::persistent): `tile` (u64) starts at
  /// %ctaid.x; at `top`, past the last logical CTA it branches to `done`, else sets
  /// persistent_bid_ to the logical CTA's (x, y, z) (x fastest, as the hardware numbers CTAs).
  /// Ping-pong consumer c starts at %ctaid.x + c %nctaid.x (`first`, u32 c; "" for 0).
  void tile_loop_begin(const std::string& tile, const std::string& top, const std::string& done,
                       const std::string& first = "");
  /// tile += `strides` %nctaid.x, and back to `top`.
  void tile_loop_next(const std::string& tile, const std::string& top, int strides = 1);
  /// The logical CTA (x, y, z: u32 registers) of logical tile number `tile` (u64; x fastest).
  std::vector<std::string> logical_cta(const std::string& tile);
  /// The producer thread, before its own producer ops: the tile origins of every TMA load at
  /// the peer's logical tile `peer` (u64; the producer ops run again at that logical CTA).
  std::vector<std::vector<std::string>> cluster_peer_origins(const ir::Op& loop, const std::string& peer);
  /// Ping-pong (plan.h Specialization::pingpong), a consumer before its main loop: unless this
  /// is consumer 0's first tile, skip the other consumer's trips round the ring (as many as
  /// this tile's, which do not depend on bid()) and wait until the other has issued its main
  /// loop's wgmma (named barrier 5 - c, arrived at by the other's pingpong_pass).
  void pingpong_turn(const ir::Op& loop, RingState& st);
  /// Ping-pong, after a consumer's main loop issued its last wgmma: the tensor cores go to the
  /// other consumer (bar.arrive on named barrier 4 + c).
  void pingpong_pass();

  const Plan& pl_;
  /// Ping-pong consumers: the consumer warpgroup (u32: 0 or 1) and the id of its own named
  /// barrier (u32: 2 + consumer); empty otherwise.
  std::string consumer_index_, consumer_bar_;
  TmaRing ring_;
  ClusterEmitter cluster_;
  WgmmaEmitter wgmma_;
  TmaStoreEmitter store_;
  /// The ring of the pipelined loop being emitted.
  RingState ring_state_;
  /// Specialized: the ring's addresses, set up before the role branch.
  RingState specialized_ring_;
  /// Ping-pong: u32, 1 when the consumer's next main loop must first skip the other's trips and
  /// wait for its turn (all but consumer 0's first tile).
  std::string pingpong_skip_;
  /// A persistent grid: the logical grid (u32 registers, x y z) and the logical CTA of the
  /// tile being run, which bid() and num_blocks() report; empty otherwise.
  std::vector<std::string> persistent_grid_, persistent_bid_;
  /// A persistent grid: the logical CTA count (u64) of the role's tile loop (tile_loop_begin).
  std::string tile_total_;
};

}  // namespace tilec::codegen::tma_wgmma
