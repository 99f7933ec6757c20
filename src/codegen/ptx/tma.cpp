// The TmaWgmma path's pipeline (lower.h CodePath::TmaWgmma): operand tiles come from global
// memory by TMA (cp.async.bulk.tensor, PTX ISA §9.7.9.25.5.1) into 128-byte-swizzled stages,
// each guarded by two mbarriers (PTX ISA §9.7.13.15): `full` counts the bytes in (thread 0
// arrives with expect_tx, the copies complete_tx), `empty` counts the warpgroups whose wgmma
// finished reading. The protocol of bench/hopper_proto (measured on the H200, NOTES.md), in two
// schedules (lower.h TmaSchedule). Inline, thread 0 is also the producer:
//
//   prologue:   thread 0 inits full[s] (count 1) and empty[s] (count = warpgroups); fence; bar;
//               thread 0 issues iterations 0 .. S-2 (each: wait empty, expect_tx, TMA copies)
//   iteration:  every thread waits full[read slot] (its parity); the wgmma ops of the body read
//               the stage and end with commit_group and wait_group 1, so the previous
//               iteration's wgmma group is finished
//   end:        one thread per warpgroup arrives on empty[previous slot]; thread 0 waits for
//               that slot to be empty and issues the iteration S-1 ahead into it
//   epilogue:   wait_group 0 (the accumulators are final); bar.sync; thread 0 invalidates the
//               mbarriers (a later loop, or this one inside an outer loop, starts afresh)
//
// Specialized (specialized_body): thread 0 inits the barriers before the role branch; the
// producer warpgroup's thread 0 issues every iteration (tma_produce), waiting for each stage to
// be empty; the consumers only wait for full stages and release them, the last one after the
// loop too.
//
// A fresh mbarrier is in phase 0, so waiting for parity 1 passes at once: the producer waits
// for empty with the opposite of its phase, and the first round needs no special case. Every
// copy of a stage, also of a box wholly outside the array, delivers its full byte count
// (zero-filled), so edge tiles need nothing extra.
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "codegen/ptx/emitter.h"

namespace tilec::codegen {

void Emitter::mbarrier_wait(const std::string& bar, const std::string& parity) {
  std::string top = b_.label_name("mbar_wait"), done = b_.label_name("mbar_done");
  std::string p = b_.reg(RegClass::Pred), spins;
  if (o_.device_asserts) {
    spins = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {spins, "0"});
  }
  b_.label(top);
  // Plain bra: the threads of a warp may leave the loop at different tries.
  b_.ins("mbarrier.try_wait.parity.shared::cta.b64", {p, "[" + bar + "]", parity});
  b_.ins_if(p, "bra", {done});
  if (o_.device_asserts) {
    std::string more = b_.reg(RegClass::Pred);
    b_.ins("add.u32", {spins, spins, "1"});
    b_.ins("setp.lt.u32", {more, spins, "4194304"});
    b_.ins_if(more, "bra", {top});
    b_.ins("trap", {});
  } else {
    b_.ins("bra", {top});
  }
  b_.label(done);
}

void Emitter::ring_next(const std::string& slot, const std::string& phase, int n) {
  std::string wrap = b_.reg(RegClass::Pred);
  b_.ins("add.u32", {slot, slot, "1"});
  b_.ins("setp.eq.u32", {wrap, slot, u32(n)});
  b_.ins_if(wrap, "mov.u32", {slot, "0"});
  b_.ins_if(wrap, "xor.b32", {phase, phase, "1"});
}

