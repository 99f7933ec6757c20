// f32 math functions (language.md §6.9). By default they are accurate to a few ulp: range
// reduction around PTX approximations or polynomials (Cody & Waite reductions; the logf and
// sinf/cosf kernels of Cephes/musl; the erff of Arm's optimized-routines); with approximations
// allowed (--fast-math or approx=True) they use the PTX .approx instructions directly.
// docs/language.md lists the error bounds, and tests/gpu checks them.
#include "codegen/ptx/math.h"

#include <cmath>

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

constexpr double kLog2e = 1.4426950408889634;
constexpr double kLn2 = 0.6931471805599453;
// ln 2 split for Cody-Waite reduction: hi has 8 trailing zero bits so j*hi is exact.
constexpr float kLn2Hi = 0.693145751953125f;
constexpr float kLn2Lo = 1.428606765330187e-06f;
// pi/2 split in three f32 parts for the sin/cos reduction (used with fma).
constexpr float kPio2_1 = 1.57079637050628662109375f;
constexpr float kPio2_2 = -4.371139000186241e-08f;
constexpr float kPio2_3 = -1.7151245100059376e-15f;

}  // namespace

std::string MathEmitter::poly(const std::string& x, const std::vector<double>& c) {
  // Horner: c[0] + x*(c[1] + x*(c[2] + ...)), with fma.
  std::string acc = b_.reg(RegClass::B32);
  b_.ins("mov.b32", {acc, f32_imm(float(c.back()))});
  for (size_t i = c.size() - 1; i-- > 0;) b_.ins("fma.rn.f32", {acc, acc, x, f32_imm(float(c[i]))});
  return acc;
}

std::string MathEmitter::exp2_f32(const std::string& x, bool approx) {
  // ex2.approx.f32 is within 2 ulp over the whole range (PTX ISA, ex2). Its subnormal results
  // cost ptxas three more instructions per call (a scale before MUFU.EX2 and a square after);
  // approx (--fast-math) flushes them to zero instead, as flash attention's exp2 does.
  std::string r = b_.reg(RegClass::B32);
  b_.ins(approx ? "ex2.approx.ftz.f32" : "ex2.approx.f32", {r, x});
  return r;
}

std::string MathEmitter::exp_f32(const std::string& x, bool approx) {
  std::string r = b_.reg(RegClass::B32);
  if (approx) {
    b_.ins("mul.f32", {r, x, f32_imm(float(kLog2e))});
    b_.ins("ex2.approx.ftz.f32", {r, r});
    return r;
  }
  // e^x = 2^j * e^f with j = rint(x / ln2) and f = x - j ln2 (|f| <= ln2/2), computed with
  // the two-part ln 2 so that f is exact; 2^j is applied in two halves to stay in range.
  std::string j = b_.reg(RegClass::B32), f = b_.reg(RegClass::B32), e = b_.reg(RegClass::B32);
  // Past these bounds e^x is 0 or inf anyway; clamping keeps inf - inf out of the reduction.
  std::string xc = b_.reg(RegClass::B32);
  b_.ins("max.f32", {xc, x, f32_imm(-110.f)});
  b_.ins("min.f32", {xc, xc, f32_imm(100.f)});
  b_.ins("mul.f32", {j, xc, f32_imm(float(kLog2e))});
  b_.ins("cvt.rni.f32.f32", {j, j});
  b_.ins("fma.rn.f32", {f, j, f32_imm(-kLn2Hi), xc});
  b_.ins("fma.rn.f32", {f, j, f32_imm(-kLn2Lo), f});
  b_.ins("mul.f32", {f, f, f32_imm(float(kLog2e))});
  b_.ins("ex2.approx.f32", {e, f});
  // 2^j in two halves, each a normal f32 (j is in [-159, 145]).
  std::string ji = b_.reg(RegClass::B32), j1 = b_.reg(RegClass::B32), j2 = b_.reg(RegClass::B32);
  b_.ins("cvt.rzi.s32.f32", {ji, j});
  b_.ins("shr.s32", {j1, ji, "1"});
  b_.ins("sub.s32", {j2, ji, j1});
  for (const std::string& h : {j1, j2}) {
    std::string bits = b_.reg(RegClass::B32);
    b_.ins("add.s32", {bits, h, "127"});
    b_.ins("shl.b32", {bits, bits, "23"});
    b_.ins("mul.f32", {e, e, bits});
  }
  // NaN stays NaN (the clamps above would turn it into a number).
  std::string nan = b_.reg(RegClass::Pred);
  b_.ins("testp.notanumber.f32", {nan, x});
  b_.ins("selp.b32", {r, x, e, nan});
  return r;
}

