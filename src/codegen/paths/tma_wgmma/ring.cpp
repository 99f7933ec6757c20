// The tma_wgmma path's TMA ring (ring.h): operand tiles come from global
// memory by TMA (cp.async.bulk.tensor, PTX ISA §9.7.9.25.5.1) into 128-byte-swizzled stages,
// each guarded by two mbarriers (PTX ISA §9.7.13.15): `full` counts the bytes in (thread 0
// arrives with expect_tx, the copies complete_tx), `empty` counts the warpgroups whose wgmma
// finished reading. The protocol of bench/hopper_proto (measured on the H200, NOTES.md), in two
// schedules (plan.h TmaSchedule). Inline, thread 0 is also the producer:
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
// Specialized (TmaWgmmaEmitter::specialized_body): thread 0 inits the barriers before the role branch; the
// producer warpgroup's thread 0 issues every iteration (produce), waiting for each stage to
// be empty; the consumers only wait for full stages and release them, the last one after the
// loop too.
//
// A fresh mbarrier is in phase 0, so waiting for parity 1 passes at once: the producer waits
// for empty with the opposite of its phase, and the first round needs no special case. Every
// copy of a stage, also of a box wholly outside the array, delivers its full byte count
// (zero-filled), so edge tiles need nothing extra.
#include "codegen/paths/tma_wgmma/ring.h"

#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