void Emitter::tma_setup(const Pipeline& p, TmaState& st) {
  need_ptx(80);
  st.p = &p;
  // The stages start at a 1024-byte boundary of the shared address (the 128-byte swizzle's
  // pattern repeats every 1024 bytes; TMA and wgmma apply it to address bits); the lowering
  // keeps 1024 bytes for that.
  st.base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {st.base, smem_});
  b_.ins("add.u32", {st.base, st.base, u32(k_.pipeline_offset + 1023)});
  b_.ins("and.b32", {st.base, st.base, "-1024"});
  st.full = b_.reg(RegClass::B32);
  st.empty = b_.reg(RegClass::B32);
  b_.ins("add.u32", {st.full, st.base, u32(tma_wgmma::plan_of(k_).barriers_of(p))});
  b_.ins("add.u32", {st.empty, st.base, u32(tma_wgmma::plan_of(k_).barriers_of(p) + 8 * p.stages)});
  if (!p.resident.empty()) {
    st.resident = b_.reg(RegClass::B32);
    st.resident_full = b_.reg(RegClass::B32);
    b_.ins("add.u32", {st.resident, st.base, u32(p.stages * p.stage_bytes)});
    b_.ins("add.u32", {st.resident_full, st.base, u32(tma_wgmma::plan_of(k_).barriers_of(p) + 16 * p.stages)});
  }
}

void Emitter::tma_init_barriers(const TmaState& st) {
  int S = st.p->stages;
  // empty: the compute (consumer) warpgroups, of both CTAs of a cluster (cluster_release).
  int releases = k_.num_warps / 4 * spec_->cluster;
  for (int s = 0; s < S; ++s) {
    b_.ins("mbarrier.init.shared::cta.b64", {fmt::format("[{}+{}]", st.full, 8 * s), "1"});
    b_.ins("mbarrier.init.shared::cta.b64", {fmt::format("[{}+{}]", st.empty, 8 * s), u32(releases)});
  }
  if (!st.p->resident.empty()) b_.ins("mbarrier.init.shared::cta.b64", {"[" + st.resident_full + "]", "1"});
  b_.ins("fence.mbarrier_init.release.cluster", {});
  b_.ins("fence.proxy.async.shared::cta", {});
  for (const AsyncLoad& al : st.p->loads) b_.ins("prefetch.tensormap", {"[" + tensor_maps_.at(&al) + "]"});
}

std::string Emitter::tma_coordinate(const AsyncLoad& al, size_t d, const std::string& value, DType dtype) {
  if (dtype_bits(dtype) < 64) return value;  // narrower dtypes sit extended in 32-bit registers
  // Clamped to [-extent of the tile, the array's extent]: an origin outside that range reads a
  // box wholly outside the array, as the clamped one does, and the clamped one fits the s32.
  // The innermost coordinate must stay a multiple of 16 bytes (pipeline.cpp, copy_kind): there
  // the upper bound is the extent rounded up to one.
  const ir::ArrayParam* arr = al.load->operands[0]->type.array;
  const std::vector<int64_t>& shape = al.load->results[0]->type.tile.shape;
  std::string hi = arrays_.at(arr).extents[d];
  int64_t align = 16 / al.esz;
  if (d + 1 == shape.size() && align > 1) {
    std::string r = b_.reg(RegClass::B64);
    b_.ins("add.s64", {r, hi, std::to_string(align - 1)});
    b_.ins("and.b64", {r, r, std::to_string(-align)});
    hi = r;
  }
  std::string c = b_.reg(RegClass::B64), o = b_.reg(RegClass::B32);
  if (is_unsigned_int(dtype)) {
    b_.ins("min.u64", {c, value, hi});
  } else {
    b_.ins("max.s64", {c, value, "-" + std::to_string(shape[d])});
    b_.ins("min.s64", {c, c, hi});
  }
  b_.ins("cvt.u32.u64", {o, c});
  return o;
}

std::string Emitter::tma_tile_origin(const std::string& index, DType dtype, int64_t extent) {
  std::string idx = index, o = b_.reg(RegClass::B32);
  if (dtype_bits(dtype) == 64) {
    idx = b_.reg(RegClass::B32);
    b_.ins("cvt.u32.u64", {idx, index});
  }
  b_.ins("mul.lo.u32", {o, idx, u32(extent)});
  return o;
}

