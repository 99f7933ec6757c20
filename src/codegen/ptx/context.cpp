// The emitter's shared context (context.h): registers of values, immediates, thread
// coordinates of layouts, diagnostics, and the loop counter both pipelines count with.
#include "codegen/ptx/context.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "basic/consteval.h"

namespace tilec::codegen {

RegClass reg_class(DType d) {
  if (d == DType::Bool) return RegClass::Pred;
  if (d == DType::F16 || d == DType::BF16) return RegClass::B16;
  if (dtype_bits(d) == 64) return RegClass::B64;
  return RegClass::B32;
}

std::string f32_imm(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return fmt::format("0f{:08X}", bits);
}

std::string imm(DType d, Scalar s) {
  switch (d) {
    case DType::F32:
    case DType::TF32: return f32_imm(float(s.f));
    case DType::F64: {
      uint64_t bits;
      std::memcpy(&bits, &s.f, 8);
      return fmt::format("0d{:016X}", bits);
    }
    case DType::F16: return fmt::format("0x{:04X}", f32_to_f16_bits(float(s.f)));
    case DType::BF16: return fmt::format("0x{:04X}", f32_to_bf16_bits(float(s.f)));
    case DType::U64: return std::to_string(uint64_t(s.i));
    case DType::U32:
    case DType::U16:
    case DType::U8: return std::to_string(uint64_t(s.i) & 0xffffffffu);
    default: return std::to_string(s.i);
  }
}

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d) s[size_t(d)] = s[size_t(d + 1)] * shape[size_t(d + 1)];
  return s;
}

EmitContext::EmitContext(const LoweredKernel& k, const EmitOptions& o, DiagnosticEngine& diag)
    : k_(k),
      o_(o),
      facts_(k, o.vectorized),
      vector_bytes_(o.vectorized ? k.vector_bytes : kNoVectors),
      windows_(k.windows),
      diag_(diag) {
  ir::walk(k.fn->body, [&](ir::Op& op) {
    for (const ir::Value* v : op.operands) ++use_count_[v];
    has_mma_ = has_mma_ || op.kind == ir::OpKind::Mma;
  });
}

void EmitContext::error(const SourceRange& r, const std::string& msg) {
  // Helpers that lower one element know no source range: the op being lowered has one.
  if (!failed_) diag_.error(r.valid() ? r : op_loc_, msg);
  failed_ = true;
}

void EmitContext::error_needs_sm89(const SourceRange& r, const std::string& what) {
  error(r, what + " needs sm_89 or newer, and this code is for " + o_.target.arch +
               " (without -arch, or with -arch sm_90, tilec builds sm_80 beside sm_90a): give -arch sm_89 or newer, "
               "such as -arch sm_90a");
}

std::vector<std::string>& EmitContext::define(const ir::Value* v) {
  std::vector<std::string>& out = regs_[v];
  out.clear();
  int64_t n = v->type.is_scalar() ? 1 : k_.layout(v).regs_per_thread();
  RegClass c = reg_class(v->type.tile.dtype);
  for (int64_t i = 0; i < n; ++i) out.push_back(b_.reg(c));
  return out;
}

std::string EmitContext::primary_copy(const ir::Value* v) {
  if (!v->type.is_scalar()) return coords(k_.layout(v)).primary;
  std::string p = b_.reg(RegClass::Pred);
  b_.ins("setp.eq.u32", {p, tid_, "0"});
  return p;
}

void EmitContext::and_into(std::string& acc, const std::string& p) {
  if (p.empty()) return;
  if (acc.empty()) {
    acc = p;
    return;
  }
  std::string both = b_.reg(RegClass::Pred);
  b_.ins("and.pred", {both, acc, p});
  acc = both;
}

