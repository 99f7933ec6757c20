// The elementwise operators of the reference interpreter (numerics.h), one scalar at a time:
// integers wrap at their width, shifts clamp (§5.4, §8.4), // and % follow Python (§8.4),
// min/max propagate NaN (§8.5), floats round to their dtype after every op (§8.7).
#include <cmath>
#include <limits>

#include "ir/interp/numerics.h"

namespace tilec::interp {
namespace {

using ir::OpKind;

bool is_floating(DType t) { return is_float(t) || is_restricted(t); }

// Integer power by squaring on the 64-bit pattern, wrapped by the caller. A negative
// exponent gives the exact result truncated toward zero (§5.1): 0 except for bases ±1; 0 as
// the base is unspecified (we give 0).
int64_t int_pow(int64_t base, int64_t exp, bool is_unsigned, bool& unspecified) {
  if (!is_unsigned && exp < 0) {
    if (base == 0) unspecified = true;
    return base == 1 ? 1 : base == -1 ? ((exp & 1) ? -1 : 1) : 0;
  }
  uint64_t r = 1, b = uint64_t(base), e = uint64_t(exp);
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return int64_t(r);
}

int compare(DType t, const Scalar& a, const Scalar& b) {
  if (is_unsigned_int(t)) return uint64_t(a.i) < uint64_t(b.i) ? -1 : uint64_t(a.i) > uint64_t(b.i);
  return a.i < b.i ? -1 : a.i > b.i;
}

bool holds(tilec::Op pred, int c) {
  switch (pred) {
    case tilec::Op::Lt: return c < 0;
    case tilec::Op::Le: return c <= 0;
    case tilec::Op::Gt: return c > 0;
    case tilec::Op::Ge: return c >= 0;
    case tilec::Op::Eq: return c == 0;
    default: return c != 0;  // Ne
  }
}

Scalar float_binary(OpKind op, DType t, double x, double y, tilec::Op pred) {
  Scalar r;
  // For operands of f16/bf16/f32 the double result of + - * / is exact or rounded once to 53
  // bits, and 53 >= 2p + 2 makes the second rounding to the dtype the correctly rounded
  // result (Figueroa's double-rounding theorem), as the GPU's single f32 operation gives.
  auto round = [&](long double v) { return round_to(v, t); };
  switch (op) {
    case OpKind::Add: r.f = round(x + y); break;
    case OpKind::Sub: r.f = round(x - y); break;
    case OpKind::Mul: r.f = round(x * y); break;
    case OpKind::Div: r.f = round(x / y); break;
    // §8.4: floor(a/b) and a - floor(a/b)*b, each operation rounded to the dtype (§8.7).
    case OpKind::FloorDiv: r.f = round(std::floor(round(x / y))); break;
    case OpKind::Mod: {
      double q = std::floor(round(x / y));
      r.f = y == 0 ? NAN : round(x - round(q * y));
      break;
    }
    case OpKind::Pow: r.f = round(double(float(std::pow(x, y)))); break;  // computed in f32 (§7.7)
    case OpKind::Min: r.f = std::isnan(x) || std::isnan(y) ? NAN : (y < x ? y : x); break;
    case OpKind::Max: r.f = std::isnan(x) || std::isnan(y) ? NAN : (y > x ? y : x); break;
    case OpKind::Cmp:
      r.i = std::isnan(x) || std::isnan(y) ? pred == tilec::Op::Ne : holds(pred, x < y ? -1 : x > y ? 1 : 0);
      break;
    default: break;
  }
  return r;
}

}  // namespace

Scalar binary(OpKind op, DType t, const Scalar& a, const Scalar& b, tilec::Op pred, bool& unspecified) {
  if (is_floating(t)) return float_binary(op, t, a.f, b.f, pred);
  Scalar r;
  bool is_unsigned = is_unsigned_int(t) || t == DType::Bool;
  uint64_t ux = uint64_t(a.i), uy = uint64_t(b.i);
  int bits = dtype_bits(t);
  int64_t v = 0;
  switch (op) {
    case OpKind::Add: v = int64_t(ux + uy); break;
    case OpKind::Sub: v = int64_t(ux - uy); break;
    case OpKind::Mul: v = int64_t(ux * uy); break;
    case OpKind::FloorDiv:
    case OpKind::Mod:
      if (b.i == 0) {
        unspecified = true;
        break;
      }
      if (is_unsigned) {
        v = int64_t(op == OpKind::FloorDiv ? ux / uy : ux % uy);
      } else if (b.i == -1) {
        v = op == OpKind::FloorDiv ? int64_t(0 - ux) : 0;  // INT_MIN // -1 wraps (§8.4)
      } else {
        int64_t q = a.i / b.i, m = a.i % b.i;
        if (m != 0 && ((m < 0) != (b.i < 0))) {  // floor, remainder with the divisor's sign
          --q;
          m += b.i;
        }
        v = op == OpKind::FloorDiv ? q : m;
      }
      break;
    case OpKind::Pow: v = int_pow(a.i, b.i, is_unsigned, unspecified); break;
    case OpKind::And: v = int64_t(ux & uy); break;
    case OpKind::Or: v = int64_t(ux | uy); break;
    case OpKind::Xor: v = int64_t(ux ^ uy); break;
    case OpKind::Shl:
    case OpKind::Shr: {
      // §5.4: the count is clamped to [0, width]: a negative (signed) count shifts by 0.
      uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
      uint64_t count = !is_unsigned && b.i < 0 ? 0 : std::min<uint64_t>(uy & mask, uint64_t(bits));
      if (op == OpKind::Shl) v = count >= 64 ? 0 : int64_t(ux << count);
      else if (is_unsigned) v = count >= 64 ? 0 : int64_t((ux & mask) >> count);
      else v = count >= 64 ? (a.i < 0 ? -1 : 0) : (a.i >> count);
      break;
    }
    case OpKind::Min: v = compare(t, a, b) <= 0 ? a.i : b.i; break;
    case OpKind::Max: v = compare(t, a, b) >= 0 ? a.i : b.i; break;
    case OpKind::Cmp: r.i = holds(pred, compare(t, a, b)); return r;
    default: break;
  }
  r.i = wrap(v, t);
  return r;
}

Scalar unary(OpKind op, DType t, const Scalar& a) {
  Scalar r;
  if (op == OpKind::IsNan) {
    r.i = is_floating(t) && std::isnan(a.f);
    return r;
  }
  if (is_floating(t)) {
    switch (op) {
      case OpKind::Neg: r.f = -a.f; break;
      case OpKind::Abs: r.f = std::fabs(a.f); break;
      case OpKind::Floor: r.f = std::floor(a.f); break;
      case OpKind::Ceil: r.f = std::ceil(a.f); break;
      default: r.f = a.f; break;
    }
    return r;
  }
  switch (op) {
    case OpKind::Neg: r.i = wrap(int64_t(0 - uint64_t(a.i)), t); break;
    case OpKind::Not: r.i = t == DType::Bool ? !a.i : wrap(~a.i, t); break;
    case OpKind::Abs: r.i = is_signed_int(t) && a.i < 0 ? wrap(int64_t(0 - uint64_t(a.i)), t) : a.i; break;
    default: r.i = a.i; break;  // floor, ceil of integers: unchanged (§7.7)
  }
  return r;
}

Scalar math(MathFunction f, DType t, const Scalar& a) {
  double x = a.f, v = 0;
  switch (f) {
    case MathFunction::Exp: v = std::exp(x); break;
    case MathFunction::Exp2: v = std::exp2(x); break;
    case MathFunction::Log: v = std::log(x); break;
    case MathFunction::Log2: v = std::log2(x); break;
    case MathFunction::Sqrt: v = std::sqrt(x); break;
    case MathFunction::Rsqrt: v = 1.0 / std::sqrt(x); break;
    case MathFunction::Sin: v = std::sin(x); break;
    case MathFunction::Cos: v = std::cos(x); break;
    case MathFunction::Tanh: v = std::tanh(x); break;
    case MathFunction::Sigmoid: v = 1.0 / (1.0 + std::exp(-x)); break;
    case MathFunction::Erf: v = std::erf(x); break;
  }
  Scalar r;
  // sqrt of f32 is correctly rounded (§7.7): one rounding from double, as for + - * /.
  r.f = t == DType::F64 ? v : round_to(double(float(v)), t);
  return r;
}

Scalar fma(DType t, const Scalar& a, const Scalar& b, const Scalar& c) {
  Scalar r;
  if (t == DType::F64) r.f = std::fma(a.f, b.f, c.f);
  else r.f = round_to(double(std::fmaf(float(a.f), float(b.f), float(c.f))), t);  // f16/bf16: f32 fma, rounded
  return r;
}

}  // namespace tilec::interp