std::string MathEmitter::log2_f32(const std::string& x, bool approx) {
  std::string r = b_.reg(RegClass::B32);
  if (approx) {
    b_.ins("lg2.approx.ftz.f32", {r, x});
    return r;
  }
  // log(x) = k ln2 + log(m), x = 2^k m with m in [sqrt(2)/2, sqrt(2)); log(1+f) from
  // s = f/(2+f) and the Cephes/musl logf polynomial; then log2 = log * log2(e).
  std::string xs = b_.reg(RegClass::B32), bits = b_.reg(RegClass::B32), k = b_.reg(RegClass::B32);
  std::string sub = b_.reg(RegClass::Pred);
  // Subnormals: scale by 2^23 first.
  b_.ins("setp.lt.f32", {sub, x, f32_imm(1.17549435e-38f)});
  b_.ins("mul.f32", {xs, x, f32_imm(8388608.f)});
  b_.ins("selp.b32", {xs, xs, x, sub});
  b_.ins("mov.b32", {bits, xs});
  // k = exponent, adjusted so that m lands in [sqrt(2)/2, sqrt(2)): add 0x3f800000-0x3f3504f3.
  std::string ix = b_.reg(RegClass::B32), kf = b_.reg(RegClass::B32), m = b_.reg(RegClass::B32);
  b_.ins("add.s32", {ix, bits, u32(0x3f800000 - 0x3f3504f3)});
  b_.ins("shr.s32", {k, ix, "23"});
  b_.ins("sub.s32", {k, k, "127"});
  std::string adj = b_.reg(RegClass::B32);
  b_.ins("selp.s32", {adj, "-23", "0", sub});
  b_.ins("add.s32", {k, k, adj});
  b_.ins("and.b32", {ix, ix, "0x007fffff"});
  b_.ins("add.s32", {ix, ix, "0x3f3504f3"});
  b_.ins("mov.b32", {m, ix});
  b_.ins("cvt.rn.f32.s32", {kf, k});
  std::string f = b_.reg(RegClass::B32), s = b_.reg(RegClass::B32), z = b_.reg(RegClass::B32), w = b_.reg(RegClass::B32);
  b_.ins("sub.f32", {f, m, f32_imm(1.f)});
  std::string den = b_.reg(RegClass::B32);
  b_.ins("add.f32", {den, f, f32_imm(2.f)});
  b_.ins("div.rn.f32", {s, f, den});
  b_.ins("mul.f32", {z, s, s});
  b_.ins("mul.f32", {w, z, z});
  std::string t1 = poly(w, {0.40000972152f, 0.24279078841f});  // Lg2 + w*Lg4
  std::string t2 = poly(w, {0.66666662693f, 0.28498786688f});  // Lg1 + w*Lg3
  b_.ins("mul.f32", {t1, t1, w});
  b_.ins("mul.f32", {t2, t2, z});
  std::string R = b_.reg(RegClass::B32), hfsq = b_.reg(RegClass::B32), lg = b_.reg(RegClass::B32);
  b_.ins("add.f32", {R, t1, t2});
  b_.ins("mul.f32", {hfsq, f, f});
  b_.ins("mul.f32", {hfsq, hfsq, f32_imm(0.5f)});
  // log(1+f) = f - hfsq + s*(hfsq + R)
  b_.ins("add.f32", {lg, hfsq, R});
  b_.ins("mul.f32", {lg, lg, s});
  b_.ins("sub.f32", {lg, lg, hfsq});
  b_.ins("add.f32", {lg, lg, f});
  // log2(x) = k + log(1+f) * log2(e)
  b_.ins("fma.rn.f32", {r, lg, f32_imm(float(kLog2e)), kf});
  // Special values: x < 0 or NaN → NaN, 0 → -inf, +inf → +inf.
  std::string p = b_.reg(RegClass::Pred);
  b_.ins("setp.eq.f32", {p, x, f32_imm(0.f)});
  b_.ins("selp.b32", {r, "0fFF800000", r, p});
  b_.ins("setp.eq.f32", {p, x, "0f7F800000"});
  b_.ins("selp.b32", {r, "0f7F800000", r, p});
  b_.ins("setp.ltu.f32", {p, x, f32_imm(0.f)});  // negative or NaN
  b_.ins("selp.b32", {r, "0f7FFFFFFF", r, p});
  return r;
}