void EmitContext::divide64(const std::string& q, const std::string& a, const std::string& b, bool is_signed) {
  auto in_reg = [&](const std::string& v) {
    if (!v.empty() && v[0] == '%') return v;
    std::string r = b_.reg(RegClass::B64);
    b_.ins("mov.b64", {r, v});
    return r;
  };
  std::string ra = in_reg(a), rb = in_reg(b);
  std::string hi = b_.reg(RegClass::B64), wide = b_.reg(RegClass::Pred);
  std::string slow = b_.label_name("div64"), done = b_.label_name("div64_done");
  b_.ins("or.b64", {hi, ra, rb});
  b_.ins("shr.u64", {hi, hi, is_signed ? "31" : "32"});
  b_.ins("setp.ne.u64", {wide, hi, "0"});
  b_.ins_if(wide, "bra", {slow});
  std::string a32 = b_.reg(RegClass::B32), b32 = b_.reg(RegClass::B32), q32 = b_.reg(RegClass::B32);
  b_.ins("cvt.u32.u64", {a32, ra});
  b_.ins("cvt.u32.u64", {b32, rb});
  b_.ins("div.u32", {q32, a32, b32});
  b_.ins("cvt.u64.u32", {q, q32});
  b_.ins("bra", {done});
  b_.label(slow);
  b_.ins(is_signed ? "div.s64" : "div.u64", {q, ra, rb});
  b_.label(done);
}

std::string EmitContext::all_of(const std::vector<std::string>& preds) {
  std::string out;
  for (const std::string& q : preds) and_into(out, q);
  return out;
}

const std::string& EmitContext::zero() {
  if (zero_.empty()) {
    zero_ = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {zero_, "0"});
  }
  return zero_;
}

