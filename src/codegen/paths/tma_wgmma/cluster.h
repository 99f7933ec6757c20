// Clusters of two CTAs on the tma_wgmma path's persistent grid (cluster.cpp; plan.h
// Specialization::cluster): the cluster's ranks and barrier, whether the peer has a tile this
// round, which TMA boxes each CTA multicasts, the ring's release step in both CTAs, and the
// producer's tail.
#pragma once

#include <string>
#include <vector>

#include "codegen/paths/tma_wgmma/ring.h"

namespace tilec::codegen::tma_wgmma {

class ClusterEmitter : FamilyEmitter {
 public:
  ClusterEmitter(EmitContext& cx, TmaRing& ring) : FamilyEmitter(cx), ring_(ring) {}

  /// Every thread, before the role branch: this CTA's rank in the cluster and the peer's.
  void setup();
  /// Every thread of both CTAs: barrier.cluster arrive (release) and wait (acquire), so the
  /// peer's mbarriers are initialized before any copy or arrival reaches them.
  void sync();
  /// At the top of a tile of the tile loop (`tile`, u64, of `total` logical CTAs): whether the
  /// peer CTA has a tile this round (logical tile `tile ^ 1` exists); returns `tile ^ 1` (u64).
  std::string peer_tile(const std::string& tile, const std::string& total);
  /// The producer thread, after the ring's tile origins: st.cluster_copy from the two CTAs'
  /// origins (`peer_origin`: the peer's, per load and dimension).
  void copy_plan(RingState& st, const std::vector<std::vector<std::string>>& peer_origin);
  /// The ring's release step in a cluster: one thread per warpgroup (`release`) frees stage
  /// `bar` (u32 shared address) in both CTAs when the peer has a tile this round (its producer
  /// may multicast into this CTA's stage), else twice here.
  void release(const std::string& release, const std::string& bar);
  /// The producer thread, after its last tile: waits until every stage is empty in the ring's
  /// next round, so every arrival the peer's consumers make on this CTA's mbarriers has landed
  /// before the CTA exits (CUTLASS's producer tail).
  void producer_tail(RingState& st);

 private:
  TmaRing& ring_;
  /// This CTA's rank (u32), the peer's rank (u32), and whether the peer has a tile in this
  /// round of the tile loop (pred).
  std::string rank_, peer_, peer_in_;
};

}  // namespace tilec::codegen::tma_wgmma