std::string MathEmitter::tanh_f32(const std::string& x, bool approx) {
  std::string r = b_.reg(RegClass::B32);
  if (approx) {
    b_.ins("tanh.approx.f32", {r, x});
    return r;
  }
  // |x| < 0.55: the odd Taylor series through x^17 (< 1 ulp there);
  // otherwise 1 - 2/(e^{2|x|} + 1) with the accurate exp, and the sign of x.
  std::string ax = b_.reg(RegClass::B32), z = b_.reg(RegClass::B32), small = b_.reg(RegClass::Pred);
  b_.ins("abs.f32", {ax, x});
  b_.ins("mul.f32", {z, x, x});
  std::string p = poly(z, {-1.0 / 3, 2.0 / 15, -17.0 / 315, 62.0 / 2835, -1382.0 / 155925, 21844.0 / 6081075,
                           -929569.0 / 638512875, 6404582.0 / 10854718875});
  std::string xz = b_.reg(RegClass::B32), s = b_.reg(RegClass::B32);
  b_.ins("mul.f32", {xz, x, z});
  b_.ins("fma.rn.f32", {s, xz, p, x});
  std::string two = b_.reg(RegClass::B32);
  b_.ins("add.f32", {two, ax, ax});
  std::string e = exp_f32(two, false);
  std::string big = b_.reg(RegClass::B32);
  b_.ins("add.f32", {e, e, f32_imm(1.f)});
  b_.ins("div.rn.f32", {big, f32_imm(2.f), e});
  b_.ins("sub.f32", {big, f32_imm(1.f), big});
  b_.ins("copysign.f32", {big, x, big});
  b_.ins("setp.lt.f32", {small, ax, f32_imm(0.55f)});
  b_.ins("selp.b32", {r, s, big, small});
  return r;
}

std::string MathEmitter::erf_f32(const std::string& x, bool approx) {
  // The two-piece form of Arm's optimized-routines erff (math/erff.c, erff_data.c; MIT; the same
  // split as CUDA's erff): x + x A(x^2) for |x| < 0.875, with A the minimax polynomial of
  // (erf(x) - x) / x on [0, 0.921875]; 1 - e^-(|x| + |x| B(|x|)) with the sign of x for
  // 0.875 <= |x| < 4, B minimax on [0.921875, 4]; +-1 from 4 on (erf(4) rounds to 1 in f32).
  // Both pieces are computed and one is selected, so the warp does not diverge. Measured bounds:
  // docs/language.md §7.7.
  std::string ax = b_.reg(RegClass::B32), x2 = b_.reg(RegClass::B32);
  b_.ins("abs.f32", {ax, x});
  b_.ins("mul.rn.f32", {x2, x, x});
  std::string a = poly(x2, {0x1.06eba6p-3, -0x1.8126e0p-2, 0x1.ce1a46p-4, -0x1.b68bd2p-6, 0x1.473f48p-8,
                            -0x1.3a1a82p-11});
  std::string small = b_.reg(RegClass::B32);
  b_.ins("fma.rn.f32", {small, a, x, x});
  std::string bp = poly(ax, {0x1.079d0cp-3, 0x1.450aa0p-1, 0x1.b55cb0p-4, -0x1.8d6300p-6, 0x1.fd1336p-9,
                             -0x1.91d2ccp-12, 0x1.222900p-16});
  std::string t = b_.reg(RegClass::B32);
  b_.ins("fma.rn.f32", {t, bp, ax, ax});
  b_.ins("neg.f32", {t, t});
  std::string e = exp_f32(t, approx);
  std::string big = b_.reg(RegClass::B32);
  b_.ins("sub.rn.f32", {big, f32_imm(1.f), e});
  b_.ins("copysign.f32", {big, x, big});
  std::string one = b_.reg(RegClass::B32);
  b_.ins("copysign.f32", {one, x, f32_imm(1.f)});
  std::string r = b_.reg(RegClass::B32);
  std::string p = b_.reg(RegClass::Pred);
  b_.ins("setp.lt.f32", {p, ax, f32_imm(0.875f)});
  b_.ins("selp.b32", {r, small, big, p});
  // NaN compares false on both tests and goes through the second piece, which keeps it NaN.
  b_.ins("setp.ge.f32", {p, ax, f32_imm(4.f)});
  b_.ins("selp.b32", {r, one, r, p});
  return r;
}

