// Elementwise ops, casts (language.md §6.8), and shape changes between layouts.
// f16/bf16 compute in f32 and round after every op (§6.7); narrow integers live sign- or
// zero-extended in 32-bit registers and are re-wrapped after arithmetic.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "codegen/ptx/emitter.h"

namespace tilec::codegen {
namespace {

bool is_half(DType d) { return d == DType::F16 || d == DType::BF16; }

// The PTX type suffix arithmetic on `d` uses (after widening narrow integers).
std::string arith(DType d) {
  if (is_float(d) || d == DType::TF32) return dtype_bits(d) == 64 ? "f64" : "f32";
  if (dtype_bits(d) == 64) return is_unsigned_int(d) ? "u64" : "s64";
  return is_unsigned_int(d) ? "u32" : "s32";
}

std::string bits_type(RegClass c) {
  switch (c) {
    case RegClass::B16: return "b16";
    case RegClass::B32: return "b32";
    case RegClass::B64: return "b64";
    default: return "pred";
  }
}

}  // namespace

void Emitter::wrap_narrow(const std::string& r, DType d) {
  switch (d) {
    case DType::I8: b_.ins("bfe.s32", {r, r, "0", "8"}); break;
    case DType::I16: b_.ins("bfe.s32", {r, r, "0", "16"}); break;
    case DType::U8: b_.ins("and.b32", {r, r, "255"}); break;
    case DType::U16: b_.ins("and.b32", {r, r, "65535"}); break;
    default: break;
  }
}

std::string Emitter::to_f32(const std::string& r, DType d) {
  if (d == DType::F32 || d == DType::TF32) return r;
  if (d == DType::F16) {
    std::string f = b_.reg(RegClass::B32);
    b_.ins("cvt.f32.f16", {f, r});
    return f;
  }
  if (d == DType::BF16) {
    // bf16 is the top half of an f32: widening is exact. Built as the word {0, r}, which
    // ptxas turns into one PRMT of the packed pair the value was loaded in (a shift and a
    // zero-extension cost two instructions for the upper element of the pair).
    std::string z = b_.reg(RegClass::B16), f = b_.reg(RegClass::B32);
    b_.ins("mov.b16", {z, "0"});
    b_.ins("mov.b32", {f, "{" + z + ", " + r + "}"});
    return f;
  }
  return cast_reg(r, d, DType::F32);
}

std::string Emitter::from_f32(const std::string& r, DType d) {
  if (d == DType::F32) return r;
  std::string h = b_.reg(RegClass::B16);
  if (d == DType::F16) b_.ins("cvt.rn.f16.f32", {h, r});
  else if (d == DType::BF16) b_.ins("cvt.rn.bf16.f32", {h, r});
  else return cast_reg(r, DType::F32, d);
  return h;
}

void Emitter::constant(const ir::Op& op) {
  std::string r = define(op.results[0])[0];
  DType d = op.dtype;
  RegClass c = reg_class(d);
  if (c == RegClass::Pred) {
    b_.ins("setp.ne.u32", {r, op.value.i ? "1" : "0", "0"});
    return;
  }
  b_.ins("mov." + bits_type(c), {r, imm(d, op.value)});
}

std::string Emitter::float_binary_f32(ir::OpKind k, const std::string& a, const std::string& b, bool f64) {
  using ir::OpKind;
  std::string t = f64 ? "f64" : "f32";
  RegClass c = f64 ? RegClass::B64 : RegClass::B32;
  std::string d = b_.reg(c);
  std::string rn = o_.fmad ? "" : ".rn";
  switch (k) {
    case OpKind::Add: b_.ins("add" + rn + "." + t, {d, a, b}); break;
    case OpKind::Sub: b_.ins("sub" + rn + "." + t, {d, a, b}); break;
    case OpKind::Mul: b_.ins("mul" + rn + "." + t, {d, a, b}); break;
    case OpKind::Div:
      if (!f64 && o_.fast_math) b_.ins("div.approx.f32", {d, a, b});
      else b_.ins("div.rn." + t, {d, a, b});
      break;
    case OpKind::FloorDiv:
      // Python float //: floor(a / b)
      b_.ins("div.rn." + t, {d, a, b});
      b_.ins("cvt.rmi." + t + "." + t, {d, d});
      break;
    case OpKind::Mod: {
      // Python float %: a - floor(a / b) * b (takes the divisor's sign)
      std::string q = b_.reg(c);
      b_.ins("div.rn." + t, {q, a, b});
      b_.ins("cvt.rmi." + t + "." + t, {q, q});
      b_.ins("mul.rn." + t, {q, q, b});
      b_.ins("sub.rn." + t, {d, a, q});
      break;
    }
    case OpKind::Min:
    case OpKind::Max: {
      const char* name = k == OpKind::Min ? "min" : "max";
      if (!f64) {
        // min/max propagate NaN (§6.5): PTX's .NaN form (sm_80+).
        b_.ins(std::string(name) + ".NaN.f32", {d, a, b});
      } else {
        std::string nan = b_.reg(RegClass::Pred);
        b_.ins(std::string(name) + ".f64", {d, a, b});
        b_.ins("setp.nan.f64", {nan, a, b});
        std::string sum = b_.reg(c);
        b_.ins("add.f64", {sum, a, b});  // NaN when either is NaN
        b_.ins("selp.b64", {d, sum, d, nan});
      }
      break;
    }
    case OpKind::Pow:
      if (f64) {
        error(SourceRange{}, "f64 pow is not yet supported by the code generator");
        return d;
      }
      return pow_f32(a, b, o_.fast_math);
    default: error(SourceRange{}, std::string("internal compiler error: float op ") + ir::op_name(k)); break;
  }
  return d;
}

std::string Emitter::binary_reg(ir::OpKind k, DType d, const std::string& a, const std::string& b) {
  using ir::OpKind;
  if (is_half(d)) return from_f32(float_binary_f32(k, to_f32(a, d), to_f32(b, d), false), d);
  if (is_float(d)) return float_binary_f32(k, a, b, d == DType::F64);
  RegClass c = reg_class(d);
  std::string r = b_.reg(c);
  if (d == DType::Bool) {
    switch (k) {
      case OpKind::And:
      case OpKind::Min: b_.ins("and.pred", {r, a, b}); break;
      case OpKind::Or:
      case OpKind::Max: b_.ins("or.pred", {r, a, b}); break;
      case OpKind::Xor: b_.ins("xor.pred", {r, a, b}); break;
      default: error(SourceRange{}, std::string("internal compiler error: bool op ") + ir::op_name(k)); break;
    }
    return r;
  }
  std::string t = arith(d), bt = bits_type(c);
  bool wide = dtype_bits(d) == 64;
  switch (k) {
    case OpKind::Add: b_.ins("add." + t, {r, a, b}); break;
    case OpKind::Sub: b_.ins("sub." + t, {r, a, b}); break;
    case OpKind::Mul: b_.ins("mul.lo." + t, {r, a, b}); break;
    case OpKind::And: b_.ins("and." + bt, {r, a, b}); break;
    case OpKind::Or: b_.ins("or." + bt, {r, a, b}); break;
    case OpKind::Xor: b_.ins("xor." + bt, {r, a, b}); break;
    case OpKind::Min: b_.ins("min." + t, {r, a, b}); break;
    case OpKind::Max: b_.ins("max." + t, {r, a, b}); break;
    case OpKind::FloorDiv:
    case OpKind::Mod: {
      // Python // and %: truncating division, then one step toward -inf when the remainder
      // is non-zero and its sign differs from the divisor's (§6.4).
      std::string q = b_.reg(c), m = b_.reg(c);
      b_.ins("div." + t, {q, a, b});
      b_.ins("rem." + t, {m, a, b});
      if (is_signed_int(d)) {
        std::string nz = b_.reg(RegClass::Pred), neg = b_.reg(RegClass::Pred), x = b_.reg(c);
        b_.ins("setp.ne." + t, {nz, m, "0"});
        b_.ins("xor." + bt, {x, m, b});
        b_.ins("setp.lt." + t, {neg, x, "0"});
        b_.ins("and.pred", {nz, nz, neg});
        if (k == OpKind::FloorDiv) b_.ins_if(nz, "sub." + t, {q, q, "1"});
        else b_.ins_if(nz, "add." + t, {m, m, b});
      }
      b_.ins("mov." + bt, {r, k == OpKind::FloorDiv ? q : m});
      break;
    }
    case OpKind::Shl:
    case OpKind::Shr: {
      // Counts are clamped to [0, width] (§6.4); PTX clamps counts above the width itself.
      std::string n = b;
      if (is_signed_int(d)) {
        n = b_.reg(c);
        b_.ins("max." + t, {n, b, "0"});
      }
      std::string n32 = n;
      if (wide) {
        std::string clamped = b_.reg(RegClass::B64);
        b_.ins("min.u64", {clamped, n, "64"});
        n32 = b_.reg(RegClass::B32);
        b_.ins("cvt.u32.u64", {n32, clamped});
      }
      if (k == OpKind::Shl) b_.ins("shl." + bt, {r, a, n32});
      else b_.ins("shr." + t, {r, a, n32});
      break;
    }
    case OpKind::Pow: error(SourceRange{}, "integer ** of a run-time base is not yet supported by the code generator: multiply (x * x), or compute in a float dtype"); break;
    default: error(SourceRange{}, std::string("internal compiler error: integer op ") + ir::op_name(k)); break;
  }
  if (k == OpKind::Add || k == OpKind::Sub || k == OpKind::Mul || k == OpKind::Shl) wrap_narrow(r, d);
  return r;
}

void Emitter::binary(const ir::Op& op) {
  DType d = op.operands[0]->type.tile.dtype;
  const auto& a = regs(op.operands[0]);
  const auto& b = regs(op.operands[1]);
  std::vector<std::string> out;
  for (size_t i = 0; i < a.size(); ++i) out.push_back(binary_reg(op.kind, d, a[i], b[i]));
  regs_[op.results[0]] = out;
}

void Emitter::unary(const ir::Op& op) {
  using ir::OpKind;
  DType d = op.operands[0]->type.tile.dtype;
  const auto& a = regs(op.operands[0]);
  std::vector<std::string> out;
  for (const std::string& x : a) {
    RegClass c = reg_class(d);
    std::string r = b_.reg(op.kind == OpKind::IsNan ? RegClass::Pred : c);
    switch (op.kind) {
      case OpKind::Neg:
        if (is_half(d)) b_.ins("xor.b16", {r, x, "0x8000"});
        else b_.ins("neg." + arith(d), {r, x});
        wrap_narrow(r, d);
        break;
      case OpKind::Not:
        if (d == DType::Bool) b_.ins("not.pred", {r, x});
        else b_.ins("not." + bits_type(c), {r, x});
        if (is_unsigned_int(d)) wrap_narrow(r, d);
        break;
      case OpKind::Abs:
        if (is_half(d)) b_.ins("and.b16", {r, x, "0x7FFF"});
        else if (is_unsigned_int(d)) r = x;
        else b_.ins("abs." + arith(d), {r, x});
        wrap_narrow(r, d);
        break;
      case OpKind::Floor:
      case OpKind::Ceil:
        if (!is_float(d)) {
          r = x;
        } else if (is_half(d)) {
          std::string f = to_f32(x, d);
          b_.ins(op.kind == OpKind::Floor ? "cvt.rmi.f32.f32" : "cvt.rpi.f32.f32", {f, f});
          r = from_f32(f, d);
        } else {
          std::string t = arith(d);
          b_.ins((op.kind == OpKind::Floor ? "cvt.rmi." : "cvt.rpi.") + t + "." + t, {r, x});
        }
        break;
      case OpKind::IsNan:
        if (d == DType::F64) b_.ins("testp.notanumber.f64", {r, x});
        else b_.ins("testp.notanumber.f32", {r, to_f32(x, d)});
        break;
      case OpKind::Sqrt:
      case OpKind::Rsqrt:
        if (d == DType::F64) {
          b_.ins("sqrt.rn.f64", {r, x});
          if (op.kind == OpKind::Rsqrt) b_.ins("rcp.rn.f64", {r, r});
          break;
        }
        r = from_f32(math_f32(op.kind, to_f32(x, d), op.approx || o_.fast_math, op.loc), d);
        break;
      default:
        if (d == DType::F64) {
          error(op.loc, std::string("f64 ") + ir::op_name(op.kind) + " is not yet supported by the code generator");
          return;
        }
        r = from_f32(math_f32(op.kind, to_f32(x, d), op.approx || o_.fast_math, op.loc), d);
        break;
    }
    out.push_back(r);
  }
  regs_[op.results[0]] = out;
}

void Emitter::compare(const ir::Op& op) {
  DType d = op.operands[0]->type.tile.dtype;
  const auto& a = regs(op.operands[0]);
  const auto& b = regs(op.operands[1]);
  std::vector<std::string>& out = define(op.results[0]);
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
  const Layout& l = k_.layout(op.operands[0]);
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
      b_.ins(std::string("setp.") + cmp + ".f32", {out[i], to_f32(a[i], d), to_f32(b[i], d)});
    } else {
      b_.ins(std::string("setp.") + cmp + "." + arith(d), {out[i], a[i], b[i]});
    }
  }
}