std::vector<std::string> Emitter::tma_origin(const AsyncLoad& al, const ir::Value* iv) {
  const ir::Op& ld = *al.load;
  const std::vector<int64_t>& shape = ld.results[0]->type.tile.shape;
  std::vector<std::string> origin;
  for (size_t d = 0; d < shape.size(); ++d) {
    const ir::Value* index = ld.operands[d + 1];
    if (iv && (index == iv || (index->def && index->def->parent == iv->owner))) {
      origin.push_back("");  // moves with the loop: tma_issue computes it per iteration
      continue;
    }
    // At element offsets (load(offset=)) the origin is the offset itself.
    const std::string& r = regs(index)[0];
    DType dt = index->type.tile.dtype;
    origin.push_back(ld.offsets ? tma_coordinate(al, d, r, dt) : tma_tile_origin(r, dt, shape[d]));
  }
  return origin;
}

std::string Emitter::value_at(const ir::Value* v, const ir::Value* iv, const std::string& at) {
  if (v == iv) return at;
  const ir::Block& body = *iv->owner;
  std::set<const ir::Op*> chain;
  std::function<void(const ir::Value*)> collect = [&](const ir::Value* x) {
    if (x->def && x->def->parent == &body && chain.insert(x->def).second)
      for (const ir::Value* o : x->def->operands) collect(o);
  };
  collect(v);
  // The chain's values get fresh registers, computed from `at`; the body's own stay as they are.
  std::map<const ir::Value*, std::vector<std::string>> saved;
  std::vector<const ir::Value*> touched{iv};
  for (const ir::Op* o : chain) touched.push_back(o->results[0]);
  for (const ir::Value* x : touched)
    if (auto it = regs_.find(x); it != regs_.end()) saved[x] = it->second;
  regs_[iv] = {at};
  for (const auto& o : body.ops)
    if (chain.count(o.get())) op(*o);
  std::string r = regs(v)[0];
  for (const ir::Value* x : touched) regs_.erase(x);
  for (auto& [x, rs] : saved) regs_[x] = rs;
  return r;
}

void Emitter::tma_copy(const AsyncLoad& al, const std::vector<std::string>& origin, const std::string& dst,
                       int64_t offset, const std::string& bar, const ClusterCopy* cluster) {
  int rank = int(origin.size());
  std::vector<std::string> coord(origin.rbegin(), origin.rend());  // innermost first
  for (int64_t box = 0; box < al.boxes(); ++box) {
    std::vector<std::string> c = coord;
    if (box) {
      c[0] = b_.reg(RegClass::B32);
      b_.ins("add.u32", {c[0], coord[0], u32(64 * box)});
    }
    std::string at = fmt::format("[{}+{}]", dst, offset + box * al.box_bytes());
    std::string src = fmt::format("[{}, {{{}}}]", tensor_maps_.at(&al), fmt::join(c, ", "));
    std::string copy = fmt::format("cp.async.bulk.tensor.{}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes", rank);
    if (!cluster) {
      b_.ins(copy, {at, src, "[" + bar + "]"});
      continue;
    }
    // The same box lands at the same offset of both CTAs' stages and completes on their
    // full mbarriers at the same offset (PTX ISA, cp.async.bulk.tensor: .multicast::cluster).
    b_.ins_if(cluster->local, copy, {at, src, "[" + bar + "]"});
    b_.ins_if(cluster->mine[box % 2], copy + ".multicast::cluster", {at, src, "[" + bar + "]", "3"});
  }
}

void Emitter::tma_issue_resident(const TmaState& st) {
  const Pipeline& p = *st.p;
  if (p.resident.empty()) return;
  int64_t bytes = 0;
  for (const AsyncLoad& al : p.resident) bytes += al.boxes() * al.box_bytes();
  b_.ins("mbarrier.arrive.expect_tx.shared::cta.b64", {"_", "[" + st.resident_full + "]", u32(bytes)});
  for (const AsyncLoad& al : p.resident) {
    b_.ins("prefetch.tensormap", {"[" + tensor_maps_.at(&al) + "]"});
    tma_copy(al, tma_origin(al, nullptr), st.resident, al.offset, st.resident_full);
  }
}

