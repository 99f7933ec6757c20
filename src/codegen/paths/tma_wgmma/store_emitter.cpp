// The tma_wgmma path's TMA stores (store_emitter.h; plan.h TmaStore, planned by tma_store.cpp):
// the tile goes from registers into a 128-byte-swizzled staging buffer in the dead TMA stages,
// and thread 0 stores it with cp.async.bulk.tensor (PTX ISA §9.7.9.25.5.2), one copy per 128-byte box:
//
//   barrier                         every consumer is past the loops (the stages are free)
//   st.shared per run               each thread its registers (TmaStore::runs)
//   fence.proxy.async.shared::cta   the generic-proxy writes become visible to the copy engine
//   barrier
//   thread 0: cp.async.bulk.tensor.Nd.global.shared::cta ... per box; commit_group;
//             wait_group.read 0     the buffer must outlive the copy's reads (the CTA's shared
//                                   memory goes to another CTA once its threads exit)
//
// On a persistent grid the staging buffer is its own (not in the stages, which the producer
// already fills for the next tile) and thread 0 waits for the copies' reads only before the
// next tile's staging and at the end (drain), so they overlap the next main loop.
// Where the whole tile's buffer would cost the ring a stage, the buffer is a ring of fewer
// box slots (TmaStore::slots): per box, write, fence, barrier, store, commit, and before a
// slot is written again thread 0 waits until that slot's copy has read it (wait_group.read
// slots - 1), then a barrier.
//
// The copy engine writes only the part of each box inside the array (PTX ISA §9.7.9.25.5.2:
// out-of-bound elements are not written), so edge tiles need no predicates.
#include "codegen/paths/tma_wgmma/store_emitter.h"

#include <fmt/format.h>

namespace tilec::codegen::tma_wgmma {

void TmaStoreEmitter::store(const TmaStore& ts) {
  cx_.need_ptx(80);
  const ir::Op& op = *ts.store;
  const ir::Value* val = op.operands[1];
  const Layout& l = cx_.k_.layout(val);
  const std::vector<std::string>& in = cx_.regs(val);
  int rank = l.rank();
  bool persistent = pl_.spec.persistent;
  // A persistent grid's staging buffer is its own; the previous tile's copies may still read it
  // (thread 0 waits, then the barrier tells the others).
  if (persistent) drain();
  cx_.cta_barrier();

  // The staging buffer starts at the stages (1024-byte aligned, as TmaRing::setup finds them).
  std::string buf = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {buf, cx_.smem_});
  b_.ins("add.u32", {buf, buf, u32(cx_.k_.pipeline_offset + 1023)});
  b_.ins("and.b32", {buf, buf, "-1024"});
  // Ping-pong: each consumer stages in buffers of its own (the other may be storing its tile).
  if (pl_.spec.pingpong) b_.ins("mad.lo.u32", {buf, consumer_index_, u32(pl_.staging_stride), buf});

