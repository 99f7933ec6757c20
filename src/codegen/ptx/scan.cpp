// Inclusive scans along one tile dimension (cumsum, cumprod; language.md §6.6), in the
// operand's own layout, decomposed like the reductions of reduce.cpp along the axis's parent
// dimension. The elements of one row along the axis lie, in order: by repetition of the CTA
// tile, then by thread (lanes, then warps), then by register inside the thread. So:
//   1. each thread scans its own contiguous elements and keeps their total;
//   2. the lanes along the axis scan those totals (Hillis-Steele with shfl.sync.up), and each
//      lane takes the prefix of the lanes before it (one more shfl.sync.up);
//   3. the warps along the axis exchange their totals through shared memory, each taking the
//      prefix of the warps before it;
//   4. repetitions of the CTA tile along the axis are carried from left to right in registers
//      (the total of a repetition comes from the same shared memory, or a shfl.sync.idx).
// A tile smaller than the CTA tile along the axis wraps around: the threads past its extent
// hold copies, so the scan runs in independent groups of lanes (and warps) that each cover
// the extent once, and the copies compute the same values as the originals.
#include "codegen/ptx/scan.h"

#include <cmath>
#include <map>

#include <fmt/format.h>

namespace tilec::codegen {

std::string ScanEmitter::shuffle(const char* mode, const std::string& v, DType d, const std::string& b,
                                 const std::string& c) {
  // PTX ISA §9.7.9.6 (shfl.sync): 32-bit values only; wider and narrower ones move as words.
  std::string ins = std::string("shfl.sync.") + mode + ".b32";
  RegClass rc = reg_class(d);
  if (rc == RegClass::B32) {
    std::string r = b_.reg(RegClass::B32);
    b_.ins(ins, {r, v, b, c, "-1"});
    return r;
  }
  if (rc == RegClass::B64) {
    std::string lo = b_.reg(RegClass::B32), hi = b_.reg(RegClass::B32), r = b_.reg(RegClass::B64);
    b_.ins("mov.b64", {"{" + lo + ", " + hi + "}", v});
    b_.ins(ins, {lo, lo, b, c, "-1"});
    b_.ins(ins, {hi, hi, b, c, "-1"});
    b_.ins("mov.b64", {r, "{" + lo + ", " + hi + "}"});
    return r;
  }
  std::string w = b_.reg(RegClass::B32);
  if (rc == RegClass::B16) {
    std::string h = b_.reg(RegClass::B16);
    b_.ins("cvt.u32.u16", {w, v});
    b_.ins(ins, {w, w, b, c, "-1"});
    b_.ins("cvt.u16.u32", {h, w});
    return h;
  }
  std::string q = b_.reg(RegClass::Pred);
  b_.ins("selp.b32", {w, "1", "0", v});
  b_.ins(ins, {w, w, b, c, "-1"});
  b_.ins("setp.ne.u32", {q, w, "0"});
  return q;
}

void ScanEmitter::scan(const ir::Op& op) {
  const ir::Value* src = op.operands[0];
  const ir::Value* dst = op.results[0];
  DType d = src->type.tile.dtype;
  const std::vector<std::string>& in = cx_.regs(src);
  int ax = op.axis;
  int64_t extent = src->type.tile.shape[size_t(ax)];
  const Layout& l = cx_.k_.layout(src);
  int p = l.parent_dim(ax);
  if (extent == 1 || p < 0) {  // a scan of one element is the element
    cx_.regs_[dst] = in;
    return;
  }
  RegClass rc = reg_class(d);
  if (rc == RegClass::Pred) {
    cx_.error(op.loc, std::string(op.combine == ir::Combine::Prod ? "cumprod" : "cumsum") +
                      " cannot accumulate in bool; use dtype=i32");
    return;
  }
  ir::OpKind k = op.combine == ir::Combine::Prod ? ir::OpKind::Mul : ir::OpKind::Add;
  auto comb = [&](const std::string& x, const std::string& y) { return arith_.binary_reg(k, d, x, y); };
  std::string bits = bits_type(rc);
  auto select = [&](const std::string& yes, const std::string& no, const std::string& pred) {
    std::string r = b_.reg(rc);
    b_.ins("selp." + bits, {r, yes, no, pred});
    return r;
  };
  std::string ident = b_.reg(rc);
  b_.ins("mov." + bits, {ident, imm(d, k == ir::OpKind::Mul ? Scalar{1, 1.0} : Scalar{0, 0.0})});

  // The distribution along the axis (layout.h): spt elements per thread, tpw lanes, wpc warps.
  int spt = l.size_per_thread[size_t(p)], tpw = l.threads_per_warp[size_t(p)], wpc = l.warps_per_cta[size_t(p)];
  int64_t cta = l.parent_cta_tile(p);
  bool wrap = cta > extent;
  int64_t coords_along = wrap ? extent / spt : int64_t(tpw) * wpc;  // distinct thread coordinates
  int gl = int(std::min<int64_t>(tpw, coords_along));                // lanes per scan group
  int gw = wrap ? int(std::max<int64_t>(1, coords_along / tpw)) : wpc;  // warps per scan group
  int64_t reps = wrap ? 1 : extent / cta;
  int64_t lane_stride = 1, warp_stride = 1;
  for (int q = l.parent_rank() - 1; q > p; --q) {
    lane_stride *= l.threads_per_warp[size_t(q)];
    warp_stride *= l.warps_per_cta[size_t(q)];
  }
  // This thread's lane coordinate inside its group along the axis (lg), and its warp
  // coordinate (wp) and position inside its group of warps (wg).
  std::string lg = b_.reg(RegClass::B32), wp = b_.reg(RegClass::B32), wg = b_.reg(RegClass::B32);
  b_.ins("and.b32", {lg, cx_.tid_, "31"});
  b_.ins("shr.u32", {lg, lg, u32(log2_exact(lane_stride))});
  b_.ins("and.b32", {lg, lg, u32(gl - 1)});
  b_.ins("shr.u32", {wp, cx_.tid_, u32(5 + log2_exact(warp_stride))});
  b_.ins("and.b32", {wp, wp, u32(wpc - 1)});
  b_.ins("and.b32", {wg, wp, u32(gw - 1)});

  // 1. Registers grouped by row (offsets along the other dimensions) and repetition; inside
  // the thread, an inclusive scan over the spt contiguous elements of each group.
  struct Group {
    std::vector<int64_t> reg;  ///< by element e along the axis
    std::vector<std::string> s;  ///< inclusive in-thread scan
    std::string total, lanes_incl, lanes_excl, warps_excl, rep_total;
  };
  std::map<std::pair<std::vector<int64_t>, int64_t>, Group> groups;
  for (int64_t r = 0; r < l.regs_per_thread(); ++r) {
    std::vector<int64_t> off = l.reg_offset(r);
    int64_t o = off[size_t(ax)];
    int64_t rep = wrap ? 0 : o / cta, e = wrap ? o : o % cta;
    off.erase(off.begin() + ax);
    Group& g = groups[{off, rep}];
    g.reg.resize(size_t(spt), -1);
    g.reg[size_t(e)] = r;
  }
  for (auto& [key, g] : groups) {
    for (size_t e = 0; e < g.reg.size(); ++e)
      g.s.push_back(e == 0 ? in[size_t(g.reg[0])] : comb(g.s[e - 1], in[size_t(g.reg[e])]));
    g.total = g.s.back();
  }

  // 2. Lanes: inclusive scan of the thread totals, then the exclusive prefix of each lane.
  for (auto& [key, g] : groups) g.lanes_incl = g.total;
  for (int delta = 1; delta < gl; delta *= 2) {
    std::string take = b_.reg(RegClass::Pred);
    b_.ins("setp.ge.u32", {take, lg, u32(delta)});
    for (auto& [key, g] : groups) {
      std::string up = shuffle("up", g.lanes_incl, d, u32(delta * lane_stride), "0");
      g.lanes_incl = select(comb(up, g.lanes_incl), g.lanes_incl, take);
    }
  }
  if (gl > 1) {
    std::string first = b_.reg(RegClass::Pred);
    b_.ins("setp.eq.u32", {first, lg, "0"});
    for (auto& [key, g] : groups) g.lanes_excl = select(ident, shuffle("up", g.lanes_incl, d, u32(lane_stride), "0"), first);
  }

  // 3. Warps: the last lane of each group writes its warp's total; every warp then combines
  // the totals of the warps before it in its group (and all of them for the repetition's total).
  if (gw > 1) {
    int esz = rc == RegClass::B64 ? 8 : 4;
    std::vector<int64_t> other_shape = src->type.tile.shape;
    other_shape.erase(other_shape.begin() + ax);
    std::vector<int64_t> rm(other_shape.size(), 1);
    for (int q = int(rm.size()) - 2; q >= 0; --q) rm[size_t(q)] = rm[size_t(q + 1)] * other_shape[size_t(q + 1)];
    int64_t nrows = src->type.tile.numel() / extent;
    const ThreadCoords& tc = cx_.coords(l);
    std::string row = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {row, "0"});
    for (int q = 0, j = 0; q < l.rank(); ++q) {
      if (q == ax) continue;
      if (rm[size_t(j)] && other_shape[size_t(j)] > 1) b_.ins("mad.lo.u32", {row, tc.base[size_t(q)], u32(rm[size_t(j)]), row});
      ++j;
    }
    // Slot (rep * nrows + row) * wpc + warp, esz bytes each.
    std::string base = b_.reg(RegClass::B32), mine = b_.reg(RegClass::B32), last = b_.reg(RegClass::Pred);
    b_.ins("mov.u32", {base, cx_.smem_});
    b_.ins("mul.lo.u32", {row, row, u32(wpc * esz)});
    b_.ins("add.u32", {base, base, row});
    b_.ins("mad.lo.u32", {mine, wp, u32(esz), base});
    b_.ins("setp.eq.u32", {last, lg, u32(gl - 1)});
    std::string st = esz == 8 ? "st.shared.b64" : rc == RegClass::B16 ? "st.shared.b16" : "st.shared.b32";
    std::string ld = esz == 8 ? "ld.shared.b64" : rc == RegClass::B16 ? "ld.shared.b16" : "ld.shared.b32";
    auto slot = [&](const std::vector<int64_t>& other, int64_t rep) {
      int64_t r = 0;
      for (size_t q = 0; q < other.size(); ++q) r += other[q] * rm[q];
      return (rep * nrows + r) * wpc * esz;
    };
    for (auto& [key, g] : groups) b_.ins_if(last, st, {fmt::format("[{}+{}]", mine, slot(key.first, key.second)), g.lanes_incl});
    cx_.cta_barrier();
    // Warp w' precedes this warp in its group when wp - wg <= w' < wp.
    std::vector<std::string> before;
    for (int w = 0; w < wpc; ++w) {
      std::string lo = b_.reg(RegClass::Pred), hi = b_.reg(RegClass::Pred), q = b_.reg(RegClass::Pred);
      std::string start = b_.reg(RegClass::B32);
      b_.ins("sub.u32", {start, wp, wg});
      b_.ins("setp.le.u32", {lo, start, u32(w)});
      b_.ins("setp.gt.u32", {hi, wp, u32(w)});
      b_.ins("and.pred", {q, lo, hi});
      before.push_back(q);
    }
    for (auto& [key, g] : groups) {
      std::string acc = ident, all;
      for (int w = 0; w < wpc; ++w) {
        std::string v = b_.reg(rc);
        b_.ins(ld, {v, fmt::format("[{}+{}]", base, slot(key.first, key.second) + w * esz)});
        acc = select(comb(acc, v), acc, before[size_t(w)]);
        if (reps > 1) all = all.empty() ? v : comb(all, v);
      }
      g.warps_excl = acc;
      g.rep_total = all;
    }
    cx_.cta_barrier();
  } else if (reps > 1) {
    // One warp along the axis: the repetition's total is the last lane's inclusive value.
    std::string src_lane;
    if (gl > 1) {
      src_lane = b_.reg(RegClass::B32);
      std::string lane = b_.reg(RegClass::B32), back = b_.reg(RegClass::B32);
      b_.ins("and.b32", {lane, cx_.tid_, "31"});
      b_.ins("sub.u32", {back, u32(gl - 1), lg});
      b_.ins("mad.lo.u32", {src_lane, back, u32(lane_stride), lane});
    }
    for (auto& [key, g] : groups) g.rep_total = gl > 1 ? shuffle("idx", g.lanes_incl, d, src_lane, "31") : g.lanes_incl;
  }

  // 4. Carry the repetitions left to right; each element is carry ⊕ warps ⊕ lanes ⊕ own prefix.
  std::vector<std::string>& out = cx_.regs_[dst];
  out.assign(in.size(), "");
  std::map<std::vector<int64_t>, std::string> carry;
  for (auto& [key, g] : groups) {  // ordered by row, then repetition
    std::string prefix;
    auto add = [&](const std::string& x) {
      if (!x.empty()) prefix = prefix.empty() ? x : comb(prefix, x);
    };
    auto it = carry.find(key.first);
    if (it != carry.end()) add(it->second);
    add(g.warps_excl);
    add(g.lanes_excl);
    for (size_t e = 0; e < g.reg.size(); ++e) out[size_t(g.reg[e])] = prefix.empty() ? g.s[e] : comb(prefix, g.s[e]);
    if (reps > 1) carry[key.first] = it == carry.end() ? g.rep_total : comb(it->second, g.rep_total);
  }
}

}  // namespace tilec::codegen
