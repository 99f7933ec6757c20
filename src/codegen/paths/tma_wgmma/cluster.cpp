// Clusters of two CTAs on the tma_wgmma path's persistent grid (plan.h Specialization::cluster;
// perf.md rung L6, fast.cu's H7). The two CTAs of a cluster (ranks 0 and 1 along x) take logical
// CTAs t and t ^ 1 in each round of the tile loop. Where a TMA load's tile has the same origin in
// both (the B tile of two row tiles in the same column band), the CTA of rank b % 2 copies box b
// with .multicast::cluster into both CTAs' stages (the same offset, completing on the full
// mbarrier at the same offset in each), so the pair reads the tile from L2 once; otherwise each
// CTA copies every box into its own stages. A full mbarrier expects the same bytes either way.
//
// A producer may write into the peer's stage, so a stage is empty only when both CTAs' consumers
// have released it: empty[s] counts 2 x the consumer warpgroups, and each warpgroup arrives once
// on its own CTA's and once on the peer's (mapa + mbarrier.arrive.shared::cluster), or twice on
// its own when the peer has no tile this round (the last, odd one). The rings of the two CTAs
// therefore run in step (the same trip count in every tile: plan_cluster checks that the loop's
// bounds do not depend on bid()). Before any copy or arrival reaches the peer, both CTAs have
// initialized their mbarriers (a cluster barrier); before a CTA exits, its producer waits until
// every stage is empty once more, so no arrival of the peer's consumers is still to come
// (CUTLASS's "producer tail"). PTX ISA: mapa (§9.7.9.22), barrier.cluster (§9.7.13.2),
// mbarrier.arrive (§9.7.13.15.13), cp.async.bulk.tensor (§9.7.9.25.5.1).

#include "codegen/paths/tma_wgmma/cluster.h"

#include <fmt/format.h>

namespace tilec::codegen::tma_wgmma {

void ClusterEmitter::setup() {
  rank_ = b_.reg(RegClass::B32);
  peer_ = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {rank_, "%cluster_ctarank"});
  b_.ins("xor.b32", {peer_, rank_, "1"});
}

void ClusterEmitter::sync() {
  b_.ins("barrier.cluster.arrive.release.aligned", {});
  b_.ins("barrier.cluster.wait.acquire.aligned", {});
}

std::string ClusterEmitter::peer_tile(const std::string& tile, const std::string& total) {
  std::string peer = b_.reg(RegClass::B64);
  peer_in_ = b_.reg(RegClass::Pred);
  b_.ins("xor.b64", {peer, tile, "1"});
  b_.ins("setp.lt.u64", {peer_in_, peer, total});
  return peer;
}

void ClusterEmitter::copy_plan(RingState& st, const std::vector<std::vector<std::string>>& peer_origin) {
  std::string rank0 = b_.reg(RegClass::Pred);
  b_.ins("setp.eq.u32", {rank0, rank_, "0"});
  const std::vector<AsyncLoad>& loads = st.p->loads;
  st.cluster_copy.assign(loads.size(), ClusterCopy{});
  const ir::Value* iv = st.p->loop->regions[0]->args[0];
  for (size_t i = 0; i < loads.size(); ++i) {
    if (loads[i].boxes() < 2) continue;  // one box: nothing to split between the two CTAs
    // An origin computed in the loop from the induction variable and values from before it
    // (`k + s`) may differ between the two CTAs even where the rest agrees: not split.
    bool derived = false;
    for (size_t d = 0; d < st.origin[i].size(); ++d)
      derived = derived || (st.origin[i][d].empty() && loads[i].load->operands[d + 1] != iv);
    if (derived) continue;
    std::string same = b_.reg(RegClass::Pred);
    b_.ins("mov.pred", {same, peer_in_});
    for (size_t d = 0; d < st.origin[i].size(); ++d) {
      if (st.origin[i][d].empty()) continue;  // the dimension the loop moves: the same in step
      std::string eq = b_.reg(RegClass::Pred);
      b_.ins("setp.eq.u32", {eq, st.origin[i][d], peer_origin[i][d]});
      b_.ins("and.pred", {same, same, eq});
    }
    ClusterCopy& cc = st.cluster_copy[i];
    cc.local = b_.reg(RegClass::Pred);
    cc.mine[0] = b_.reg(RegClass::Pred);
    cc.mine[1] = b_.reg(RegClass::Pred);
    b_.ins("not.pred", {cc.local, same});
    b_.ins("and.pred", {cc.mine[0], same, rank0});
    b_.ins("xor.pred", {cc.mine[1], same, cc.mine[0]});
  }
}

void ClusterEmitter::release(const std::string& release, const std::string& bar) {
  std::string both = b_.reg(RegClass::Pred), alone = b_.reg(RegClass::Pred), remote = b_.reg(RegClass::B32);
  b_.ins("and.pred", {both, release, peer_in_});
  b_.ins("xor.pred", {alone, release, both});
  b_.ins_if(both, "mbarrier.arrive.shared::cta.b64", {"_", "[" + bar + "]"});
  b_.ins_if(both, "mapa.shared::cluster.u32", {remote, bar, peer_});
  // As CUTLASS's ClusterBarrier::arrive(cta_id): release at CTA scope (the default); the
  // .cluster scope costs a MEMBAR.ALL.GPU per stage (ptxas 13.0).
  b_.ins_if(both, "mbarrier.arrive.shared::cluster.b64", {"_", "[" + remote + "]"});
  b_.ins_if(alone, "mbarrier.arrive.shared::cta.b64", {"_", "[" + bar + "]", "2"});
}

void ClusterEmitter::producer_tail(RingState& st) {
  int S = st.p->stages;
  for (int s = 0; s < S; ++s) {
    std::string bar = b_.reg(RegClass::B32), parity = b_.reg(RegClass::B32);
    b_.ins("mad.lo.u32", {bar, st.wslot, "8", st.empty});
    b_.ins("xor.b32", {parity, st.wphase, "1"});
    ring_.mbarrier_wait(bar, parity);
    ring_.ring_next(st.wslot, st.wphase, S);
  }
}

}  // namespace tilec::codegen::tma_wgmma