std::string MathEmitter::sincos_f32(const std::string& x, bool cosine, bool approx) {
  std::string r = b_.reg(RegClass::B32);
  if (approx) {
    b_.ins(cosine ? "cos.approx.f32" : "sin.approx.f32", {r, x});
    return r;
  }
  // q = rint(x * 2/pi); y = x - q*pi/2 in three fma steps (exact enough for |x| < 2^17);
  // sin/cos of y from the Cephes sinf/cosf polynomials, chosen and signed by the quadrant.
  std::string q = b_.reg(RegClass::B32), y = b_.reg(RegClass::B32), z = b_.reg(RegClass::B32);
  b_.ins("mul.f32", {q, x, f32_imm(float(2 / M_PI))});
  b_.ins("cvt.rni.f32.f32", {q, q});
  b_.ins("fma.rn.f32", {y, q, f32_imm(-kPio2_1), x});
  b_.ins("fma.rn.f32", {y, q, f32_imm(-kPio2_2), y});
  b_.ins("fma.rn.f32", {y, q, f32_imm(-kPio2_3), y});
  b_.ins("mul.f32", {z, y, y});
  std::string sp = poly(z, {-1.6666654611e-1, 8.3321608736e-3, -1.9515295891e-4});
  std::string sn = b_.reg(RegClass::B32), yz = b_.reg(RegClass::B32);
  b_.ins("mul.f32", {yz, y, z});
  b_.ins("fma.rn.f32", {sn, yz, sp, y});  // y + y^3 * P(y^2)
  std::string cp = poly(z, {4.166664568298827e-2, -1.388731625493765e-3, 2.443315711809948e-5});
  std::string cs = b_.reg(RegClass::B32), z2 = b_.reg(RegClass::B32);
  b_.ins("mul.f32", {z2, z, z});
  b_.ins("fma.rn.f32", {cs, z, f32_imm(-0.5f), f32_imm(1.f)});
  b_.ins("fma.rn.f32", {cs, z2, cp, cs});  // 1 - y^2/2 + y^4 * Q(y^2)
  // quadrant n = q mod 4 (plus 1 for cos): bit 0 picks cos, bit 1 flips the sign.
  std::string n = b_.reg(RegClass::B32), odd = b_.reg(RegClass::Pred), neg = b_.reg(RegClass::Pred);
  b_.ins("cvt.rzi.s32.f32", {n, q});
  if (cosine) b_.ins("add.s32", {n, n, "1"});
  std::string bit = b_.reg(RegClass::B32);
  b_.ins("and.b32", {bit, n, "1"});
  b_.ins("setp.ne.u32", {odd, bit, "0"});
  b_.ins("and.b32", {bit, n, "2"});
  b_.ins("setp.ne.u32", {neg, bit, "0"});
  b_.ins("selp.b32", {r, cs, sn, odd});
  std::string negr = b_.reg(RegClass::B32);
  b_.ins("neg.f32", {negr, r});
  b_.ins("selp.b32", {r, negr, r, neg});
  return r;
}

