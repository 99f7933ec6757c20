// Elementwise ops, casts (language.md §6.8), and shape changes between layouts. The per-register
// arithmetic and conversions are arith.cpp's; f32 math functions are math.cpp's.
#include "codegen/ptx/elementwise.h"

#include <algorithm>

#include <fmt/format.h>

namespace tilec::codegen {

void ElementwiseEmitter::constant(const ir::Op& op) {
  std::string r = cx_.define(op.results[0])[0];
  DType d = op.dtype;
  RegClass c = reg_class(d);
  if (c == RegClass::Pred) {
    b_.ins("setp.ne.u32", {r, op.value.i ? "1" : "0", "0"});
    return;
  }
  b_.ins("mov." + bits_type(c), {r, imm(d, op.value)});
}

namespace {

// The value of integer constant `v` (a scalar or a splat of one) when it is a power of two
// 2^k > 0, else 0.
int64_t power_of_two_constant(const ir::Value* v) {
  const ir::Op* d = v->def;
  while (d && d->kind == ir::OpKind::Splat) d = d->operands[0]->def;
  if (!d || d->kind != ir::OpKind::Constant || !is_integer(d->dtype)) return 0;
  int64_t c = d->value.i;
  return c > 0 && (c & (c - 1)) == 0 ? c : 0;
}

}  // namespace

void ElementwiseEmitter::binary(const ir::Op& op) {
  DType d = op.operands[0]->type.tile.dtype;
  const auto& a = cx_.regs(op.operands[0]);
  std::vector<std::string> out;
  if (auto div = cx_.k_.divided_at_launch.find(&op); div != cx_.k_.divided_at_launch.end()) {
    // By a launch divisor (lower.h LaunchDivisor): a magic number from the launch stub; the
    // divisor's own computation is left out (computed_at_launch).
    for (const std::string& x : a)
      out.push_back(arith_.divide_at_launch(op.kind, d, x, cx_.launch_divisors_[size_t(div->second)]));
    cx_.regs_[op.results[0]] = out;
    return;
  }
  const auto& b = cx_.regs(op.operands[1]);
  // Python // and % by a constant 2^k of a 32- or 64-bit integer are exactly an arithmetic
  // (signed) or logical shift right by k and an and with 2^k - 1: one instruction instead of
  // div and rem and their sign fix-up, which ptxas does not reduce for 64-bit operands (it
  // calls a division routine). That matters in memory-bound kernels, whose short CTAs wait for
  // it before their first load (silu_gate's cdiv(D, BN) of an i64 D). Kernels with mma keep
  // the division: it runs beside a long K loop, and with the shift ptxas's allocation of
  // matmul_bias_relu's general variant (255 registers) tipped into a 4-byte spill.
  int64_t pow2 = op.kind == ir::OpKind::FloorDiv || op.kind == ir::OpKind::Mod ? power_of_two_constant(op.operands[1]) : 0;
  if (pow2 && is_integer(d) && dtype_bits(d) >= 32 && !cx_.has_mma()) {
    std::string bt = bits_type(reg_class(d));
    for (const std::string& x : a) {
      std::string r = b_.reg(reg_class(d));
      if (op.kind == ir::OpKind::FloorDiv)
        b_.ins("shr." + ptx_arith_type(d), {r, x, std::to_string(log2_exact(pow2))});
      else
        b_.ins("and." + bt, {r, x, std::to_string(pow2 - 1)});
      out.push_back(r);
    }
    cx_.regs_[op.results[0]] = out;
    return;
  }
  for (size_t i = 0; i < a.size(); ++i) out.push_back(arith_.binary_reg(op.kind, d, a[i], b[i]));
  cx_.regs_[op.results[0]] = out;
}

void ElementwiseEmitter::unary(const ir::Op& op) {
  using ir::OpKind;
  DType d = op.operands[0]->type.tile.dtype;
  const auto& a = cx_.regs(op.operands[0]);
  std::vector<std::string> out;
  for (const std::string& x : a) {
    RegClass c = reg_class(d);
    std::string r = b_.reg(op.kind == OpKind::IsNan ? RegClass::Pred : c);
    switch (op.kind) {
      case OpKind::Neg:
        if (is_half(d)) b_.ins("xor.b16", {r, x, "0x8000"});
        else b_.ins("neg." + ptx_arith_type(d), {r, x});
        arith_.wrap_narrow(r, d);
        break;
      case OpKind::Not:
        if (d == DType::Bool) b_.ins("not.pred", {r, x});
        else b_.ins("not." + bits_type(c), {r, x});
        if (is_unsigned_int(d)) arith_.wrap_narrow(r, d);
        break;
      case OpKind::Abs:
        if (is_half(d)) b_.ins("and.b16", {r, x, "0x7FFF"});
        else if (is_unsigned_int(d)) r = x;
        else b_.ins("abs." + ptx_arith_type(d), {r, x});
        arith_.wrap_narrow(r, d);
        break;
      case OpKind::Floor:
      case OpKind::Ceil:
        if (!is_float(d)) {
          r = x;
        } else if (is_half(d)) {
          std::string f = arith_.to_f32(x, d);
          b_.ins(op.kind == OpKind::Floor ? "cvt.rmi.f32.f32" : "cvt.rpi.f32.f32", {f, f});
          r = arith_.from_f32(f, d);
        } else {
          std::string t = ptx_arith_type(d);
          b_.ins((op.kind == OpKind::Floor ? "cvt.rmi." : "cvt.rpi.") + t + "." + t, {r, x});
        }
        break;
      case OpKind::IsNan:
        if (d == DType::F64) b_.ins("testp.notanumber.f64", {r, x});
        else b_.ins("testp.notanumber.f32", {r, arith_.to_f32(x, d)});
        break;
      case OpKind::Sqrt:
      case OpKind::Rsqrt:
        if (d == DType::F64) {
          b_.ins("sqrt.rn.f64", {r, x});
          if (op.kind == OpKind::Rsqrt) b_.ins("rcp.rn.f64", {r, r});
          break;
        }
        r = arith_.from_f32(math_.math_f32(*ir::math_function(op.kind), arith_.to_f32(x, d), op.approx || cx_.o_.fast_math), d);
        break;
      default: {
        if (d == DType::F64) {
          cx_.error(op.loc, std::string("f64 ") + ir::op_name(op.kind) + " is not yet supported by the code generator");
          return;
        }
        // The math functions of basic/math_functions.h (f16 and bf16 compute in f32).
        std::optional<MathFunction> f = ir::math_function(op.kind);
        TILEC_ASSERT(f.has_value(), std::string("no elementwise lowering for ") + ir::op_name(op.kind));
        r = arith_.from_f32(math_.math_f32(*f, arith_.to_f32(x, d), op.approx || cx_.o_.fast_math), d);
        break;
      }
    }
    out.push_back(r);
  }
  cx_.regs_[op.results[0]] = out;
}

void ElementwiseEmitter::compare(const ir::Op& op) {
  DType d = op.operands[0]->type.tile.dtype;
  const auto& a = cx_.regs(op.operands[0]);
  const auto& b = cx_.regs(op.operands[1]);
  std::vector<std::string>& out = cx_.define(op.results[0]);
  const char* cmp = nullptr;
  bool fl = is_float(d);
  switch (op.pred) {
    case tilec::Op::Lt: cmp = "lt"; break;
    case tilec::Op::Le: cmp = "le"; break;
    case tilec::Op::Gt: cmp = "gt"; break;
    case tilec::Op::Ge: cmp = "ge"; break;
    case tilec::Op::Eq: cmp = "eq"; break;
    default: cmp = fl ? "neu" : "ne"; break;  // NaN != x is true
  }
  int64_t run = uniform_run(op);
  const Layout& l = cx_.k_.layout(op.operands[0]);
  for (size_t i = 0; i < a.size(); ++i) {
    if (run > 1) {
      // The run's first element decides for the whole run.
      int64_t off = l.reg_offset(int64_t(i))[0];
      size_t first = size_t(l.reg_of({off - off % run}));
      if (first != i) {
        b_.ins("mov.pred", {out[i], out[first]});
        continue;
      }
    }
    if (d == DType::Bool) {
      // Compare bools as 0/1 integers.
      std::string x = b_.reg(RegClass::B32), y = b_.reg(RegClass::B32);
      b_.ins("selp.b32", {x, "1", "0", a[i]});
      b_.ins("selp.b32", {y, "1", "0", b[i]});
      b_.ins(std::string("setp.") + cmp + ".u32", {out[i], x, y});
    } else if (is_half(d)) {
      b_.ins(std::string("setp.") + cmp + ".f32", {out[i], arith_.to_f32(a[i], d), arith_.to_f32(b[i], d)});
    } else {
      b_.ins(std::string("setp.") + cmp + "." + ptx_arith_type(d), {out[i], a[i], b[i]});
    }
  }
}

int64_t ElementwiseEmitter::iota_offset_divisor(const ir::Value* x, const Layout& l) const {
  const ir::Op* d = x->def;
  if (!d || cx_.k_.layout(x) != l) return 0;
  switch (d->kind) {
    case ir::OpKind::Iota: return int64_t(1) << 30;
    case ir::OpKind::Cast: {
      // 0 .. n-1 with n < 2^31: the same values in any integer of 32 bits or more.
      const ir::Value* from = d->operands[0];
      bool widened_iota = from->def && from->def->kind == ir::OpKind::Iota && is_integer(d->dtype) &&
                          dtype_bits(d->dtype) >= 32;
      return widened_iota ? iota_offset_divisor(from, l) : 0;
    }
    case ir::OpKind::Add:
      for (int i = 0; i < 2; ++i)
        if (int64_t g = iota_offset_divisor(d->operands[size_t(i)], l))
          return std::min(g, cx_.facts_.divisor(d->operands[size_t(1 - i)]));
      return 0;
    default: return 0;
  }
}

int64_t ElementwiseEmitter::uniform_run(const ir::Op& op) const {
  // With the iota on the left, `<` and `>=`; on the right, the same tests written as `>` and
  // `<=`. For x = iota + c and s both multiples of G, and x0 the first element of x's aligned
  // run of G: x < s exactly when x0 < s (no multiple of G lies strictly between x0 and x).
  int side;
  switch (op.pred) {
    case tilec::Op::Lt: case tilec::Op::Ge: side = 0; break;
    case tilec::Op::Gt: case tilec::Op::Le: side = 1; break;
    default: return 1;
  }
  const ir::Value* x = op.operands[size_t(side)];
  const ir::Value* s = op.operands[size_t(1 - side)];
  const Layout& l = cx_.k_.layout(x);
  if (l.kind != Layout::Kind::Blocked || l.is_slice() || l.rank() != 1 || !is_integer(x->type.tile.dtype))
    return 1;
  int64_t g = std::min({cx_.facts_.divisor(s), int64_t(l.spt(0)), iota_offset_divisor(x, l)});
  // Runs of G within the thread's contiguous elements (spt and G are powers of two).
  return g > 1 && l.spt(0) % g == 0 && l.shape[0] % g == 0 ? g : 1;
}

void ElementwiseEmitter::select(const ir::Op& op) {
  DType d = op.results[0]->type.tile.dtype;
  const auto& c = cx_.regs(op.operands[0]);
  const auto& a = cx_.regs(op.operands[1]);
  const auto& b = cx_.regs(op.operands[2]);
  std::vector<std::string>& out = cx_.define(op.results[0]);
  for (size_t i = 0; i < out.size(); ++i) {
    if (d == DType::Bool) {
      std::string x = b_.reg(RegClass::Pred), nc = b_.reg(RegClass::Pred), y = b_.reg(RegClass::Pred);
      b_.ins("and.pred", {x, c[i], a[i]});
      b_.ins("not.pred", {nc, c[i]});
      b_.ins("and.pred", {y, nc, b[i]});
      b_.ins("or.pred", {out[i], x, y});
    } else {
      b_.ins("selp." + bits_type(reg_class(d)), {out[i], a[i], b[i], c[i]});
    }
  }
}

void ElementwiseEmitter::fma(const ir::Op& op) {
  DType d = op.results[0]->type.tile.dtype;
  const auto& a = cx_.regs(op.operands[0]);
  const auto& b = cx_.regs(op.operands[1]);
  const auto& c = cx_.regs(op.operands[2]);
  std::vector<std::string> out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (d == DType::F64) {
      std::string r = b_.reg(RegClass::B64);
      b_.ins("fma.rn.f64", {r, a[i], b[i], c[i]});
      out.push_back(r);
    } else {
      std::string r = b_.reg(RegClass::B32);
      b_.ins("fma.rn.f32", {r, arith_.to_f32(a[i], d), arith_.to_f32(b[i], d), arith_.to_f32(c[i], d)});
      out.push_back(arith_.from_f32(r, d));
    }
  }
  cx_.regs_[op.results[0]] = out;
}