const EmitContext::ThreadCoords& EmitContext::coords(const Layout& l) {
  for (auto& [layout, tc] : coords_)
    if (layout == l) return tc;
  if (l.kind == Layout::Kind::Mma) {
    // Warp (wm, wn) = (w / warps_n, w % warps_n); lane l holds row l/4, columns 2*(l%4) + {0,1}.
    // A slice keeps the coordinates of the dimensions it keeps; along a dropped one the
    // first warp and lane are primary (the others hold copies).
    ThreadCoords tc;
    std::string lane = b_.reg(RegClass::B32), warp = b_.reg(RegClass::B32);
    b_.ins("and.b32", {lane, tid_, "31"});
    b_.ins("shr.u32", {warp, tid_, "5"});
    std::vector<std::string> conds;
    if (l.mma_copies > 1) {
      // Warps past the first warps_m * warps_n hold copies; the first ones are primary.
      std::string q = b_.reg(RegClass::Pred);
      b_.ins("setp.lt.u32", {q, warp, u32(l.warps_m * l.warps_n)});
      conds.push_back(q);
      b_.ins("rem.u32", {warp, warp, u32(l.warps_m * l.warps_n)});
    }
    std::string wm = b_.reg(RegClass::B32), wn = b_.reg(RegClass::B32), r = b_.reg(RegClass::B32),
                c = b_.reg(RegClass::B32), q = b_.reg(RegClass::B32);
    const std::vector<int64_t>& ps = l.pshape();
    b_.ins("div.u32", {wm, warp, u32(l.warps_n)});
    b_.ins("rem.u32", {wn, warp, u32(l.warps_n)});
    b_.ins("shr.u32", {q, lane, "2"});
    b_.ins("mad.lo.u32", {r, wm, u32(ps[0] / l.warps_m), q});
    b_.ins("and.b32", {q, lane, "3"});
    b_.ins("shl.b32", {q, q, "1"});
    b_.ins("mad.lo.u32", {c, wn, u32(ps[1] / l.warps_n), q});
    for (int p : l.sliced_dims()) {
      // Dropped rows: lanes l/4 = 0 of warp row 0; dropped columns: lanes l%4 = 0 of warp column 0.
      std::string first = b_.reg(RegClass::Pred);
      b_.ins("setp.eq.u32", {first, p == 0 ? r : c, "0"});
      conds.push_back(first);
    }
    for (int d = 0; d < l.rank(); ++d) {
      int p = l.parent_dim(d);
      tc.base.push_back(p == 0 ? r : p == 1 ? c : zero());
    }
    tc.primary = all_of(conds);
    coords_.push_back({l, tc});
    return coords_.back().second;
  }
  // Per parent dimension (shared by every slice of one parent): the thread's coordinate
  // (lane part + warp part, last dimension fastest, layout.h), and two predicates: it did not
  // wrap around, and it is the first thread along the dimension.
  Layout parent = l.parent();
  auto pit = std::find_if(parents_.begin(), parents_.end(), [&](const ParentCoords& p) { return p.layout == parent; });
  if (pit == parents_.end()) {
    ParentCoords pc;
    pc.layout = parent;
    std::string lane = b_.reg(RegClass::B32), warp = b_.reg(RegClass::B32);
    b_.ins("and.b32", {lane, tid_, "31"});
    b_.ins("shr.u32", {warp, tid_, "5"});
    int64_t lane_stride = 1, warp_stride = 1;
    int rank = parent.rank();
    pc.base.resize(size_t(rank));
    pc.unwrapped.resize(size_t(rank));
    pc.first.resize(size_t(rank));
    for (int p = rank - 1; p >= 0; --p) {
      int tpw = parent.threads_per_warp[size_t(p)], wpc = parent.warps_per_cta[size_t(p)];
      int64_t extent = parent.shape[size_t(p)];
      std::string lc = b_.reg(RegClass::B32), wc = b_.reg(RegClass::B32), t = b_.reg(RegClass::B32);
      b_.ins("shr.u32", {lc, lane, u32(int64_t(std::log2(double(lane_stride))))});
      b_.ins("and.b32", {lc, lc, u32(tpw - 1)});
      b_.ins("shr.u32", {wc, warp, u32(int64_t(std::log2(double(warp_stride))))});
      b_.ins("and.b32", {wc, wc, u32(wpc - 1)});
      b_.ins("mad.lo.u32", {t, wc, u32(tpw), lc});  // thread coordinate along p
      if (tpw * wpc > 1) {
        std::string q = b_.reg(RegClass::Pred);
        b_.ins("setp.eq.u32", {q, t, "0"});
        pc.first[size_t(p)] = q;
      }
      b_.ins("mul.lo.u32", {t, t, u32(parent.size_per_thread[size_t(p)])});
      if (parent.parent_cta_tile(p) > extent) {
        // The tile is smaller than the CTA tile along p: threads past it hold copies.
        std::string q = b_.reg(RegClass::Pred);
        b_.ins("setp.lt.u32", {q, t, u32(extent)});
        pc.unwrapped[size_t(p)] = q;
        b_.ins("and.b32", {t, t, u32(extent - 1)});
      }
      pc.base[size_t(p)] = t;
      lane_stride *= tpw;
      warp_stride *= wpc;
    }
    parents_.push_back(pc);
    pit = std::prev(parents_.end());
  }
  const ParentCoords& pc = *pit;
  ThreadCoords tc;
  std::vector<std::string> conds;
  std::vector<int> sliced = l.sliced_dims();
  for (int p = 0; p < l.parent_rank(); ++p) {
    bool is_sliced = std::find(sliced.begin(), sliced.end(), p) != sliced.end();
    // Threads along a reduced dimension hold copies: the first one is primary.
    if (is_sliced && !pc.first[size_t(p)].empty()) conds.push_back(pc.first[size_t(p)]);
    if (!is_sliced && !pc.unwrapped[size_t(p)].empty()) conds.push_back(pc.unwrapped[size_t(p)]);
  }
  for (int d = 0; d < l.rank(); ++d) {
    int p = l.parent_dim(d);
    if (p >= 0) {
      tc.base.push_back(pc.base[size_t(p)]);
    } else {
      tc.base.push_back(zero());
    }
  }
  tc.primary = all_of(conds);
  coords_.push_back({l, tc});
  return coords_.back().second;
}

EmitContext::LoopCounter EmitContext::loop_counter(const ir::Op& loop) {
  LoopCounter c;
  c.idx = loop.operands[0]->type.tile.dtype;
  c.step = loop.operands[2]->def->value.i;
  c.upper = regs(loop.operands[1])[0];
  bool wide = dtype_bits(c.idx) == 64;
  c.iv_issue = b_.reg(wide ? RegClass::B64 : RegClass::B32);
  b_.ins(wide ? "mov.b64" : "mov.b32", {c.iv_issue, regs(loop.operands[0])[0]});
  return c;
}

}  // namespace tilec::codegen
