// Arithmetic and conversions on single registers, shared by the op families (arith.h):
// f16/bf16 compute in f32 and round after every op (language.md §6.7); narrow integers live
// sign- or zero-extended in 32-bit registers and are re-wrapped after arithmetic; casts follow
// §6.8.
#include "codegen/ptx/arith.h"

#include <cmath>

#include <fmt/format.h>

namespace tilec::codegen {

bool is_half(DType d) { return d == DType::F16 || d == DType::BF16; }

std::string bits_type(RegClass c) {
  switch (c) {
    case RegClass::B16: return "b16";
    case RegClass::B32: return "b32";
    case RegClass::B64: return "b64";
    default: return "pred";
  }
}

void ArithEmitter::wrap_narrow(const std::string& r, DType d) {
  switch (d) {
    case DType::I8: b_.ins("bfe.s32", {r, r, "0", "8"}); break;
    case DType::I16: b_.ins("bfe.s32", {r, r, "0", "16"}); break;
    case DType::U8: b_.ins("and.b32", {r, r, "255"}); break;
    case DType::U16: b_.ins("and.b32", {r, r, "65535"}); break;
    default: break;
  }
}

std::string ArithEmitter::to_f32(const std::string& r, DType d) {
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

std::string ArithEmitter::from_f32(const std::string& r, DType d) {
  if (d == DType::F32) return r;
  std::string h = b_.reg(RegClass::B16);
  if (d == DType::F16) b_.ins("cvt.rn.f16.f32", {h, r});
  else if (d == DType::BF16) b_.ins("cvt.rn.bf16.f32", {h, r});
  else return cast_reg(r, DType::F32, d);
  return h;
}

std::string ArithEmitter::f8_to_f32(const std::string& r, DType d) {
  // cvt.rn.f16x2.e4m3x2 (PTX ISA §9.7.9.21, sm_89): the low byte of the 16-bit operand becomes
  // the low f16 of the result; the high byte is zero (the register holds one zero-extended
  // byte), so the high f16 is +0. The widening is exact (e4m3 and e5m2 are subsets of f16).
  cx_.need_ptx(81);  // ptxas 13.0: 8.1 on sm_89 (7.8 on sm_90)
  std::string h = b_.reg(RegClass::B16), pair = b_.reg(RegClass::B32), lo = b_.reg(RegClass::B16),
              hi = b_.reg(RegClass::B16), f = b_.reg(RegClass::B32);
  b_.ins("cvt.u16.u32", {h, r});
  b_.ins("cvt.rn.f16x2." + ptx_type(d) + "x2", {pair, h});
  b_.ins("mov.b32", {"{" + lo + ", " + hi + "}", pair});
  b_.ins("cvt.f32.f16", {f, lo});
  return f;
}

std::string ArithEmitter::f32_to_f8(const std::string& r, DType d) {
  // cvt.rn.satfinite.e4m3x2.f32 d, a, b puts b's byte low and a's high (PTX ISA §9.7.9.21):
  // a = +0 leaves the high byte zero, so the 32-bit register holds one zero-extended byte as
  // a loaded f8 does. .satfinite (the only form) rounds to nearest even, gives the largest
  // finite value of the sign beyond it (also for infinities, e5m2 too) and NaN for NaN.
  cx_.need_ptx(81);  // ptxas 13.0: 8.1 on sm_89 (7.8 on sm_90)
  std::string zero = b_.reg(RegClass::B32), h = b_.reg(RegClass::B16), out = b_.reg(RegClass::B32);
  b_.ins("mov.b32", {zero, "0"});
  b_.ins("cvt.rn.satfinite." + ptx_type(d) + "x2.f32", {h, zero, r});
  b_.ins("cvt.u32.u16", {out, h});
  return out;
}

std::string ArithEmitter::float_binary_f32(ir::OpKind k, const std::string& a, const std::string& b, bool f64) {
  using ir::OpKind;
  std::string t = f64 ? "f64" : "f32";
  RegClass c = f64 ? RegClass::B64 : RegClass::B32;
  std::string d = b_.reg(c);
  std::string rn = cx_.o_.fmad ? "" : ".rn";
  switch (k) {
    case OpKind::Add: b_.ins("add" + rn + "." + t, {d, a, b}); break;
    case OpKind::Sub: b_.ins("sub" + rn + "." + t, {d, a, b}); break;
    case OpKind::Mul: b_.ins("mul" + rn + "." + t, {d, a, b}); break;
    case OpKind::Div:
      if (!f64 && cx_.o_.fast_math) b_.ins("div.approx.f32", {d, a, b});
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
        cx_.error(SourceRange{}, "f64 pow is not yet supported by the code generator");
        return d;
      }
      return math_.pow_f32(a, b, cx_.o_.fast_math);
    default: cx_.error(SourceRange{}, std::string("internal compiler error: float op ") + ir::op_name(k)); break;
  }
  return d;
}

std::string ArithEmitter::divide_at_launch(ir::OpKind k, DType d, const std::string& a,
                                           const EmitContext::DivisorRegs& div) {
  RegClass c = reg_class(d);
  bool wide = dtype_bits(d) == 64;
  std::string n = a;
  if (wide) {
    n = b_.reg(RegClass::B32);
    b_.ins("cvt.u32.u64", {n, a});
  }
  std::string t = b_.reg(RegClass::B32), u = b_.reg(RegClass::B32), q32 = b_.reg(RegClass::B32);
  b_.ins("mul.hi.u32", {t, n, div.magic});
  b_.ins("sub.u32", {u, n, t});
  b_.ins("shr.u32", {u, u, div.shift1});
  b_.ins("add.u32", {u, u, t});
  b_.ins("shr.u32", {q32, u, div.shift2});  // a shift by 32 gives 0: a divisor >= 2^32
  std::string q = q32;
  if (wide) {
    q = b_.reg(RegClass::B64);
    b_.ins("cvt.u64.u32", {q, q32});
  }
  if (k == ir::OpKind::FloorDiv) return q;
  std::string t2 = ptx_arith_type(d), qd = b_.reg(c), r = b_.reg(c);
  b_.ins("mul.lo." + t2, {qd, q, div.value});
  b_.ins("sub." + t2, {r, a, qd});
  return r;
}

std::string ArithEmitter::binary_reg(ir::OpKind k, DType d, const std::string& a, const std::string& b) {
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
      default: cx_.error(SourceRange{}, std::string("internal compiler error: bool op ") + ir::op_name(k)); break;
    }
    return r;
  }
  std::string t = ptx_arith_type(d), bt = bits_type(c);
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
      // is non-zero and its sign differs from the divisor's (§6.4). The remainder is a - q b
      // (one division, not two; INT_MIN / -1 wraps to q = INT_MIN, m = 0 as before).
      std::string q = b_.reg(c), m = b_.reg(c), qb = b_.reg(c);
      if (!cx_.fast_division()) {
        b_.ins("div." + t, {q, a, b});
        b_.ins("rem." + t, {m, a, b});
      } else {
        if (wide) cx_.divide64(q, a, b, is_signed_int(d));
        else b_.ins("div." + t, {q, a, b});
        b_.ins("mul.lo." + t, {qb, q, b});
        b_.ins("sub." + t, {m, a, qb});
      }
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
    case OpKind::Pow: cx_.error(SourceRange{}, "integer ** of a run-time base is not yet supported by the code generator: multiply (x * x), or compute in a float dtype"); break;
    default: cx_.error(SourceRange{}, std::string("internal compiler error: integer op ") + ir::op_name(k)); break;
  }
  if (k == OpKind::Add || k == OpKind::Sub || k == OpKind::Mul || k == OpKind::Shl) wrap_narrow(r, d);
  return r;
}