void Emitter::tma_wait_resident(const TmaState& st) {
  const Pipeline& p = *st.p;
  if (p.resident.empty()) return;
  // Loaded once: the barrier completes its phase 0 and is never armed again.
  mbarrier_wait(st.resident_full, "0");
  for (const AsyncLoad& al : p.resident) {
    std::string r = b_.reg(RegClass::B32);
    b_.ins("add.u32", {r, st.resident, u32(al.offset)});
    async_base_[&al] = r;
  }
}

void Emitter::tma_origins(const ir::Op& loop, TmaState& st) {
  // The fixed dimensions' tile origins (elements), once.
  st.origin.clear();
  for (const AsyncLoad& al : st.p->loads) st.origin.push_back(tma_origin(al, loop.regions[0]->args[0]));
}

void Emitter::tma_prologue(const ir::Op& loop, const Pipeline& p, TmaState& st) {
  int S = p.stages;
  if (spec_->specialized()) {
    // The producer warpgroup set up the barriers and fills the stages; the consumers only
    // count round the ring.
    // The read counters were set before the role branch's tile loop (specialized_body) and
    // run on from tile to tile; no stage was read yet in this one.
    st = specialized_tma_;
    st.prev = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {st.prev, u32(S)});
    st.wg_leader = warpgroup_leader();
    tma_wait_resident(st);
    if (spec_->pingpong) pingpong_turn(loop, st);
    return;
  }
  static_cast<LoopCounter&>(st) = loop_counter(loop);
  tma_setup(p, st);
  for (std::string* r : {&st.rslot, &st.rphase, &st.wslot, &st.wphase, &st.prev}) {
    *r = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {*r, r == &st.prev ? u32(S) : "0"});
  }
  st.leader = b_.reg(RegClass::Pred);
  b_.ins("setp.eq.u32", {st.leader, tid_, "0"});
  st.wg_leader = warpgroup_leader();
  tma_origins(loop, st);

  // Thread 0: the mbarriers, made visible to the other threads and to the copy engine.
  std::string skip = b_.label_name("tma_init_done");
  std::string not_leader = b_.reg(RegClass::Pred);
  b_.ins("not.pred", {not_leader, st.leader});
  b_.ins_if(not_leader, "bra", {skip});
  tma_init_barriers(st);
  tma_issue_resident(st);
  // The first S - 1 tiles.
  for (int s = 0; s + 1 < S; ++s) {
    std::string beyond = b_.reg(RegClass::Pred);
    b_.ins(fmt::format("setp.ge.{}", st.type()), {beyond, st.iv_issue, st.upper});
    b_.ins_if(beyond, "bra", {skip});
    tma_issue(st);
  }
  b_.label(skip);
  b_.ins("bar.sync", {"0"});
  tma_wait_resident(st);
}