void ElementwiseEmitter::cast(const ir::Op& op) {
  DType from = op.operands[0]->type.tile.dtype, to = op.dtype;
  std::vector<std::string> out;
  for (const std::string& r : cx_.regs(op.operands[0])) out.push_back(arith_.cast_reg(r, from, to));
  cx_.regs_[op.results[0]] = out;
}

void ElementwiseEmitter::bitcast(const ir::Op& op) {
  DType from = op.operands[0]->type.tile.dtype, to = op.dtype;
  std::vector<std::string> out;
  for (const std::string& r : cx_.regs(op.operands[0])) {
    RegClass fc = reg_class(from), tc = reg_class(to);
    if (fc == tc && dtype_bits(from) >= 32) {
      out.push_back(r);  // same register bits
      continue;
    }
    // 8/16-bit integers live widened in 32 bits: narrow to the raw bits, then widen for the target.
    std::string raw = r;
    if (fc == RegClass::B32 && dtype_bits(from) == 16) {
      raw = b_.reg(RegClass::B16);
      b_.ins("cvt.u16.u32", {raw, r});
    }
    std::string d = raw;
    if (tc == RegClass::B32 && dtype_bits(to) == 16) {
      d = b_.reg(RegClass::B32);
      b_.ins(is_signed_int(to) ? "cvt.s32.s16" : "cvt.u32.u16", {d, raw});
    } else if (tc == RegClass::B32 && dtype_bits(to) == 8) {
      d = b_.reg(RegClass::B32);
      b_.ins("mov.b32", {d, raw});
      arith_.wrap_narrow(d, to);
    }
    out.push_back(d);
  }
  cx_.regs_[op.results[0]] = out;
}