int64_t Emitter::iota_offset_divisor(const ir::Value* x, const Layout& l) const {
  const ir::Op* d = x->def;
  if (!d || k_.layout(x) != l) return 0;
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
          return std::min(g, facts_.divisor(d->operands[size_t(1 - i)]));
      return 0;
    default: return 0;
  }
}

int64_t Emitter::uniform_run(const ir::Op& op) const {
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
  const Layout& l = k_.layout(x);
  if (l.kind != Layout::Kind::Blocked || l.is_slice() || l.rank() != 1 || !is_integer(x->type.tile.dtype))
    return 1;
  int64_t g = std::min({facts_.divisor(s), int64_t(l.spt(0)), iota_offset_divisor(x, l)});
  // Runs of G within the thread's contiguous elements (spt and G are powers of two).
  return g > 1 && l.spt(0) % g == 0 && l.shape[0] % g == 0 ? g : 1;
}

void Emitter::select(const ir::Op& op) {
  DType d = op.results[0]->type.tile.dtype;
  const auto& c = regs(op.operands[0]);
  const auto& a = regs(op.operands[1]);
  const auto& b = regs(op.operands[2]);
  std::vector<std::string>& out = define(op.results[0]);
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

void Emitter::fma(const ir::Op& op) {
  DType d = op.results[0]->type.tile.dtype;
  const auto& a = regs(op.operands[0]);
  const auto& b = regs(op.operands[1]);
  const auto& c = regs(op.operands[2]);
  std::vector<std::string> out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (d == DType::F64) {
      std::string r = b_.reg(RegClass::B64);
      b_.ins("fma.rn.f64", {r, a[i], b[i], c[i]});
      out.push_back(r);
    } else {
      std::string r = b_.reg(RegClass::B32);
      b_.ins("fma.rn.f32", {r, to_f32(a[i], d), to_f32(b[i], d), to_f32(c[i], d)});
      out.push_back(from_f32(r, d));
    }
  }
  regs_[op.results[0]] = out;
}

