// The tma_wgmma path's emitter (emitter.h): the hooks the Emitter calls, and the
// warp-specialized body. The TMA pipeline protocol (bench/hopper_proto, measured on the H200,
// NOTES.md) runs in two schedules (plan.h TmaSchedule): inline, thread 0 of the consumers is also
// the producer (TmaRing::inline_prologue, advance with refill); Specialized (specialized_body):
// thread 0 inits the barriers before the role branch, the producer warpgroup's thread 0 issues
// every iteration (TmaRing::produce), waiting for each stage to be empty; the consumers only wait
// for full stages and release them, the last one after the loop too.
#include "codegen/paths/tma_wgmma/emitter.h"
#include "codegen/paths/tma_wgmma/path.h"

#include <fmt/format.h>

namespace tilec::codegen::tma_wgmma {

TmaWgmmaEmitter::TmaWgmmaEmitter(EmitContext& cx, const Plan& plan)
    : FamilyEmitter(cx), pl_(plan), ring_(cx, plan), cluster_(cx, ring_), wgmma_(cx, plan),
      store_(cx, plan, consumer_index_) {
  if (pl_.spec.cluster > 1)
    ring_.release_step = [this](const std::string& release, const std::string& bar) { cluster_.release(release, bar); };
}

std::unique_ptr<PathEmitter> new_emitter(EmitContext& cx) {
  return std::make_unique<TmaWgmmaEmitter>(cx, plan_of(cx.k_));
}

void TmaWgmmaEmitter::take_params(const std::vector<std::string>& maps, const std::vector<std::string>& grid) {
  // The loads' maps, then the stores' (kernel_abi.h AbiTensorMap).
  size_t i = 0;
  for (const AsyncLoad* al : pl_.tensor_maps(cx_.k_)) ring_.maps[al] = maps[i++];
  for (const TmaStore& ts : pl_.tma_stores) store_.maps[&ts] = maps[i++];
  persistent_grid_ = grid;
}

void TmaWgmmaEmitter::prologue() {
  if (pl_.spec.specialized()) {
    // The consumers hold the tile values in the layouts lowered for num_warps warps.
    cx_.tid_ = b_.reg(RegClass::B32);
    b_.ins("sub.u32", {cx_.tid_, cx_.raw_tid_, "128"});
    // They meet at barrier 1 (the producer warpgroup has left), each consumer at its own.
    cx_.tile_barrier_ = {"1", u32(cx_.k_.threads())};
  }
  if (pl_.spec.pingpong) {
    // Two consumers, each holding its own tile in the layouts lowered for one warpgroup.
    std::string local = b_.reg(RegClass::B32);
    consumer_index_ = b_.reg(RegClass::B32);
    consumer_bar_ = b_.reg(RegClass::B32);
    b_.ins("shr.u32", {consumer_index_, cx_.tid_, "7"});
    b_.ins("add.u32", {consumer_bar_, consumer_index_, "2"});
    b_.ins("and.b32", {local, cx_.tid_, "127"});
    cx_.tid_ = local;
    cx_.tile_barrier_ = {consumer_bar_, u32(cx_.k_.threads())};
  }
}

bool TmaWgmmaEmitter::body() {
  if (!pl_.spec.specialized()) return false;
  specialized_body();
  return true;
}

bool TmaWgmmaEmitter::mma(const ir::Op& op) {
  if (!pl_.is_wgmma(cx_.k_, op)) return false;
  wgmma_.wgmma(op);
  return true;
}

bool TmaWgmmaEmitter::store(const ir::Op& op) {
  const TmaStore* ts = pl_.tma_store(op);
  if (!ts) return false;
  store_.store(*ts);
  return true;
}

bool TmaWgmmaEmitter::grid_op(const ir::Op& op, const std::string& r) {
  if (persistent_grid_.empty() || op.kind == ir::OpKind::NumSms) return false;
  // A persistent grid: the logical CTA and grid (tile_loop_begin).
  b_.ins("mov.u32", {r, (op.kind == ir::OpKind::BlockId ? persistent_bid_ : persistent_grid_)[size_t(op.axis)]});
  return true;
}

void TmaWgmmaEmitter::loop_prologue(const ir::Op& loop, const Pipeline& p) {
  RingState& st = ring_state_;
  st = RingState{};
  if (!pl_.spec.specialized()) return ring_.inline_prologue(loop, p, st);
  // The producer warpgroup set up the barriers and fills the stages; the consumers only count
  // round the ring. The read counters were set before the role branch's tile loop
  // (specialized_body) and run on from tile to tile; no stage was read yet in this one.
  st = specialized_ring_;
  st.prev = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {st.prev, u32(p.stages)});
  st.wg_leader = ring_.warpgroup_leader();
  ring_.wait_resident(st);
  if (pl_.spec.pingpong) pingpong_turn(loop, st);
}