void ElementwiseEmitter::iota(const ir::Op& op) {
  const Layout& l = cx_.k_.layout(op.results[0]);
  const ThreadCoords& tc = cx_.coords(l);
  std::vector<std::string> out;
  for (int64_t r = 0; r < l.regs_per_thread(); ++r) {
    std::string c = b_.reg(RegClass::B32);
    b_.ins("add.u32", {c, tc.base[0], u32(l.reg_offset(r)[0])});
    out.push_back(arith_.cast_reg(c, DType::U32, op.dtype));
  }
  cx_.regs_[op.results[0]] = out;
}

namespace {

std::vector<int64_t> conversion_source_strides(const ir::Op& op) {
  // A permute that moves the last dimension reads shared memory down columns: one word of
  // padding per row keeps those reads free of bank conflicts (32 banks of 4 bytes).
  std::vector<int64_t> shape = op.operands[0]->type.tile.shape;
  bool pad = op.kind == ir::OpKind::Permute && !shape.empty() && op.order.back() != int64_t(shape.size()) - 1;
  if (pad) shape.back() += 1;
  return row_major_strides(shape);
}

std::vector<int64_t> conversion_coefficients(const ir::Op& op) {
  // The source's shared-memory index of destination element c is sum(coeff[d] * c[d]).
  const std::vector<int64_t>& src = op.operands[0]->type.tile.shape;
  const std::vector<int64_t>& dst = op.results[0]->type.tile.shape;
  std::vector<int64_t> ss = conversion_source_strides(op);
  std::vector<int64_t> coeff(dst.size(), 0);
  switch (op.kind) {
    case ir::OpKind::Broadcast:
      for (size_t d = 0; d < dst.size(); ++d) coeff[d] = src[d] == 1 ? 0 : ss[d];
      break;
    case ir::OpKind::Permute:
      for (size_t d = 0; d < dst.size(); ++d) coeff[d] = ss[size_t(op.order[d])];
      break;
    case ir::OpKind::ConvertLayout:
      coeff = ss;
      break;
    default:  // Reshape: the same row-major position
      coeff = row_major_strides(dst);
      break;
  }
  return coeff;
}

}  // namespace