namespace tilec::codegen::tma_wgmma {

TmaRing::TmaRing(EmitContext& cx, const Plan& plan) : FamilyEmitter(cx), pl_(plan) {
  release_step = [this](const std::string& release, const std::string& bar) {
    b_.ins_if(release, "mbarrier.arrive.shared::cta.b64", {"_", "[" + bar + "]"});
  };
}

void TmaRing::mbarrier_wait(const std::string& bar, const std::string& parity) {
  std::string top = b_.label_name("mbar_wait"), done = b_.label_name("mbar_done");
  std::string p = b_.reg(RegClass::Pred), spins;
  if (cx_.o_.device_asserts) {
    spins = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {spins, "0"});
  }
  b_.label(top);
  // Plain bra: the threads of a warp may leave the loop at different tries.
  b_.ins("mbarrier.try_wait.parity.shared::cta.b64", {p, "[" + bar + "]", parity});
  b_.ins_if(p, "bra", {done});
  if (cx_.o_.device_asserts) {
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

void TmaRing::ring_next(const std::string& slot, const std::string& phase, int n) {
  std::string wrap = b_.reg(RegClass::Pred);
  b_.ins("add.u32", {slot, slot, "1"});
  b_.ins("setp.eq.u32", {wrap, slot, u32(n)});
  b_.ins_if(wrap, "mov.u32", {slot, "0"});
  b_.ins_if(wrap, "xor.b32", {phase, phase, "1"});
}

void TmaRing::setup(const Pipeline& p, RingState& st) {
  cx_.need_ptx(80);
  st.p = &p;
  // The stages start at a 1024-byte boundary of the shared address (the 128-byte swizzle's
  // pattern repeats every 1024 bytes; TMA and wgmma apply it to address bits); the lowering
  // keeps 1024 bytes for that.
  st.base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {st.base, cx_.smem_});
  b_.ins("add.u32", {st.base, st.base, u32(cx_.k_.pipeline_offset + 1023)});
  b_.ins("and.b32", {st.base, st.base, "-1024"});
  st.full = b_.reg(RegClass::B32);
  st.empty = b_.reg(RegClass::B32);
  b_.ins("add.u32", {st.full, st.base, u32(pl_.barriers_of(p))});
  b_.ins("add.u32", {st.empty, st.base, u32(pl_.barriers_of(p) + 8 * p.stages)});
  if (!p.resident.empty()) {
    st.resident = b_.reg(RegClass::B32);
    st.resident_full = b_.reg(RegClass::B32);
    b_.ins("add.u32", {st.resident, st.base, u32(p.stages * p.stage_bytes)});
    b_.ins("add.u32", {st.resident_full, st.base, u32(pl_.barriers_of(p) + 16 * p.stages)});
    if (pl_.spec.persistent) {
      st.resident_empty = b_.reg(RegClass::B32);
      b_.ins("add.u32", {st.resident_empty, st.resident_full, "8"});
    }
  }
}

void TmaRing::init_barriers(const RingState& st) {
  int S = st.p->stages;
  // empty: the compute (consumer) warpgroups, of both CTAs of a cluster (cluster.h release).
  int releases = cx_.k_.num_warps / 4 * pl_.spec.cluster;
  for (int s = 0; s < S; ++s) {
    b_.ins("mbarrier.init.shared::cta.b64", {fmt::format("[{}+{}]", st.full, 8 * s), "1"});
    b_.ins("mbarrier.init.shared::cta.b64", {fmt::format("[{}+{}]", st.empty, 8 * s), u32(releases)});
  }
  if (!st.p->resident.empty()) {
    b_.ins("mbarrier.init.shared::cta.b64", {"[" + st.resident_full + "]", "1"});
    if (!st.resident_empty.empty())  // the consumer warpgroups
      b_.ins("mbarrier.init.shared::cta.b64", {"[" + st.resident_empty + "]", u32(cx_.k_.num_warps / 4)});
  }
  b_.ins("fence.mbarrier_init.release.cluster", {});
  b_.ins("fence.proxy.async.shared::cta", {});
  for (const AsyncLoad& al : st.p->loads) b_.ins("prefetch.tensormap", {"[" + maps.at(&al) + "]"});
}

std::string TmaRing::coordinate(const AsyncLoad& al, size_t d, const std::string& value, DType dtype) {
  if (dtype_bits(dtype) < 64) return value;  // narrower dtypes sit extended in 32-bit registers
  // Clamped to [-extent of the tile, the array's extent]: an origin outside that range reads a
  // box wholly outside the array, as the clamped one does, and the clamped one fits the s32.
  // The innermost coordinate must stay a multiple of 16 bytes (pipeline_loads.cpp, copy_kind): there
  // the upper bound is the extent rounded up to one.
  const ir::ArrayParam* arr = al.load->operands[0]->type.array;
  const std::vector<int64_t>& shape = al.load->results[0]->type.tile.shape;
  std::string hi = cx_.arrays_.at(arr).extents[d];
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

std::string TmaRing::tile_origin(const std::string& index, DType dtype, int64_t extent) {
  std::string idx = index, o = b_.reg(RegClass::B32);
  if (dtype_bits(dtype) == 64) {
    idx = b_.reg(RegClass::B32);
    b_.ins("cvt.u32.u64", {idx, index});
  }
  b_.ins("mul.lo.u32", {o, idx, u32(extent)});
  return o;
}

std::vector<std::string> TmaRing::origin(const AsyncLoad& al, const ir::Value* iv) {
  const ir::Op& ld = *al.load;
  const std::vector<int64_t>& shape = ld.results[0]->type.tile.shape;
  std::vector<std::string> origin;
  for (size_t d = 0; d < shape.size(); ++d) {
    const ir::Value* index = ld.operands[d + 1];
    if (iv && (index == iv || (index->def && index->def->parent == iv->owner))) {
      origin.push_back("");  // moves with the loop: issue computes it per iteration
      continue;
    }
    // At element offsets (load(offset=)) the origin is the offset itself.
    const std::string& r = cx_.regs(index)[0];
    DType dt = index->type.tile.dtype;
    origin.push_back(ld.offsets ? coordinate(al, d, r, dt) : tile_origin(r, dt, shape[d]));
  }
  return origin;
}

std::string TmaRing::value_at(const ir::Value* v, const ir::Value* iv, const std::string& at) {
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
    if (auto it = cx_.regs_.find(x); it != cx_.regs_.end()) saved[x] = it->second;
  cx_.regs_[iv] = {at};
  for (const auto& o : body.ops)
    if (chain.count(o.get())) cx_.op(*o);
  std::string r = cx_.regs(v)[0];
  for (const ir::Value* x : touched) cx_.regs_.erase(x);
  for (auto& [x, rs] : saved) cx_.regs_[x] = rs;
  return r;
}

void TmaRing::copy(const AsyncLoad& al, const std::vector<std::string>& origin, const std::string& dst,
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
    std::string src = fmt::format("[{}, {{{}}}]", maps.at(&al), fmt::join(c, ", "));
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

void TmaRing::issue_resident(const RingState& st) {
  const Pipeline& p = *st.p;
  if (p.resident.empty()) return;
  int64_t bytes = 0;
  for (const AsyncLoad& al : p.resident) bytes += al.boxes() * al.box_bytes();
  if (pl_.spec.persistent) {
    // The last tile's wgmma have read the buffer (a fresh mbarrier passes parity 1 at once, so
    // the first tile does not wait).
    std::string parity = b_.reg(RegClass::B32);
    b_.ins("xor.b32", {parity, st.resident_wphase, "1"});
    mbarrier_wait(st.resident_empty, parity);
    b_.ins("xor.b32", {st.resident_wphase, st.resident_wphase, "1"});
  }
  b_.ins("mbarrier.arrive.expect_tx.shared::cta.b64", {"_", "[" + st.resident_full + "]", u32(bytes)});
  for (const AsyncLoad& al : p.resident) {
    b_.ins("prefetch.tensormap", {"[" + maps.at(&al) + "]"});
    copy(al, origin(al, nullptr), st.resident, al.offset, st.resident_full);
  }
}

void TmaRing::wait_resident(const RingState& st) {
  const Pipeline& p = *st.p;
  if (p.resident.empty()) return;
  // Loaded once: the barrier completes its phase 0 and is never armed again; on a persistent
  // grid once per tile, the parity flipping.
  if (pl_.spec.persistent) {
    mbarrier_wait(st.resident_full, st.resident_rphase);
    b_.ins("xor.b32", {st.resident_rphase, st.resident_rphase, "1"});
  } else {
    mbarrier_wait(st.resident_full, "0");
  }
  for (const AsyncLoad& al : p.resident) {
    std::string r = b_.reg(RegClass::B32);
    b_.ins("add.u32", {r, st.resident, u32(al.offset)});
    cx_.async_base_[&al] = r;
  }
}

void TmaRing::release_resident(const RingState& st) {
  if (st.p->resident.empty() || !pl_.spec.persistent) return;
  b_.ins_if(st.wg_leader, "mbarrier.arrive.shared::cta.b64", {"_", "[" + st.resident_empty + "]"});
}

void TmaRing::origins(const ir::Op& loop, RingState& st) {
  // The fixed dimensions' tile origins (elements), once.
  st.origin.clear();
  for (const AsyncLoad& al : st.p->loads) st.origin.push_back(origin(al, loop.regions[0]->args[0]));
}

void TmaRing::inline_prologue(const ir::Op& loop, const Pipeline& p, RingState& st) {
  int S = p.stages;
  static_cast<EmitContext::LoopCounter&>(st) = cx_.loop_counter(loop);
  setup(p, st);
  for (std::string* r : {&st.rslot, &st.rphase, &st.wslot, &st.wphase, &st.prev}) {
    *r = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {*r, r == &st.prev ? u32(S) : "0"});
  }
  st.leader = b_.reg(RegClass::Pred);
  b_.ins("setp.eq.u32", {st.leader, cx_.tid_, "0"});
  st.wg_leader = warpgroup_leader();
  origins(loop, st);

  // Thread 0: the mbarriers, made visible to the other threads and to the copy engine.
  std::string skip = b_.label_name("tma_init_done");
  std::string not_leader = b_.reg(RegClass::Pred);
  b_.ins("not.pred", {not_leader, st.leader});
  b_.ins_if(not_leader, "bra", {skip});
  init_barriers(st);
  issue_resident(st);
  // The first S - 1 tiles.
  for (int s = 0; s + 1 < S; ++s) {
    std::string beyond = b_.reg(RegClass::Pred);
    b_.ins(fmt::format("setp.ge.{}", st.type()), {beyond, st.iv_issue, st.upper});
    b_.ins_if(beyond, "bra", {skip});
    issue(st);
  }
  b_.label(skip);
  b_.ins("bar.sync", {"0"});
  wait_resident(st);
}

void TmaRing::start_producing(const ir::Op& loop, RingState& st) {
  static_cast<EmitContext::LoopCounter&>(st) = cx_.loop_counter(loop);
  issue_resident(st);
  origins(loop, st);
  st.cluster_copy.clear();
}

void TmaRing::produce(RingState& st) {
  // Every iteration's copies, each into the next stage the consumers have emptied.
  std::string top = b_.label_name("produce"), done = b_.label_name("produce_end"), beyond = b_.reg(RegClass::Pred);
  b_.label(top);
  b_.ins(fmt::format("setp.ge.{}", st.type()), {beyond, st.iv_issue, st.upper});
  b_.ins_if(beyond, "bra", {done});
  issue(st);
  b_.ins("bra", {top});
  b_.label(done);
}

void TmaRing::issue(RingState& st) {
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
      origin[d] = al.load->offsets ? coordinate(al, d, v, dt) : tile_origin(v, dt, extent);
    }
    const ClusterCopy* cc = i < st.cluster_copy.size() && !st.cluster_copy[i].local.empty() ? &st.cluster_copy[i] : nullptr;
    copy(al, origin, stage, al.offset, full, cc);
  }
  ring_next(st.wslot, st.wphase, S);
  b_.ins(fmt::format("add.{}", st.type()), {st.iv_issue, st.iv_issue, std::to_string(st.step)});
}