void Emitter::specialized_body() {
  const Pipeline& p = k_.pipelines[0];
  const ir::Op& loop = *p.loop;
  TmaState& st = specialized_tma_;
  tma_setup(p, st);
  // Thread 0 (the producer's) initializes the mbarriers; every thread of the CTA waits for
  // them before either role starts.
  std::string init_done = b_.label_name("tma_init_done"), first = b_.reg(RegClass::Pred);
  b_.ins("setp.ne.u32", {first, raw_tid_, "0"});
  b_.ins_if(first, "bra", {init_done});
  tma_init_barriers(st);
  b_.label(init_done);
  if (spec_->cluster > 1) {
    cluster_setup();
    cluster_sync();
  } else {
    b_.ins("bar.sync", {"0"});
  }

  // Warpgroup 0 produces; warpgroups 1 .. consume.
  std::string consumer = b_.label_name("consumer"), is_consumer = b_.reg(RegClass::Pred);
  b_.ins("setp.ge.u32", {is_consumer, raw_tid_, "128"});
  b_.ins_if(is_consumer, "bra", {consumer});
  need_ptx(80);
  if (spec_->producer_registers)
    b_.ins("setmaxnreg.dec.sync.aligned.u32", {u32(spec_->producer_registers)});
  std::string idle = b_.reg(RegClass::Pred);
  b_.ins("setp.ne.u32", {idle, raw_tid_, "0"});
  b_.ins_if(idle, "bra", {exit_label_});
  // The write counters run on from tile to tile of a persistent grid (the consumers' read
  // counters likewise), so the ring is set up once.
  for (std::string* r : {&st.wslot, &st.wphase}) {
    *r = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {*r, "0"});
  }
  bool persistent = spec_->persistent;
  std::string tile = persistent ? b_.reg(RegClass::B64) : "";
  std::string top = b_.label_name("produce_tile"), done = b_.label_name("produce_done");
  if (persistent) tile_loop_begin(tile, top, done);
  std::vector<std::vector<std::string>> peer_origin;
  if (spec_->cluster > 1) {
    peer_origin = cluster_peer_origins(loop, cluster_peer_tile(tile));
  }
  for (const ir::Op* o : spec_->producer_ops) {
    if (failed_) return;
    op(*o);
  }
  tma_produce(loop, st, peer_origin);
  if (persistent) {
    tile_loop_next(tile, top);
    b_.label(done);
  }
  if (spec_->cluster > 1) cluster_producer_tail(st);
  b_.ins("bra", {exit_label_});

  b_.label(consumer);
  if (spec_->consumer_registers)
    b_.ins("setmaxnreg.inc.sync.aligned.u32", {u32(spec_->consumer_registers)});
  for (std::string* r : {&st.rslot, &st.rphase}) {
    *r = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {*r, "0"});
  }
  if (!persistent) return block(k_.fn->body);
  std::string ctile = b_.reg(RegClass::B64);
  std::string ctop = b_.label_name("consume_tile"), cdone = b_.label_name("consume_done");
  // Ping-pong: consumer c takes the CTA's tiles c, c + 2, ...; consumer 1 first skips tile 0's
  // trips round the ring.
  if (spec_->pingpong) {
    pingpong_skip_ = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {pingpong_skip_, consumer_index_});
  }
  tile_loop_begin(ctile, ctop, cdone, spec_->pingpong ? consumer_index_ : "");
  if (spec_->cluster > 1) cluster_peer_tile(ctile);
  block(k_.fn->body);
  tile_loop_next(ctile, ctop, spec_->pingpong ? 2 : 1);
  b_.label(cdone);
  tma_store_drain();
}

