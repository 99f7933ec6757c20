// Reductions along one tile dimension (architecture.md "Lowering"): first inside each thread,
// then across the lanes of a warp with butterfly shuffles (shfl.sync.bfly), then across warps
// through shared memory. Every thread ends with the results of the rows it held (the result's
// slice layout), so a following broadcast needs no data movement. Blocked and mma layouts
// alike (an attention kernel's row max and row sum of its score accumulator stay in the
// accumulator's fragments: two shuffles per row).
// NaN propagates through max/min; argmax/argmin return the first NaN if any, else the first
// index of the extreme (language.md §6.5).
#include "codegen/ptx/reduce.h"

#include <cmath>
#include <tuple>
#include <utility>

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

// The value that leaves the other operand of combine `c` unchanged, as a PTX immediate.
std::string identity(ir::Combine c, DType d) {
  bool fl = is_float(d);
  Scalar s;
  switch (c) {
    case ir::Combine::Sum: break;
    case ir::Combine::Prod: s = Scalar{1, 1.0}; break;
    case ir::Combine::Max:
    case ir::Combine::Argmax:
      if (fl) s.f = -INFINITY;
      else if (d == DType::Bool) s.i = 0;
      else s.i = is_unsigned_int(d) ? 0 : (dtype_bits(d) == 64 ? INT64_MIN : int64_t(INT32_MIN));
      break;
    case ir::Combine::Min:
    case ir::Combine::Argmin:
      if (fl) s.f = INFINITY;
      else if (d == DType::Bool) s.i = 1;
      else s.i = is_unsigned_int(d) ? -1 : (dtype_bits(d) == 64 ? INT64_MAX : int64_t(INT32_MAX));
      break;
  }
  return imm(d, s);
}

}  // namespace

std::string ReduceEmitter::shuffle_xor(const std::string& v, DType d, int64_t mask) {
  RegClass c = reg_class(d);
  std::string m = std::to_string(mask);
  if (c == RegClass::B32) {
    std::string r = b_.reg(RegClass::B32);
    b_.ins("shfl.sync.bfly.b32", {r, v, m, "31", "-1"});
    return r;
  }
  if (c == RegClass::B64) {
    std::string lo = b_.reg(RegClass::B32), hi = b_.reg(RegClass::B32), r = b_.reg(RegClass::B64);
    b_.ins("mov.b64", {"{" + lo + ", " + hi + "}", v});
    b_.ins("shfl.sync.bfly.b32", {lo, lo, m, "31", "-1"});
    b_.ins("shfl.sync.bfly.b32", {hi, hi, m, "31", "-1"});
    b_.ins("mov.b64", {r, "{" + lo + ", " + hi + "}"});
    return r;
  }
  // predicates travel as 0/1 words
  std::string w = b_.reg(RegClass::B32), p = b_.reg(RegClass::Pred);
  b_.ins("selp.b32", {w, "1", "0", v});
  b_.ins("shfl.sync.bfly.b32", {w, w, m, "31", "-1"});
  b_.ins("setp.ne.u32", {p, w, "0"});
  return p;
}