  // The thread's part of the address (tma_store.cpp): line Lt, byte Bt of its coordinates.
  const ThreadCoords& tc = cx_.coords(l);
  std::string line = b_.reg(RegClass::B32), byte = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {line, rank > 1 ? tc.base[0] : "0"});
  for (int d = 1; d + 1 < rank; ++d) b_.ins("mad.lo.u32", {line, line, u32(l.shape[size_t(d)]), tc.base[size_t(d)]});
  b_.ins("shl.b32", {byte, tc.base[size_t(rank - 1)], std::to_string(log2_exact(ts.esz))});
  std::string swz = b_.reg(RegClass::B32), low = b_.reg(RegClass::B32), thread = b_.reg(RegClass::B32);
  std::string l7 = b_.reg(RegClass::B32);
  b_.ins("bfe.u32", {swz, byte, "4", "3"});  // the chunk, then XORed with line % 8
  b_.ins("and.b32", {l7, line, "7"});
  b_.ins("xor.b32", {swz, swz, l7});
  b_.ins("and.b32", {low, byte, "15"});
  b_.ins("mad.lo.u32", {thread, line, "128", buf});
  b_.ins("add.u32", {thread, thread, low});
  std::map<int, std::string> base;  // per key: thread + ((swz ^ key) << 4)
  for (const StagedRun& run : ts.runs) {
    if (base.count(run.key)) continue;
    std::string x = b_.reg(RegClass::B32), a = b_.reg(RegClass::B32);
    if (run.key) b_.ins("xor.b32", {x, swz, u32(run.key)});
    b_.ins("shl.b32", {x, run.key ? x : swz, "4"});
    b_.ins("add.u32", {a, thread, x});
    base[run.key] = a;
  }
  // The registers of boxes [first, last) into their slots.
  auto write_boxes = [&](int64_t first, int64_t last) {
    for (const StagedRun& run : ts.runs) {
      if (run.box < first || run.box >= last) continue;
      std::vector<std::string> words;
      if (ts.esz == 2 && run.count > 1) {
        for (int i = 0; i < run.count; i += 2) {
          words.push_back(b_.reg(RegClass::B32));
          b_.ins("mov.b32", {words.back(), fmt::format("{{{}, {}}}", in[size_t(run.reg + i)], in[size_t(run.reg + i + 1)])});
        }
      } else {
        for (int i = 0; i < run.count; ++i) words.push_back(in[size_t(run.reg + i)]);
      }
      std::string width = ts.esz == 2 && run.count == 1 ? "b16" : "b32";
      std::string opcode = words.size() == 1 ? "st.shared." + width : fmt::format("st.shared.v{}.{}", words.size(), width);
      std::string value = words.size() == 1 ? words[0] : fmt::format("{{{}}}", fmt::join(words, ", "));
      int64_t imm = run.imm + (run.box % ts.slots) * ts.box_bytes();
      b_.ins(opcode, {fmt::format("[{}+{}]", base[run.key], imm), value});
    }
  };

  // Thread 0: the tile origin per dimension (innermost first), clamped to 32 bits (a tile that
  // far out lies wholly outside the array, and stays outside), then one store per box.
  std::string other = b_.reg(RegClass::Pred);
  std::vector<std::string> coord(static_cast<size_t>(rank));
  auto store_boxes = [&](int64_t first, int64_t last) {
    std::string skip = b_.label_name("tma_store_done");
    if (first == 0) b_.ins("setp.ne.u32", {other, cx_.tid_, "0"});
    b_.ins_if(other, "bra", {skip});
    if (first == 0)
      for (int d = 0; d < rank; ++d) {
        const ir::Value* index = op.operands[2 + size_t(d)];
        std::string idx = cx_.regs(index)[0], o = b_.reg(RegClass::B64), c = b_.reg(RegClass::B32);
        if (dtype_bits(index->type.tile.dtype) < 64) {
          std::string w = b_.reg(RegClass::B64);
          b_.ins(is_unsigned_int(index->type.tile.dtype) ? "cvt.u64.u32" : "cvt.s64.s32", {w, idx});
          idx = w;
        }
        b_.ins("mul.lo.s64", {o, idx, std::to_string(l.shape[size_t(d)])});
        b_.ins("max.s64", {o, o, "-2147483648"});
        b_.ins("min.s64", {o, o, "2147483647"});
        b_.ins("cvt.u32.u64", {c, o});
        coord[size_t(rank - 1 - d)] = c;
      }
    for (int64_t box = first; box < last; ++box) {
      std::vector<std::string> c = coord;
      if (box) {
        c[0] = b_.reg(RegClass::B32);
        b_.ins("add.u32", {c[0], coord[0], u32(box * 128 / ts.esz)});
      }
      b_.ins(fmt::format("cp.async.bulk.tensor.{}d.global.shared::cta.tile.bulk_group", rank),
             {fmt::format("[{}, {{{}}}]", maps.at(&ts), fmt::join(c, ", ")),
              fmt::format("[{}+{}]", buf, ts.offset + (box % ts.slots) * ts.box_bytes())});
    }
    b_.ins("cp.async.bulk.commit_group", {});
    if (!persistent && last == ts.boxes()) b_.ins("cp.async.bulk.wait_group.read", {"0"});
    b_.label(skip);
  };

  // The boxes leave in bulk groups: the whole tile at once, or, through a ring of slots, one
  // box at a time, box b going into slot b % slots once the copy of box b - slots has read it
  // (at most slots - 1 younger groups may still be reading).
  int64_t group = ts.slots == ts.boxes() ? ts.boxes() : 1;
  for (int64_t first = 0; first < ts.boxes(); first += group) {
    if (first >= ts.slots) {
      b_.ins_if("!" + other, "cp.async.bulk.wait_group.read", {std::to_string(ts.slots - 1)});
      cx_.cta_barrier();
    }
    write_boxes(first, first + group);
    b_.ins("fence.proxy.async.shared::cta", {});
    cx_.cta_barrier();
    store_boxes(first, first + group);
  }
}

void TmaStoreEmitter::drain() {
  if (pl_.tma_stores.empty()) return;
  std::string other = b_.reg(RegClass::Pred);
  b_.ins("setp.ne.u32", {other, cx_.tid_, "0"});
  b_.ins_if("!" + other, "cp.async.bulk.wait_group.read", {"0"});
}

}  // namespace tilec::codegen::tma_wgmma
