// The tma_wgmma path's lowering step `specialize` (specialize.h): whether a producer warpgroup
// issues the TMA copies (Specialization), and with it a persistent grid, clusters and ping-pong
// consumers.
#include "codegen/paths/tma_wgmma/specialize.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "codegen/paths/tma_wgmma/wgmma_registers.h"

namespace tilec::codegen::tma_wgmma {
namespace {

// Scalar ops without side effects whose result the producer thread can compute again.
bool repeatable(const ir::Op& op) {
  using ir::OpKind;
  for (const ir::Value* r : op.results)
    if (r->type.is_array || !r->type.is_scalar()) return false;
  if (!op.regions.empty()) return false;
  switch (op.kind) {
    case OpKind::Constant:
    case OpKind::Cast:
    case OpKind::Bitcast:
    case OpKind::Cmp:
    case OpKind::Select:
    case OpKind::Fma:
    case OpKind::BlockId:
    case OpKind::NumBlocks:
    case OpKind::NumSms: return true;
    default: return ir::is_unary_elementwise(op.kind) || ir::is_binary_elementwise(op.kind);
  }
}

bool may_leave(const ir::Op& op) {
  auto leaves = [](const ir::Op& o) {
    return o.kind == ir::OpKind::Return || o.kind == ir::OpKind::Break || o.kind == ir::OpKind::Continue;
  };
  bool found = leaves(op);
  for (const auto& r : op.regions) ir::walk(*r, [&](ir::Op& o) { found = found || leaves(o); });
  return found;
}

// Whether `v` depends on bid() through the ops of `body` (kernel arguments do not).
bool depends_on_bid(const ir::Value* v) {
  std::vector<const ir::Value*> work = {v};
  std::set<const ir::Op*> seen;
  while (!work.empty()) {
    const ir::Op* d = work.back()->def;
    work.pop_back();
    if (!d || !seen.insert(d).second) continue;
    if (d->kind == ir::OpKind::BlockId) return true;
    for (const ir::Value* o : d->operands) work.push_back(o);
  }
  return false;
}

// Specialization::cluster, for a persistent kernel.
void plan_cluster(LoweredKernel& k, const ir::Op& loop) {
  Specialization& s = plan_of(k).spec;
  const ir::LaunchOptions& opt = k.fn->sig.options;
  bool shareable = false;
  for (const AsyncLoad& al : k.pipelines[0].loads) shareable = shareable || al.boxes() >= 2;
  if (!s.persistent) s.why_not_cluster = "not persistent";
  else if (!k.target.has_tma_multicast()) s.why_not_cluster = "TMA multicast needs sm_90a";
  else if (depends_on_bid(loop.operands[0]) || depends_on_bid(loop.operands[1]) || depends_on_bid(loop.operands[2]))
    s.why_not_cluster = "the loop's trip count depends on bid()";
  else if (!shareable) s.why_not_cluster = "no operand tile of two or more 128-byte boxes to share";
  else if (s.pingpong) s.why_not_cluster = "ping-pong consumers";
  else if (!k.pipelines[0].resident.empty()) s.why_not_cluster = "a tile is loaded once before the loop (resident)";
  else if (opt.cluster == 1) s.why_not_cluster = "cluster=1";
  // Measured on the H200 (bench/results/2026-12-02-clusters-h200.md): the coupled rings cost
  // what the multicast saves (matmul 4096^3 0.95x against 0.98x cuBLAS, 8192^3 1.00x both), so
  // clusters are taken only when asked for.
  else if (opt.cluster == 0) s.why_not_cluster = "not asked for (cluster=2)";
  s.cluster = s.why_not_cluster.empty() ? 2 : 1;
  if (s.cluster == 1 && opt.cluster == 2)
    k.warnings.push_back({Warning::Cluster, k.fn->sig.range,
                          fmt::format("cluster=2: the kernel runs without clusters on {}: {}", k.target.arch,
                                      s.why_not_cluster)});
}

}  // namespace

void plan_specialization(LoweredKernel& k) {
  Plan& pl = plan_of(k);
  Specialization& s = pl.spec;
  s = Specialization{};
  // pingpong=True that cannot be honoured: the kernel, lowered with one warpgroup per tile,
  // runs with one cooperative consumer warpgroup.
  auto no_pingpong = [&](const std::string& why) {
    if (!pl.pingpong_layout) return;
    s.why_not_pingpong = why;
    k.warnings.push_back({Warning::Pingpong, k.fn->sig.range,
                          fmt::format("pingpong=True: the kernel runs one cooperative consumer warpgroup per tile on "
                                      "{}: {}",
                                      k.target.arch, why)});
  };
  auto inline_because = [&](std::string why) {
    s.why_inline = why;
    no_pingpong("its TMA producer runs inline (" + why + ")");
    if (k.fn->sig.options.persistent == 1)
      k.warnings.push_back({Warning::Persistent, k.fn->sig.range,
                            fmt::format("persistent=True: the kernel keeps one CTA per tile on {}: its TMA producer "
                                        "runs inline ({})",
                                        k.target.arch, why)});
  };
  if (k.pipelines.empty()) return inline_because("no TMA pipeline");
  if (k.pipelines.size() != 1) return inline_because("more than one pipelined loop");
  const ir::Op& loop = *k.pipelines[0].loop;
  const ir::Block& body = k.fn->body;
  if (loop.parent != &body) return inline_because("the pipelined loop is inside another loop or an if");
  const ir::LaunchOptions& opt = k.fn->sig.options;
  if (opt.max_registers || opt.min_ctas_per_sm)
    return inline_because("max_registers or min_ctas_per_sm is set (setmaxnreg needs the register count ptxas "
                          "gives one CTA per SM)");
  // Registers: consumer_register_counts. Ping-pong runs two consumer warpgroups, each with the
  // whole tile.
  int tile_wg = k.num_warps / 4, wg = pl.pingpong_layout ? 2 : tile_wg;
  int entry = 0, consumer = 0;
  consumer_register_counts(wg, entry, consumer);
  int64_t need = loop_registers(k, k.pipelines[0], tile_wg);
  if (need > std::max(entry, consumer))
    return inline_because(fmt::format("the loop's wgmma ops need about {} registers per thread; the consumers of "
                                      "a warp-specialized CTA get {}",
                                      need, std::max(entry, consumer)));
  // The producer's ops: the backward slice of the loop's bounds and the TMA indices (through the
  // ones computed in the body).
  std::set<const ir::Op*> slice;
  std::vector<const ir::Value*> work = {loop.operands[0], loop.operands[1], loop.operands[2]};
  const ir::Value* iv = loop.regions[0]->args[0];
  for (const std::vector<AsyncLoad>* loads : {&k.pipelines[0].loads, &k.pipelines[0].resident})
    for (const AsyncLoad& al : *loads)
      for (size_t d = 1; d < al.load->operands.size(); ++d)
        if (al.load->operands[d] != iv) work.push_back(al.load->operands[d]);
  while (!work.empty()) {
    const ir::Value* v = work.back();
    work.pop_back();
    if (v == iv) continue;
    if (v->def && v->def->parent == loop.regions[0].get()) {
      // An index computed in the body from the induction variable (pipelines.cpp): the producer
      // computes it again per iteration it issues (ring.h TmaRing::value_at), from what it uses.
      for (const ir::Value* o : v->def->operands) work.push_back(o);
      continue;
    }
    if (!v->def) {
      if (v->owner != &body) return inline_because("a TMA index depends on a value defined in the loop");
      continue;  // a kernel argument: an extent or a scalar
    }
    const ir::Op* d = v->def;
    if (slice.count(d)) continue;
    if (d->parent != &body || !repeatable(*d))
      return inline_because(fmt::format("the loop's bounds or a TMA index depend on '{}', which the producer "
                                        "cannot repeat (only scalar arithmetic at the top level of the kernel)",
                                        ir::op_name(d->kind)));
    slice.insert(d);
    for (const ir::Value* o : d->operands) work.push_back(o);
  }
  for (const auto& o : body.ops) {
    if (o.get() == &loop) break;
    if (may_leave(*o)) return inline_because("the kernel may return before the pipelined loop");
    if (slice.count(o.get())) s.producer_ops.push_back(o.get());
  }
  s.schedule = TmaSchedule::Specialized;
  bool returns = false;
  for (const auto& o : body.ops) returns = returns || may_leave(*o);
  // Ping-pong: each consumer skips the other's trips round the ring by its own tile's trip
  // count, so the count must be the same for every tile; layout conversions would share one
  // buffer between two consumers at different tiles.
  if (pl.pingpong_layout) {
    std::string why;
    if (returns) why = "the kernel may return";
    else if (!k.pipelines[0].resident.empty()) why = "a tile is loaded once before the loop (resident)";
    else if (opt.persistent == 0) why = "persistent=False (ping-pong consumers take alternate tiles of the persistent grid)";
    else if (depends_on_bid(loop.operands[0]) || depends_on_bid(loop.operands[1]) || depends_on_bid(loop.operands[2]))
      why = "the loop's trip count depends on bid()";
    else if (k.conversion_smem_vectorized)
      why = fmt::format("the kernel converts layouts through {} bytes of shared memory", k.conversion_smem_vectorized);
    else if (opt.cluster == 2) why = "cluster=2";
    if (why.empty()) {
      s.pingpong = true;
    } else {
      no_pingpong(why);
      wg = 1;
      consumer_register_counts(wg, entry, consumer);
    }
  }
  // One consumer warpgroup: ptxas 13.0 serializes its wgmma inside a tile loop (advisory C7518,
  // "compiler-inserted WG.DP in divergent path", branch persistent-wip of 2026-12-01), so those
  // kernels keep one CTA per tile.
  if (returns) s.why_not_persistent = "the kernel may return";
  else if (wg < 2) s.why_not_persistent = "one consumer warpgroup";
  // Resident tiles (attention's Q) on a persistent grid: reloaded per tile once the last tile's
  // wgmma have read them (TmaRing::issue_resident). Not the default until measured.
  else if (!k.pipelines[0].resident.empty() && opt.persistent != 1)
    s.why_not_persistent = "a tile is loaded once before the loop (resident)";
  else if (opt.persistent == 0) s.why_not_persistent = "persistent=False";
  s.persistent = s.why_not_persistent.empty();
  if (!s.persistent && opt.persistent == 1)
    k.warnings.push_back({Warning::Persistent, k.fn->sig.range,
                          fmt::format("persistent=True: the kernel keeps one CTA per tile on {}: {}", k.target.arch,
                                      s.why_not_persistent)});
  plan_cluster(k, loop);
  // With one consumer warpgroup the entry's registers (255) already exceed what setmaxnreg
  // would give; the count must not shrink below what the entry has (PTX ISA §9.7.17.1).
  if (consumer > entry) {
    s.producer_registers = 40;
    s.consumer_registers = consumer;
  }
}

}  // namespace tilec::codegen::tma_wgmma