void TmaRing::iteration(RingState& st) {
  const Pipeline& p = *st.p;
  std::string full = b_.reg(RegClass::B32), stage = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {full, st.rslot, "8", st.full});
  mbarrier_wait(full, st.rphase);
  b_.ins("mad.lo.u32", {stage, st.rslot, u32(p.stage_bytes), st.base});
  for (const AsyncLoad& al : p.loads) {
    std::string r = b_.reg(RegClass::B32);
    b_.ins("add.u32", {r, stage, u32(al.offset)});
    cx_.async_base_[&al] = r;
  }
}

std::string TmaRing::warpgroup_leader() {
  std::string lane = b_.reg(RegClass::B32), leader = b_.reg(RegClass::Pred);
  b_.ins("and.b32", {lane, cx_.tid_, "127"});
  b_.ins("setp.eq.u32", {leader, lane, "0"});
  return leader;
}

void TmaRing::release_prev(const RingState& st) {
  std::string release = b_.reg(RegClass::Pred), bar = b_.reg(RegClass::B32);
  b_.ins("setp.lt.u32", {release, st.prev, u32(st.p->stages)});
  b_.ins("and.pred", {release, release, st.wg_leader});
  b_.ins("mad.lo.u32", {bar, st.prev, "8", st.empty});
  release_step(release, bar);
}