void TmaWgmmaEmitter::loop_epilogue() {
  if (pl_.spec.pingpong) pingpong_pass();
  wgmma_.wait(0);
  // Specialized: the last stage read is free again (a producer that runs on, to a next tile,
  // waits for it); the barriers stay: the kernel has no other pipelined loop.
  if (pl_.spec.specialized()) {
    ring_.release_prev(ring_state_);
    ring_.release_resident(ring_state_);
  } else {
    ring_.invalidate(ring_state_);
  }
}

void TmaWgmmaEmitter::specialized_body() {
  const Pipeline& p = cx_.k_.pipelines[0];
  const ir::Op& loop = *p.loop;
  RingState& st = specialized_ring_;
  ring_.setup(p, st);
  // Thread 0 (the producer's) initializes the mbarriers; every thread of the CTA waits for
  // them before either role starts.
  std::string init_done = b_.label_name("tma_init_done"), first = b_.reg(RegClass::Pred);
  b_.ins("setp.ne.u32", {first, cx_.raw_tid_, "0"});
  b_.ins_if(first, "bra", {init_done});
  ring_.init_barriers(st);
  b_.label(init_done);
  if (pl_.spec.cluster > 1) {
    cluster_.setup();
    cluster_.sync();
  } else {
    b_.ins("bar.sync", {"0"});
  }

  // Warpgroup 0 produces; warpgroups 1 .. consume.
  std::string consumer = b_.label_name("consumer"), is_consumer = b_.reg(RegClass::Pred);
  b_.ins("setp.ge.u32", {is_consumer, cx_.raw_tid_, "128"});
  b_.ins_if(is_consumer, "bra", {consumer});
  cx_.need_ptx(80);
  if (pl_.spec.producer_registers)
    b_.ins("setmaxnreg.dec.sync.aligned.u32", {u32(pl_.spec.producer_registers)});
  std::string idle = b_.reg(RegClass::Pred);
  b_.ins("setp.ne.u32", {idle, cx_.raw_tid_, "0"});
  b_.ins_if(idle, "bra", {cx_.exit_label_});
  // The write counters run on from tile to tile of a persistent grid (the consumers' read
  // counters likewise), so the ring is set up once.
  for (std::string* r : {&st.wslot, &st.wphase}) {
    *r = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {*r, "0"});
  }
  bool reload_resident = pl_.spec.persistent && !p.resident.empty();
  if (reload_resident) {
    st.resident_wphase = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {st.resident_wphase, "0"});
  }
  bool persistent = pl_.spec.persistent;
  std::string tile = persistent ? b_.reg(RegClass::B64) : "";
  std::string top = b_.label_name("produce_tile"), done = b_.label_name("produce_done");
  if (persistent) tile_loop_begin(tile, top, done);
  std::vector<std::vector<std::string>> peer_origin;
  if (pl_.spec.cluster > 1) {
    peer_origin = cluster_peer_origins(loop, cluster_.peer_tile(tile, tile_total_));
  }
  for (const ir::Op* o : pl_.spec.producer_ops) {
    if (cx_.failed()) return;
    cx_.op(*o);
  }
  ring_.start_producing(loop, st);
  if (!peer_origin.empty()) cluster_.copy_plan(st, peer_origin);
  ring_.produce(st);
  if (persistent) {
    tile_loop_next(tile, top);
    b_.label(done);
  }
  if (pl_.spec.cluster > 1) cluster_.producer_tail(st);
  b_.ins("bra", {cx_.exit_label_});

  b_.label(consumer);
  if (pl_.spec.consumer_registers)
    b_.ins("setmaxnreg.inc.sync.aligned.u32", {u32(pl_.spec.consumer_registers)});
  for (std::string* r : {&st.rslot, &st.rphase}) {
    *r = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {*r, "0"});
  }
  if (reload_resident) {
    st.resident_rphase = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {st.resident_rphase, "0"});
  }
  if (!persistent) return cx_.block(cx_.k_.fn->body);
  std::string ctile = b_.reg(RegClass::B64);
  std::string ctop = b_.label_name("consume_tile"), cdone = b_.label_name("consume_done");
  // Ping-pong: consumer c takes the CTA's tiles c, c + 2, ...; consumer 1 first skips tile 0's
  // trips round the ring.
  if (pl_.spec.pingpong) {
    pingpong_skip_ = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {pingpong_skip_, consumer_index_});
  }
  tile_loop_begin(ctile, ctop, cdone, pl_.spec.pingpong ? consumer_index_ : "");
  if (pl_.spec.cluster > 1) cluster_.peer_tile(ctile, tile_total_);
  cx_.block(cx_.k_.fn->body);
  tile_loop_next(ctile, ctop, pl_.spec.pingpong ? 2 : 1);
  b_.label(cdone);
  store_.drain();
}