std::string Emitter::cast_reg(const std::string& r, DType from, DType to) {
  if (from == to) return r;
  if (from == DType::F8E4M3 || from == DType::F8E5M2 || to == DType::F8E4M3 || to == DType::F8E5M2) {
    error(SourceRange{}, "conversions to and from f8 are not yet supported by the code generator");
    return r;
  }
  RegClass tc = reg_class(to);
  // to bool: x != 0 (NaN is true)
  if (to == DType::Bool) {
    std::string p = b_.reg(RegClass::Pred);
    if (is_float(from) || from == DType::TF32) {
      if (from == DType::F64) b_.ins("setp.neu.f64", {p, r, imm(DType::F64, Scalar{0, 0})});
      else b_.ins("setp.neu.f32", {p, to_f32(r, from), f32_imm(0)});
    } else {
      b_.ins("setp.ne." + arith(from), {p, r, "0"});
    }
    return p;
  }
  // from bool: 1 or 0 of the target dtype
  if (from == DType::Bool) {
    std::string d = b_.reg(tc);
    b_.ins("selp." + bits_type(tc), {d, imm(to, Scalar{1, 1.0}), imm(to, Scalar{0, 0.0}), r});
    return d;
  }
  bool from_f = is_float(from) || from == DType::TF32, to_f = is_float(to) || to == DType::TF32;
  if (!from_f && !to_f) {
    // integer → integer: sign/zero-extend or truncate, then wrap to the target width.
    int fb = dtype_bits(from) == 64 ? 64 : 32, tb = dtype_bits(to) == 64 ? 64 : 32;
    std::string d = r;
    if (fb != tb) {
      d = b_.reg(tc);
      if (tb == 64) b_.ins(is_signed_int(from) ? "cvt.s64.s32" : "cvt.u64.u32", {d, r});
      else b_.ins("cvt.u32.u64", {d, r});
    }
    if (dtype_bits(to) < 32) {
      std::string w = b_.reg(tc);
      b_.ins("mov.b32", {w, d});
      wrap_narrow(w, to);
      d = w;
    }
    return d;
  }
  if (!from_f && to_f) {
    // integer → float: round to nearest even (bf16/tf32 through f32).
    std::string src = arith(from);
    if (to == DType::F64 || to == DType::F32 || to == DType::F16) {
      std::string d = b_.reg(tc);
      b_.ins(fmt::format("cvt.rn.{}.{}", to == DType::F64 ? "f64" : to == DType::F32 ? "f32" : "f16", src), {d, r});
      return d;
    }
    std::string f = b_.reg(RegClass::B32);
    b_.ins("cvt.rn.f32." + src, {f, r});
    return cast_reg(f, DType::F32, to);
  }
  if (from_f && !to_f) {
    // float → integer: truncate toward zero, saturate, NaN → 0 (§6.8), checked explicitly
    // because cvt.rzi does not guarantee it for 64-bit destinations or f64 sources.
    bool f64 = from == DType::F64;
    std::string x = f64 ? r : to_f32(r, from);
    std::string ft = f64 ? "f64" : "f32";
    int wb = dtype_bits(to) == 64 ? 64 : 32;
    bool sgn = is_signed_int(to);
    std::string it = fmt::format("{}{}", sgn ? "s" : "u", wb);
    RegClass wc = wb == 64 ? RegClass::B64 : RegClass::B32;
    std::string d = b_.reg(wc);
    b_.ins("cvt.rzi." + it + "." + ft, {d, x});
    std::string nan = b_.reg(RegClass::Pred), hi = b_.reg(RegClass::Pred), lo = b_.reg(RegClass::Pred);
    auto fimm = [&](double v) { return f64 ? imm(DType::F64, Scalar{0, v}) : f32_imm(float(v)); };
    double top = sgn ? std::ldexp(1.0, wb - 1) : std::ldexp(1.0, wb);
    std::string bt = wb == 64 ? "b64" : "b32";
    std::string maxv = sgn ? (wb == 64 ? "9223372036854775807" : "2147483647") : (wb == 64 ? "-1" : "4294967295");
    std::string minv = sgn ? (wb == 64 ? "-9223372036854775808" : "-2147483648") : "0";
    b_.ins("setp.ge." + ft, {hi, x, fimm(top)});
    b_.ins_if(hi, "mov." + bt, {d, maxv});
    b_.ins("setp.lt." + ft, {lo, x, fimm(sgn ? -top : 0.0)});
    b_.ins_if(lo, "mov." + bt, {d, minv});
    b_.ins("testp.notanumber." + ft, {nan, x});
    b_.ins_if(nan, "mov." + bt, {d, "0"});
    if (dtype_bits(to) < 32) {
      // saturate to the narrow range
      int64_t tmax = sgn ? (int64_t(1) << (dtype_bits(to) - 1)) - 1 : (int64_t(1) << dtype_bits(to)) - 1;
      b_.ins(sgn ? "min.s32" : "min.u32", {d, d, std::to_string(tmax)});
      if (sgn) b_.ins("max.s32", {d, d, std::to_string(-tmax - 1)});
    }
    return d;
  }
  // float → float
  if (from == DType::TF32) return cast_reg(r, DType::F32, to);
  if (to == DType::TF32) {
    // round to nearest, ties away from zero (cvt.rna, §6.8)
    std::string f = from == DType::F64 ? cast_reg(r, DType::F64, DType::F32) : to_f32(r, from);
    std::string d = b_.reg(RegClass::B32);
    b_.ins("cvt.rna.tf32.f32", {d, f});
    return d;
  }
  if (from == DType::F64) {
    std::string d = b_.reg(tc);
    if (to == DType::F32) b_.ins("cvt.rn.f32.f64", {d, r});
    else if (to == DType::F16) b_.ins("cvt.rn.f16.f64", {d, r});
    else return from_f32(cast_reg(r, DType::F64, DType::F32), to);  // bf16: through f32
    return d;
  }
  if (to == DType::F64) {
    std::string d = b_.reg(RegClass::B64);
    b_.ins("cvt.f64.f32", {d, to_f32(r, from)});
    return d;
  }
  return from_f32(to_f32(r, from), to);
}