void TmaRing::advance(RingState& st, bool refill) {
  int S = st.p->stages;
  // The previous iteration's stage: its wgmma group finished at this iteration's wait_group 1.
  release_prev(st);
  b_.ins("mov.u32", {st.prev, st.rslot});
  ring_next(st.rslot, st.rphase, S);
  if (!refill) return;  // a producer warpgroup refills it
  // Thread 0 refills the stage just released with the tile S - 1 iterations ahead.
  std::string skip = b_.label_name("tma_refill_done"), no = b_.reg(RegClass::Pred);
  b_.ins(fmt::format("setp.ge.{}", st.type()), {no, st.iv_issue, st.upper});
  std::string not_leader = b_.reg(RegClass::Pred);
  b_.ins("not.pred", {not_leader, st.leader});
  b_.ins("or.pred", {no, no, not_leader});
  b_.ins_if(no, "bra", {skip});
  issue(st);
  b_.label(skip);
  // wgmma is .aligned: warp 0 converges before the next one.
  b_.ins("bar.warp.sync", {"-1"});
}

void TmaRing::invalidate(const RingState& st) {
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
  if (!st.p->resident.empty()) {
    b_.ins("mbarrier.inval.shared::cta.b64", {"[" + st.resident_full + "]"});
    if (!st.resident_empty.empty()) b_.ins("mbarrier.inval.shared::cta.b64", {"[" + st.resident_empty + "]"});
  }
  b_.label(skip);
  b_.ins("bar.warp.sync", {"-1"});
}

}  // namespace tilec::codegen::tma_wgmma