void Emitter::tile_loop_begin(const std::string& tile, const std::string& top, const std::string& done,
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

std::vector<std::string> Emitter::logical_cta(const std::string& tile) {
  std::vector<std::string> cta;
  if (k_.fn->sig.grid.size() == 1) {
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
  divide64(q, tile, g[0], false);
  b_.ins("mul.lo.u64", {t, q, g[0]});
  b_.ins("sub.u64", {r, tile, t});
  divide64(q1, q, g[1], false);
  b_.ins("mul.lo.u64", {t, q1, g[1]});
  b_.ins("sub.u64", {r1, q, t});
  for (const std::string& v : {r, r1, q1}) {
    cta.push_back(b_.reg(RegClass::B32));
    b_.ins("cvt.u32.u64", {cta.back(), v});
  }
  return cta;
}

void Emitter::tile_loop_next(const std::string& tile, const std::string& top, int strides) {
  std::string n = b_.reg(RegClass::B32), n64 = b_.reg(RegClass::B64);
  b_.ins("mov.u32", {n, "%nctaid.x"});
  if (strides > 1) b_.ins("mul.lo.u32", {n, n, u32(strides)});
  b_.ins("cvt.u64.u32", {n64, n});
  b_.ins("add.u64", {tile, tile, n64});
  b_.ins("bra.uni", {top});
}

void Emitter::tma_produce(const ir::Op& loop, TmaState& st, const std::vector<std::vector<std::string>>& peer_origin) {
  static_cast<LoopCounter&>(st) = loop_counter(loop);
  tma_issue_resident(st);
  tma_origins(loop, st);
  st.cluster_copy.clear();
  if (!peer_origin.empty()) cluster_copy_plan(st, peer_origin);
  // Every iteration's copies, each into the next stage the consumers have emptied.
  std::string top = b_.label_name("produce"), done = b_.label_name("produce_end"), beyond = b_.reg(RegClass::Pred);
  b_.label(top);
  b_.ins(fmt::format("setp.ge.{}", st.type()), {beyond, st.iv_issue, st.upper});
  b_.ins_if(beyond, "bra", {done});
  tma_issue(st);
  b_.ins("bra", {top});
  b_.label(done);
}

void Emitter::tma_issue(TmaState& st) {
  const Pipeline& p = *st.p;
  int S = p.stages;
  std::string bar = b_.reg(RegClass::B32), parity = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {bar, st.wslot, "8", st.empty});
  b_.ins("xor.b32", {parity, st.wphase, "1"});
  mbarrier_wait(bar, parity);
  std::string full = b_.reg(RegClass::B32), stage = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {full, st.wslot, "8", st.full});
  // The bytes the copies deliver (every box counts whole, also outside the array).
  int64_t bytes = 0;
  for (const AsyncLoad& al : p.loads) bytes += al.boxes() * al.box_bytes();
  b_.ins("mbarrier.arrive.expect_tx.shared::cta.b64", {"_", "[" + full + "]", u32(bytes)});
  b_.ins("mad.lo.u32", {stage, st.wslot, u32(p.stage_bytes), st.base});
  // The origins that move with the loop, at the iteration issued: the induction variable (or a
  // value computed from it in the body) times the tile's extent, or at element offsets the
  // value itself.
  const ir::Value* loop_iv = p.loop->regions[0]->args[0];
  std::string iv = st.iv_issue;  // the induction variable in 32 bits, for tile indices
  if (dtype_bits(st.idx) == 64) {
    iv = b_.reg(RegClass::B32);
    b_.ins("cvt.u32.u64", {iv, st.iv_issue});
  }
  for (size_t i = 0; i < p.loads.size(); ++i) {
    const AsyncLoad& al = p.loads[i];
    std::vector<std::string> origin = st.origin[i];
    for (size_t d = 0; d < origin.size(); ++d) {
      if (!origin[d].empty()) continue;
      const ir::Value* index = al.load->operands[d + 1];
      int64_t extent = al.load->results[0]->type.tile.shape[d];
      if (index == loop_iv && !al.load->offsets) {
        origin[d] = b_.reg(RegClass::B32);
        b_.ins("mul.lo.u32", {origin[d], iv, u32(extent)});
        continue;
      }
      std::string v = value_at(index, loop_iv, st.iv_issue);
      DType dt = index->type.tile.dtype;
      origin[d] = al.load->offsets ? tma_coordinate(al, d, v, dt) : tma_tile_origin(v, dt, extent);
    }
    const ClusterCopy* cc = i < st.cluster_copy.size() && !st.cluster_copy[i].local.empty() ? &st.cluster_copy[i] : nullptr;
    tma_copy(al, origin, stage, al.offset, full, cc);
  }
  ring_next(st.wslot, st.wphase, S);
  b_.ins(fmt::format("add.{}", st.type()), {st.iv_issue, st.iv_issue, std::to_string(st.step)});
}

void Emitter::tma_iteration(TmaState& st) {
  const Pipeline& p = *st.p;
  std::string full = b_.reg(RegClass::B32), stage = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {full, st.rslot, "8", st.full});
  mbarrier_wait(full, st.rphase);
  b_.ins("mad.lo.u32", {stage, st.rslot, u32(p.stage_bytes), st.base});
  for (const AsyncLoad& al : p.loads) {
    std::string r = b_.reg(RegClass::B32);
    b_.ins("add.u32", {r, stage, u32(al.offset)});
    async_base_[&al] = r;
  }
}

std::string Emitter::warpgroup_leader() {
  std::string lane = b_.reg(RegClass::B32), leader = b_.reg(RegClass::Pred);
  b_.ins("and.b32", {lane, tid_, "127"});
  b_.ins("setp.eq.u32", {leader, lane, "0"});
  return leader;
}