void TmaWgmmaEmitter::tile_loop_begin(const std::string& tile, const std::string& top, const std::string& done,
                              const std::string& first) {
  std::string c = b_.reg(RegClass::B32), total = b_.reg(RegClass::B64), gxy = b_.reg(RegClass::B64);
  std::string g[3];
  for (int d = 0; d < 3; ++d) {
    g[d] = b_.reg(RegClass::B64);
    b_.ins("cvt.u64.u32", {g[d], persistent_grid_[size_t(d)]});
  }
  b_.ins("mul.lo.u64", {gxy, g[0], g[1]});
  b_.ins("mul.lo.u64", {total, gxy, g[2]});
  tile_total_ = total;
  b_.ins("mov.u32", {c, "%ctaid.x"});
  if (!first.empty()) {
    std::string n = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {n, "%nctaid.x"});
    b_.ins("mad.lo.u32", {c, first, n, c});
  }
  b_.ins("cvt.u64.u32", {tile, c});
  b_.label(top);
  std::string past = b_.reg(RegClass::Pred);
  b_.ins("setp.ge.u64", {past, tile, total});
  b_.ins_if(past, "bra.uni", {done});
  persistent_bid_ = logical_cta(tile);
}

std::vector<std::string> TmaWgmmaEmitter::logical_cta(const std::string& tile) {
  std::vector<std::string> cta;
  if (cx_.k_.fn->sig.grid.size() == 1) {
    // A 1-D grid: the tile is x.
    cta = {b_.reg(RegClass::B32), "0", "0"};
    b_.ins("cvt.u32.u64", {cta[0], tile});
    return cta;
  }
  // (x, y, z) = (tile % gx, tile / gx % gy, tile / (gx gy)).
  std::string g[2];
  for (int d = 0; d < 2; ++d) {
    g[d] = b_.reg(RegClass::B64);
    b_.ins("cvt.u64.u32", {g[d], persistent_grid_[size_t(d)]});
  }
  std::string q = b_.reg(RegClass::B64), r = b_.reg(RegClass::B64), r1 = b_.reg(RegClass::B64),
              q1 = b_.reg(RegClass::B64), t = b_.reg(RegClass::B64);
  cx_.divide64(q, tile, g[0], false);
  b_.ins("mul.lo.u64", {t, q, g[0]});
  b_.ins("sub.u64", {r, tile, t});
  cx_.divide64(q1, q, g[1], false);
  b_.ins("mul.lo.u64", {t, q1, g[1]});
  b_.ins("sub.u64", {r1, q, t});
  for (const std::string& v : {r, r1, q1}) {
    cta.push_back(b_.reg(RegClass::B32));
    b_.ins("cvt.u32.u64", {cta.back(), v});
  }
  return cta;
}