void ElementwiseEmitter::convert_layout(const ir::Op& op) {
  const ir::Value* src = op.operands[0];
  const ir::Value* dst = op.results[0];
  const std::vector<std::string>& in = cx_.regs(src);
  if (src->type.is_scalar()) {
    // A scalar is in every thread: each register of the result is the same register.
    cx_.regs_[dst] = std::vector<std::string>(size_t(cx_.k_.layout(dst).regs_per_thread()), in[0]);
    return;
  }
  const Layout& ls = cx_.k_.layout(src);
  const Layout& ld = cx_.k_.layout(dst);
  std::vector<int64_t> ss = conversion_source_strides(op);
  std::vector<int64_t> coeff = conversion_coefficients(op);
  auto src_index = [&](const std::vector<int64_t>& c) {
    int64_t lin = 0;
    for (size_t d = 0; d < c.size(); ++d) lin += c[d] * ss[d];
    return lin;
  };
  auto dst_index = [&](const std::vector<int64_t>& c) {
    int64_t lin = 0;
    for (size_t d = 0; d < c.size(); ++d) lin += c[d] * coeff[d];
    return lin;
  };
  // Register-local when, for every thread, each destination register's element sits in the same
  // source register number (checked for all threads of the CTA).
  std::vector<int64_t> map;
  if (register_local(ls, ss, ld, coeff, cx_.k_.threads(), &map)) {
    std::vector<std::string> out;
    for (int64_t m : map) out.push_back(in[size_t(m)]);
    cx_.regs_[dst] = out;
    return;
  }
  // Through shared memory: every thread writes what it holds, then reads what it needs.
  DType dt = src->type.tile.dtype;
  RegClass c = reg_class(dt);
  int esz = c == RegClass::B64 ? 8 : 4;
  std::string st = c == RegClass::B64 ? "st.shared.b64" : c == RegClass::B16 ? "st.shared.b16" : "st.shared.b32";
  std::string ldi = c == RegClass::B64 ? "ld.shared.b64" : c == RegClass::B16 ? "ld.shared.b16" : "ld.shared.b32";
  std::string base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {base, cx_.smem_});
  const ThreadCoords& ts = cx_.coords(ls);
  std::string lin = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {lin, "0"});
  for (int d = 0; d < ls.rank(); ++d) b_.ins("mad.lo.u32", {lin, ts.base[size_t(d)], u32(ss[size_t(d)]), lin});
  std::string addr = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {addr, lin, u32(esz), base});
  // Threads holding copies would write the same words again: only the primary ones write.
  bool guard = !ts.primary.empty();
  for (int64_t r = 0; r < ls.regs_per_thread(); ++r) {
    std::string v = in[size_t(r)];
    if (c == RegClass::Pred) {
      std::string w = b_.reg(RegClass::B32);
      b_.ins("selp.b32", {w, "1", "0", v});
      v = w;
    }
    std::string a = fmt::format("[{}+{}]", addr, src_index(ls.reg_offset(r)) * esz);
    if (guard) b_.ins_if(ts.primary, st, {a, v});
    else b_.ins(st, {a, v});
  }
  cx_.cta_barrier();
  const ThreadCoords& td = cx_.coords(ld);
  std::string dlin = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {dlin, "0"});
  for (int d = 0; d < ld.rank(); ++d)
    if (coeff[size_t(d)]) b_.ins("mad.lo.u32", {dlin, td.base[size_t(d)], u32(coeff[size_t(d)]), dlin});
  std::string daddr = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {daddr, dlin, u32(esz), base});
  std::vector<std::string>& out = cx_.define(dst);
  for (int64_t r = 0; r < ld.regs_per_thread(); ++r) {
    std::string target = out[size_t(r)];
    std::string a = fmt::format("[{}+{}]", daddr, dst_index(ld.reg_offset(r)) * esz);
    if (c == RegClass::Pred) {
      std::string w = b_.reg(RegClass::B32);
      b_.ins(ldi, {w, a});
      b_.ins("setp.ne.u32", {target, w, "0"});
    } else {
      b_.ins(ldi, {target, a});
    }
  }
  cx_.cta_barrier();
}

}  // namespace tilec::codegen