void Emitter::cast(const ir::Op& op) {
  DType from = op.operands[0]->type.tile.dtype, to = op.dtype;
  std::vector<std::string> out;
  for (const std::string& r : regs(op.operands[0])) out.push_back(cast_reg(r, from, to));
  regs_[op.results[0]] = out;
}

void Emitter::bitcast(const ir::Op& op) {
  DType from = op.operands[0]->type.tile.dtype, to = op.dtype;
  std::vector<std::string> out;
  for (const std::string& r : regs(op.operands[0])) {
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
      wrap_narrow(d, to);
    }
    out.push_back(d);
  }
  regs_[op.results[0]] = out;
}

void Emitter::iota(const ir::Op& op) {
  const Layout& l = k_.layout(op.results[0]);
  const ThreadCoords& tc = coords(l);
  std::vector<std::string> out;
  for (int64_t r = 0; r < l.regs_per_thread(); ++r) {
    std::string c = b_.reg(RegClass::B32);
    b_.ins("add.u32", {c, tc.base[0], u32(l.reg_offset(r)[0])});
    out.push_back(cast_reg(c, DType::U32, op.dtype));
  }
  regs_[op.results[0]] = out;
}

namespace {

// Row-major strides of a shape.
std::vector<int64_t> row_major(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d) s[size_t(d)] = s[size_t(d + 1)] * shape[size_t(d + 1)];
  return s;
}

}  // namespace