std::string ArithEmitter::cast_reg(const std::string& r, DType from, DType to) {
  if (from == to) return r;
  if (is_f8(from) || is_f8(to)) {
    if (!cx_.o_.target.has_f8_convert()) {
      cx_.error_needs_sm89(SourceRange{}, "astype to or from f8");
      return r;
    }
    // Every f8 value is exactly an f16 (and so an f32): from f8, widen exactly and convert
    // on from f32; to f8, reach f32 first (exact from f16, bf16, tf32; f64 and integers
    // round there) and round once.
    if (is_f8(from)) return cast_reg(f8_to_f32(r, from), DType::F32, to);
    return f32_to_f8(cast_reg(r, from, DType::F32), to);
  }
  RegClass tc = reg_class(to);
  // to bool: x != 0 (NaN is true)
  if (to == DType::Bool) {
    std::string p = b_.reg(RegClass::Pred);
    if (is_float(from) || from == DType::TF32) {
      if (from == DType::F64) b_.ins("setp.neu.f64", {p, r, imm(DType::F64, Scalar{0, 0})});
      else b_.ins("setp.neu.f32", {p, to_f32(r, from), f32_imm(0)});
    } else {
      b_.ins("setp.ne." + ptx_arith_type(from), {p, r, "0"});
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
    std::string src = ptx_arith_type(from);
    if (to == DType::F64 || to == DType::F32 || to == DType::F16) {
      std::string d = b_.reg(tc);
      b_.ins(fmt::format("cvt.rn.{}.{}", ptx_type(to), src), {d, r});
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

}  // namespace tilec::codegen