void TmaWgmmaEmitter::tile_loop_next(const std::string& tile, const std::string& top, int strides) {
  std::string n = b_.reg(RegClass::B32), n64 = b_.reg(RegClass::B64);
  b_.ins("mov.u32", {n, "%nctaid.x"});
  if (strides > 1) b_.ins("mul.lo.u32", {n, n, u32(strides)});
  b_.ins("cvt.u64.u32", {n64, n});
  b_.ins("add.u64", {tile, tile, n64});
  b_.ins("bra.uni", {top});
}

void TmaWgmmaEmitter::pingpong_turn(const ir::Op& loop, RingState& st) {
  // The trip count: max(upper - lower, 0) ceil-divided by the constant step, in 64 bits, then
  // 32 (a ring position only needs it modulo 2 stages).
  DType idx = loop.operands[0]->type.tile.dtype;
  int64_t step = loop.operands[2]->def->value.i;
  auto wide = [&](const ir::Value* v) {
    std::string r = cx_.regs(v)[0];
    if (dtype_bits(idx) == 64) return r;
    std::string w = b_.reg(RegClass::B64);
    b_.ins(is_unsigned_int(idx) ? "cvt.u64.u32" : "cvt.s64.s32", {w, r});
    return w;
  };
  std::string lo = wide(loop.operands[0]), hi = wide(loop.operands[1]), span = b_.reg(RegClass::B64);
  b_.ins("sub.s64", {span, hi, lo});
  b_.ins("max.s64", {span, span, "0"});
  if (step > 1) {
    b_.ins("add.s64", {span, span, std::to_string(step - 1)});
    b_.ins("div.u64", {span, span, std::to_string(step)});
  }
  std::string trips = b_.reg(RegClass::B32), skip = b_.reg(RegClass::Pred);
  b_.ins("cvt.u32.u64", {trips, span});
  b_.ins("setp.ne.u32", {skip, pingpong_skip_, "0"});
  b_.ins("selp.b32", {trips, trips, "0", skip});
  // rslot += trips, the phase flipping once per wrap (modulo 2, so only the wraps' parity).
  int S = st.p->stages;
  std::string pos = b_.reg(RegClass::B32), wraps = b_.reg(RegClass::B32);
  b_.ins("rem.u32", {pos, trips, u32(2 * S)});
  b_.ins("add.u32", {pos, pos, st.rslot});
  b_.ins("div.u32", {wraps, pos, u32(S)});
  b_.ins("rem.u32", {st.rslot, pos, u32(S)});
  b_.ins("and.b32", {wraps, wraps, "1"});
  b_.ins("xor.b32", {st.rphase, st.rphase, wraps});
  // The other consumer's main loop issued its last wgmma (pingpong_pass): this one's turn.
  std::string id = b_.reg(RegClass::B32);
  b_.ins("xor.b32", {id, consumer_index_, "5"});
  b_.ins_if(skip, "bar.sync", {id, u32(2 * cx_.k_.threads())});
  b_.ins("mov.u32", {pingpong_skip_, "1"});
}

void TmaWgmmaEmitter::pingpong_pass() {
  std::string id = b_.reg(RegClass::B32);
  b_.ins("add.u32", {id, consumer_index_, "4"});
  b_.ins("bar.arrive", {id, u32(2 * cx_.k_.threads())});
}

std::vector<std::vector<std::string>> TmaWgmmaEmitter::cluster_peer_origins(const ir::Op& loop, const std::string& peer) {
  // The producer ops are scalar arithmetic on bid(), num_blocks() and the arguments
  // (specialize.cpp): run at the peer's logical CTA they give the peer's tile origins. Past the
  // last tile they compute garbage that cluster_copy_plan ignores (cluster_peer_in_ is false).
  std::vector<std::string> own = persistent_bid_;
  persistent_bid_ = logical_cta(peer);
  for (const ir::Op* o : pl_.spec.producer_ops) {
    if (cx_.failed()) break;
    cx_.op(*o);
  }
  std::vector<std::vector<std::string>> origin;
  for (const AsyncLoad& al : cx_.k_.pipelines[0].loads) origin.push_back(ring_.origin(al, loop.regions[0]->args[0]));
  persistent_bid_ = own;
  return origin;
}

}  // namespace tilec::codegen::tma_wgmma