std::string MathEmitter::pow_f32(const std::string& x, const std::string& y, bool approx) {
  // x^y = 2^(y log2|x|), with the sign of x for odd integer y; NaN for x < 0 and non-integer y;
  // x^0 = 1 and 1^y = 1 (C99 pow).
  std::string ax = b_.reg(RegClass::B32);
  b_.ins("abs.f32", {ax, x});
  std::string l = log2_f32(ax, approx);
  std::string t = b_.reg(RegClass::B32);
  b_.ins("mul.f32", {t, y, l});
  std::string r = exp2_f32(t, approx);
  std::string yi = b_.reg(RegClass::B32), isint = b_.reg(RegClass::Pred), neg = b_.reg(RegClass::Pred);
  b_.ins("cvt.rzi.f32.f32", {yi, y});
  b_.ins("setp.eq.f32", {isint, yi, y});
  b_.ins("setp.lt.f32", {neg, x, f32_imm(0.f)});
  // odd: y/2 is not an integer
  std::string half = b_.reg(RegClass::B32), hi = b_.reg(RegClass::B32), odd = b_.reg(RegClass::Pred);
  b_.ins("mul.f32", {half, y, f32_imm(0.5f)});
  b_.ins("cvt.rzi.f32.f32", {hi, half});
  b_.ins("setp.ne.f32", {odd, hi, half});
  std::string flip = b_.reg(RegClass::Pred), bad = b_.reg(RegClass::Pred), ni = b_.reg(RegClass::Pred);
  b_.ins("and.pred", {flip, neg, odd});
  b_.ins("and.pred", {flip, flip, isint});
  std::string nr = b_.reg(RegClass::B32);
  b_.ins("neg.f32", {nr, r});
  b_.ins("selp.b32", {r, nr, r, flip});
  b_.ins("not.pred", {ni, isint});
  b_.ins("and.pred", {bad, neg, ni});
  b_.ins("selp.b32", {r, "0f7FFFFFFF", r, bad});
  std::string one = b_.reg(RegClass::Pred);
  b_.ins("setp.eq.f32", {one, y, f32_imm(0.f)});
  b_.ins("selp.b32", {r, f32_imm(1.f), r, one});
  b_.ins("setp.eq.f32", {one, x, f32_imm(1.f)});
  b_.ins("selp.b32", {r, f32_imm(1.f), r, one});
  return r;
}

std::string MathEmitter::math_f32(MathFunction f, const std::string& x, bool approx) {
  std::string r;
  switch (f) {
    case MathFunction::Exp: return exp_f32(x, approx);
    case MathFunction::Exp2: return exp2_f32(x, approx);
    case MathFunction::Log2: return log2_f32(x, approx);
    case MathFunction::Log: {
      std::string l = log2_f32(x, approx);
      r = b_.reg(RegClass::B32);
      b_.ins("mul.f32", {r, l, f32_imm(float(kLn2))});
      return r;
    }
    case MathFunction::Sqrt:
      r = b_.reg(RegClass::B32);
      b_.ins(approx ? "sqrt.approx.f32" : "sqrt.rn.f32", {r, x});
      return r;
    case MathFunction::Rsqrt:
      r = b_.reg(RegClass::B32);
      if (approx) {
        b_.ins("rsqrt.approx.f32", {r, x});
      } else {
        b_.ins("sqrt.rn.f32", {r, x});
        b_.ins("rcp.rn.f32", {r, r});
      }
      return r;
    case MathFunction::Tanh: return tanh_f32(x, approx);
    case MathFunction::Sin: return sincos_f32(x, false, approx);
    case MathFunction::Cos: return sincos_f32(x, true, approx);
    case MathFunction::Sigmoid: {
      // 1 / (1 + e^-x). The approximate reciprocal flushes subnormal results (.ftz): its input
      // is at least 1, so only results below 2^-126 (x < -87.3) change, to 0, and it is one
      // MUFU.RCP instead of five instructions (the plain rcp.approx.f32 scales inputs above
      // 2^126 around it). samples/silu_gate.tile ran 3-4 % faster with it on the H200.
      std::string n = b_.reg(RegClass::B32);
      b_.ins("neg.f32", {n, x});
      std::string e = exp_f32(n, approx);
      b_.ins("add.f32", {e, e, f32_imm(1.f)});
      r = b_.reg(RegClass::B32);
      b_.ins(approx ? "rcp.approx.ftz.f32" : "rcp.rn.f32", {r, e});
      return r;
    }
    case MathFunction::Erf: return erf_f32(x, approx);
  }
  return x;  // not reached: the switch names every function (-Werror=switch)
}

}  // namespace tilec::codegen