void ReduceEmitter::combine(ir::Combine c, DType d, std::string a, std::string ia, std::string b, std::string ib,
                            std::string& out, std::string& iout) {
  // The inputs are copies: callers pass their accumulator as both `a` and `out`.
  using ir::Combine;
  switch (c) {
    case Combine::Sum: out = arith_.binary_reg(ir::OpKind::Add, d, a, b); return;
    case Combine::Prod: out = arith_.binary_reg(ir::OpKind::Mul, d, a, b); return;
    case Combine::Max: out = arith_.binary_reg(ir::OpKind::Max, d, a, b); return;
    case Combine::Min: out = arith_.binary_reg(ir::OpKind::Min, d, a, b); return;
    default: break;
  }
  // argmax/argmin: take b when it is the first NaN, strictly more extreme, or equal with a
  // smaller index.
  bool fl = is_float(d);
  std::string t = ptx_arith_type(d);  // bools compare as 0/1 words
  std::string va = a, vb = b;
  if (d == DType::Bool) {
    va = b_.reg(RegClass::B32);
    vb = b_.reg(RegClass::B32);
    b_.ins("selp.b32", {va, "1", "0", a});
    b_.ins("selp.b32", {vb, "1", "0", b});
  }
  std::string better = b_.reg(RegClass::Pred), eq = b_.reg(RegClass::Pred), lti = b_.reg(RegClass::Pred);
  std::string take = b_.reg(RegClass::Pred);
  b_.ins(fmt::format("setp.{}.{}", c == Combine::Argmax ? "gt" : "lt", t), {better, vb, va});
  b_.ins(fmt::format("setp.eq.{}", t), {eq, vb, va});
  b_.ins("setp.lt.s32", {lti, ib, ia});
  if (fl) {
    std::string na = b_.reg(RegClass::Pred), nb = b_.reg(RegClass::Pred), both = b_.reg(RegClass::Pred);
    std::string first = b_.reg(RegClass::Pred), nna = b_.reg(RegClass::Pred);
    b_.ins("testp.notanumber." + t, {na, va});
    b_.ins("testp.notanumber." + t, {nb, vb});
    b_.ins("and.pred", {both, na, nb});
    b_.ins("or.pred", {eq, eq, both});       // two NaNs tie
    b_.ins("not.pred", {nna, na});
    b_.ins("and.pred", {first, nb, nna});     // b is the first NaN
    b_.ins("or.pred", {better, better, first});
  }
  b_.ins("and.pred", {eq, eq, lti});
  b_.ins("or.pred", {take, better, eq});
  RegClass rc = reg_class(d);
  out = b_.reg(rc);
  if (rc == RegClass::Pred) {
    std::string x = b_.reg(RegClass::Pred), y = b_.reg(RegClass::Pred), nt = b_.reg(RegClass::Pred);
    b_.ins("and.pred", {x, take, b});
    b_.ins("not.pred", {nt, take});
    b_.ins("and.pred", {y, nt, a});
    b_.ins("or.pred", {out, x, y});
  } else {
    b_.ins(rc == RegClass::B64 ? "selp.b64" : rc == RegClass::B16 ? "selp.b16" : "selp.b32", {out, b, a, take});
  }
  iout = b_.reg(RegClass::B32);
  b_.ins("selp.b32", {iout, ib, ia, take});
}

std::pair<std::string, std::string> ReduceEmitter::combine_tree(ir::Combine c, DType d,
                                                               std::vector<std::pair<std::string, std::string>> level) {
  while (level.size() > 1) {
    std::vector<std::pair<std::string, std::string>> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2) {
      std::string v, index;
      combine(c, d, level[i].first, level[i].second, level[i + 1].first, level[i + 1].second, v, index);
      next.emplace_back(v, index);
    }
    if (level.size() % 2) next.push_back(level.back());
    level = std::move(next);
  }
  return level.front();
}