std::vector<int64_t> conversion_source_strides(const ir::Op& op) {
  // A permute that moves the last dimension reads shared memory down columns: one word of
  // padding per row keeps those reads free of bank conflicts (32 banks of 4 bytes).
  std::vector<int64_t> shape = op.operands[0]->type.tile.shape;
  bool pad = op.kind == ir::OpKind::Permute && !shape.empty() && op.order.back() != int64_t(shape.size()) - 1;
  if (pad) shape.back() += 1;
  return row_major(shape);
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
      coeff = row_major(dst);
      break;
  }
  return coeff;
}

void Emitter::convert_layout(const ir::Op& op) {
  const ir::Value* src = op.operands[0];
  const ir::Value* dst = op.results[0];
  const std::vector<std::string>& in = regs(src);
  if (src->type.is_scalar()) {
    // A scalar is in every thread: each register of the result is the same register.
    regs_[dst] = std::vector<std::string>(size_t(k_.layout(dst).regs_per_thread()), in[0]);
    return;
  }
  const Layout& ls = k_.layout(src);
  const Layout& ld = k_.layout(dst);
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
  std::vector<int64_t> map(size_t(ld.regs_per_thread()), -1);
  bool local = true;
  for (int t = 0; t < k_.threads() && local; ++t) {
    std::map<int64_t, int64_t> held;
    for (int64_t r = 0; r < ls.regs_per_thread(); ++r) held.emplace(src_index(ls.coords(t, r)), r);
    for (int64_t r = 0; r < ld.regs_per_thread() && local; ++r) {
      auto it = held.find(dst_index(ld.coords(t, r)));
      if (it == held.end() || (map[size_t(r)] >= 0 && map[size_t(r)] != it->second)) local = false;
      else map[size_t(r)] = it->second;
    }
  }
  if (local) {
    std::vector<std::string> out;
    for (int64_t m : map) out.push_back(in[size_t(m)]);
    regs_[dst] = out;
    return;
  }
  // Through shared memory: every thread writes what it holds, then reads what it needs.
  DType dt = src->type.tile.dtype;
  RegClass c = reg_class(dt);
  int esz = c == RegClass::B64 ? 8 : 4;
  std::string st = c == RegClass::B64 ? "st.shared.b64" : c == RegClass::B16 ? "st.shared.b16" : "st.shared.b32";
  std::string ldi = c == RegClass::B64 ? "ld.shared.b64" : c == RegClass::B16 ? "ld.shared.b16" : "ld.shared.b32";
  std::string base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {base, smem_});
  const ThreadCoords& ts = coords(ls);
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
  cta_barrier();
  const ThreadCoords& td = coords(ld);
  std::string dlin = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {dlin, "0"});
  for (int d = 0; d < ld.rank(); ++d)
    if (coeff[size_t(d)]) b_.ins("mad.lo.u32", {dlin, td.base[size_t(d)], u32(coeff[size_t(d)]), dlin});
  std::string daddr = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {daddr, dlin, u32(esz), base});
  std::vector<std::string>& out = define(dst);
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
  cta_barrier();
}

}  // namespace tilec::codegen