void Emitter::tma_release_prev(const TmaState& st) {
  std::string release = b_.reg(RegClass::Pred), bar = b_.reg(RegClass::B32);
  b_.ins("setp.lt.u32", {release, st.prev, u32(st.p->stages)});
  b_.ins("and.pred", {release, release, st.wg_leader});
  b_.ins("mad.lo.u32", {bar, st.prev, "8", st.empty});
  if (spec_->cluster > 1) return cluster_release(release, bar);
  b_.ins_if(release, "mbarrier.arrive.shared::cta.b64", {"_", "[" + bar + "]"});
}

void Emitter::tma_advance(TmaState& st) {
  int S = st.p->stages;
  // The previous iteration's stage: its wgmma group finished at this iteration's wait_group 1.
  tma_release_prev(st);
  b_.ins("mov.u32", {st.prev, st.rslot});
  ring_next(st.rslot, st.rphase, S);
  if (spec_->specialized()) return;  // the producer warpgroup refills it
  // Thread 0 refills the stage just released with the tile S - 1 iterations ahead.
  std::string skip = b_.label_name("tma_refill_done"), no = b_.reg(RegClass::Pred);
  b_.ins(fmt::format("setp.ge.{}", st.type()), {no, st.iv_issue, st.upper});
  std::string not_leader = b_.reg(RegClass::Pred);
  b_.ins("not.pred", {not_leader, st.leader});
  b_.ins("or.pred", {no, no, not_leader});
  b_.ins_if(no, "bra", {skip});
  tma_issue(st);
  b_.label(skip);
  // wgmma is .aligned: warp 0 converges before the next one.
  b_.ins("bar.warp.sync", {"-1"});
}

void Emitter::pingpong_turn(const ir::Op& loop, TmaState& st) {
  // The trip count: max(upper - lower, 0) ceil-divided by the constant step, in 64 bits, then
  // 32 (a ring position only needs it modulo 2 stages).
  DType idx = loop.operands[0]->type.tile.dtype;
  int64_t step = loop.operands[2]->def->value.i;
  auto wide = [&](const ir::Value* v) {
    std::string r = regs(v)[0];
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
  b_.ins_if(skip, "bar.sync", {id, u32(2 * k_.threads())});
  b_.ins("mov.u32", {pingpong_skip_, "1"});
}

void Emitter::pingpong_pass() {
  std::string id = b_.reg(RegClass::B32);
  b_.ins("add.u32", {id, consumer_index_, "4"});
  b_.ins("bar.arrive", {id, u32(2 * k_.threads())});
}

void Emitter::tma_epilogue(TmaState& st) {
  if (spec_->pingpong) pingpong_pass();
  wgmma_wait(0);
  if (spec_->specialized()) {
    // The last stage read is free again (a producer that runs on, to a next tile, waits for
    // it). The barriers stay: the kernel has no other pipelined loop.
    tma_release_prev(st);
    return;
  }
  // Every warp is done with the stages and the mbarriers before thread 0 invalidates them: a
  // later pipelined loop (or this one again, inside an outer loop) initializes and fills them
  // anew.
  b_.ins("bar.sync", {"0"});
  std::string skip = b_.label_name("tma_inval_done"), not_leader = b_.reg(RegClass::Pred);
  b_.ins("not.pred", {not_leader, st.leader});
  b_.ins_if(not_leader, "bra", {skip});
  for (int s = 0; s < st.p->stages; ++s) {
    b_.ins("mbarrier.inval.shared::cta.b64", {fmt::format("[{}+{}]", st.full, 8 * s)});
    b_.ins("mbarrier.inval.shared::cta.b64", {fmt::format("[{}+{}]", st.empty, 8 * s)});
  }
  if (!st.p->resident.empty()) b_.ins("mbarrier.inval.shared::cta.b64", {"[" + st.resident_full + "]"});
  b_.label(skip);
  b_.ins("bar.warp.sync", {"-1"});
}

}  // namespace tilec::codegen