void ReduceEmitter::reduce(const ir::Op& op) {
  const ir::Value* src = op.operands[0];
  const ir::Value* dst = op.results[0];
  DType d = src->type.tile.dtype;
  ir::Combine c = op.combine;
  bool arg = c == ir::Combine::Argmax || c == ir::Combine::Argmin;
  const Layout& ls = cx_.k_.layout(src);
  Layout ld = ls.slice(op.axis);
  int ax = op.axis;
  int p = ls.parent_dim(ax);
  const ThreadCoords& tc = cx_.coords(ls);
  const std::vector<std::string>& in = cx_.regs(src);
  int64_t nout = ld.regs_per_thread();
  std::vector<std::string> acc(static_cast<size_t>(nout)), idx(static_cast<size_t>(nout));
  std::string ident = identity(c, d);

  // Threads whose coordinate along the axis wrapped around hold copies: they contribute the
  // identity so that nothing is counted twice.
  std::string valid;
  if (p >= 0 && ls.kind == Layout::Kind::Blocked && ls.parent_cta_tile(p) > ls.pshape()[size_t(p)]) {
    int64_t lane_stride = 1, warp_stride = 1;
    for (int k = ls.parent_rank() - 1; k > p; --k) {
      lane_stride *= ls.threads_per_warp[size_t(k)];
      warp_stride *= ls.warps_per_cta[size_t(k)];
    }
    std::string lc = b_.reg(RegClass::B32), wc = b_.reg(RegClass::B32);
    b_.ins("shr.u32", {lc, cx_.tid_, "0"});
    b_.ins("and.b32", {lc, lc, "31"});
    b_.ins("shr.u32", {lc, lc, u32(int64_t(std::log2(double(lane_stride))))});
    b_.ins("and.b32", {lc, lc, u32(ls.threads_per_warp[size_t(p)] - 1)});
    b_.ins("shr.u32", {wc, cx_.tid_, "5"});
    b_.ins("shr.u32", {wc, wc, u32(int64_t(std::log2(double(warp_stride))))});
    b_.ins("and.b32", {wc, wc, u32(ls.warps_per_cta[size_t(p)] - 1)});
    b_.ins("mad.lo.u32", {lc, wc, u32(ls.threads_per_warp[size_t(p)]), lc});
    b_.ins("mul.lo.u32", {lc, lc, u32(ls.size_per_thread[size_t(p)])});
    valid = b_.reg(RegClass::Pred);
    b_.ins("setp.lt.u32", {valid, lc, u32(ls.pshape()[size_t(p)])});
  }

  // 1. Inside the thread: the values of each output element, in increasing order along the
  // axis, combined as a pairwise tree (depth log2 n instead of a chain of n dependent
  // instructions; the combine rules are order-independent, and a pairwise float sum is at
  // least as accurate as a sequential one).
  std::vector<std::vector<std::pair<std::string, std::string>>> parts(static_cast<size_t>(nout));
  for (int64_t r = 0; r < ls.regs_per_thread(); ++r) {
    std::vector<int64_t> off = ls.reg_offset(r);
    std::string index;
    if (arg) {
      index = b_.reg(RegClass::B32);
      b_.ins("add.u32", {index, tc.base[size_t(ax)], u32(off[size_t(ax)])});
    }
    off.erase(off.begin() + ax);
    size_t o = size_t(ld.rank() ? ld.reg_of(off) : 0);
    std::string v = in[size_t(r)];
    if (!valid.empty()) {
      std::string w = b_.reg(reg_class(d));
      if (reg_class(d) == RegClass::Pred) {
        std::string id = b_.reg(RegClass::Pred), nv = b_.reg(RegClass::Pred), x = b_.reg(RegClass::Pred);
        b_.ins("setp.ne.u32", {id, ident, "0"});
        b_.ins("and.pred", {x, valid, v});
        b_.ins("not.pred", {nv, valid});
        b_.ins("and.pred", {nv, nv, id});
        b_.ins("or.pred", {w, x, nv});
      } else {
        RegClass rc = reg_class(d);
        b_.ins(rc == RegClass::B64 ? "selp.b64" : rc == RegClass::B16 ? "selp.b16" : "selp.b32", {w, v, ident, valid});
      }
      v = w;
      if (arg) {
        std::string i2 = b_.reg(RegClass::B32);  // copies never win a tie
        b_.ins("selp.b32", {i2, index, "2147483647", valid});
        index = i2;
      }
    }
    parts[o].emplace_back(v, index);
  }
  for (size_t o = 0; o < parts.size(); ++o)
    if (!parts[o].empty()) std::tie(acc[o], idx[o]) = combine_tree(c, d, parts[o]);
  // 2. Across the lanes along the axis: butterfly.
  if (p >= 0) {
    int64_t lane_stride = ls.lane_stride(p);
    for (int64_t m = 1; m < ls.lanes_along(p); m *= 2) {
      for (int64_t o = 0; o < nout; ++o) {
        std::string other = shuffle_xor(acc[size_t(o)], d, m * lane_stride);
        std::string oi = arg ? shuffle_xor(idx[size_t(o)], DType::I32, m * lane_stride) : "";
        // Combine in index order, so that ties keep the lower half's element first.
        combine(c, d, acc[size_t(o)], idx[size_t(o)], other, oi, acc[size_t(o)], idx[size_t(o)]);
      }
    }
  }
  // 3. Across the warps along the axis: through shared memory; each thread reads every
  // warp's partial result and combines them as a tree.
  if (p >= 0 && ls.warps_along(p) > 1) {
    int64_t wpc = ls.warps_along(p);
    int64_t warp_stride = ls.warp_stride(p);
    int64_t m = std::max<int64_t>(1, dst->type.tile.numel());
    int esz = reg_class(d) == RegClass::B64 ? 8 : 4;
    const ThreadCoords& td = cx_.coords(ld);
    // Linear index of this thread's first output element (row-major over the result shape).
    std::vector<int64_t> rm(size_t(ld.rank()), 1);
    for (int k = ld.rank() - 2; k >= 0; --k) rm[size_t(k)] = rm[size_t(k + 1)] * ld.shape[size_t(k + 1)];
    std::string lin = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {lin, "0"});
    for (int k = 0; k < ld.rank(); ++k) b_.ins("mad.lo.u32", {lin, td.base[size_t(k)], u32(rm[size_t(k)]), lin});
    std::string wc = b_.reg(RegClass::B32);
    b_.ins("shr.u32", {wc, cx_.tid_, "5"});
    b_.ins("shr.u32", {wc, wc, u32(int64_t(std::log2(double(warp_stride))))});
    b_.ins("and.b32", {wc, wc, u32(wpc - 1)});
    std::string base = b_.reg(RegClass::B32), mine = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {base, cx_.smem_});
    b_.ins("mad.lo.u32", {mine, wc, u32(m), lin});
    // Values: [wpc][m] of esz bytes; argmax/argmin indices after them: [wpc][m] of 4 bytes.
    std::string ibase = b_.reg(RegClass::B32);
    b_.ins("add.u32", {ibase, base, u32(wpc * m * esz)});
    std::string vaddr = b_.reg(RegClass::B32), iaddr = b_.reg(RegClass::B32), rbase = b_.reg(RegClass::B32);
    std::string ribase = b_.reg(RegClass::B32);
    b_.ins("mad.lo.u32", {vaddr, mine, u32(esz), base});
    b_.ins("mad.lo.u32", {iaddr, mine, "4", ibase});
    b_.ins("mad.lo.u32", {rbase, lin, u32(esz), base});
    b_.ins("mad.lo.u32", {ribase, lin, "4", ibase});
    RegClass rc = reg_class(d);
    std::string st = rc == RegClass::B64 ? "st.shared.b64" : "st.shared.b32";
    std::string ldi = rc == RegClass::B64 ? "ld.shared.b64" : "ld.shared.b32";
    for (int64_t o = 0; o < nout; ++o) {
      std::vector<int64_t> off = ld.rank() ? ld.reg_offset(o) : std::vector<int64_t>{};
      int64_t lo = 0;
      for (int k = 0; k < ld.rank(); ++k) lo += off[size_t(k)] * rm[size_t(k)];
      std::string v = acc[size_t(o)];
      if (rc == RegClass::Pred) {
        std::string w = b_.reg(RegClass::B32);
        b_.ins("selp.b32", {w, "1", "0", v});
        v = w;
      } else if (rc == RegClass::B16) {
        std::string w = b_.reg(RegClass::B32);
        b_.ins("cvt.u32.u16", {w, v});
        v = w;
      }
      b_.ins(st, {fmt::format("[{}+{}]", vaddr, lo * esz), v});
      if (arg) b_.ins("st.shared.b32", {fmt::format("[{}+{}]", iaddr, lo * 4), idx[size_t(o)]});
    }
    cx_.cta_barrier();
    for (int64_t o = 0; o < nout; ++o) {
      std::vector<int64_t> off = ld.rank() ? ld.reg_offset(o) : std::vector<int64_t>{};
      int64_t lo = 0;
      for (int k = 0; k < ld.rank(); ++k) lo += off[size_t(k)] * rm[size_t(k)];
      std::vector<std::pair<std::string, std::string>> partials;
      for (int64_t w = 0; w < wpc; ++w) {
        std::string v = b_.reg(rc == RegClass::B64 ? RegClass::B64 : RegClass::B32);
        b_.ins(ldi, {v, fmt::format("[{}+{}]", rbase, (w * m + lo) * esz)});
        if (rc == RegClass::Pred) {
          std::string q = b_.reg(RegClass::Pred);
          b_.ins("setp.ne.u32", {q, v, "0"});
          v = q;
        } else if (rc == RegClass::B16) {
          std::string h = b_.reg(RegClass::B16);
          b_.ins("cvt.u16.u32", {h, v});
          v = h;
        }
        std::string iv;
        if (arg) {
          iv = b_.reg(RegClass::B32);
          b_.ins("ld.shared.b32", {iv, fmt::format("[{}+{}]", ribase, (w * m + lo) * 4)});
        }
        partials.emplace_back(v, iv);
      }
      std::tie(acc[size_t(o)], idx[size_t(o)]) = combine_tree(c, d, partials);
    }
    cx_.cta_barrier();
  }
  cx_.regs_[dst] = arg ? idx : acc;
}

}  // namespace tilec::codegen
