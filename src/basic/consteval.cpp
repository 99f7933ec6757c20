// Constant arithmetic with fixed-width wrap-around and Python floor division.
#include "basic/consteval.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tilec {

int64_t wrap_int(int64_t v, DType t) {
  if (t == DType::Bool) return v != 0;
  int bits = dtype_bits(t);
  if (bits >= 64) return v;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (is_signed_int(t) && (u >> (bits - 1)) & 1) u |= ~mask;
  return int64_t(u);
}

uint16_t f32_to_f16_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t mant = x & 0x7fffff;
  if (exp == 0xff) return uint16_t(sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0));
  int e = int(exp) - 127 + 15;
  if (e >= 31) return uint16_t(sign | 0x7c00);
  if (e <= 0) {
    // Subnormal half (or zero): shift the mantissa with its implicit bit, round to even.
    if (e < -10) return uint16_t(sign);
    mant |= 0x800000;
    int shift = 14 - e;
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;  // may carry into the exponent
  return uint16_t(sign | half);
}

float f16_bits_to_f32(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000 | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400));
      x = sign | uint32_t(127 - 15 - e) << 23 | (mant & 0x3ff) << 13;
    }
  } else {
    x = sign | (exp + 127 - 15) << 23 | mant << 13;
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t f32_to_bf16_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000) return uint16_t((x >> 16) | 0x40);  // quiet NaN
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return uint16_t((x + rounding) >> 16);
}

float bf16_bits_to_f32(uint16_t h) {
  uint32_t x = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

namespace {

// Rounds f32 `f` to tf32 (10 mantissa bits), ties away from zero (PTX cvt.rna.tf32.f32).
float round_tf32(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7f800000) == 0x7f800000) return f;
  x = (x + 0x1000) & 0xffffe000;
  std::memcpy(&f, &x, 4);
  return f;
}

// Rounds to an 8-bit float with `mant` mantissa bits and exponent bias `bias` as the code
// generator does (language.md §7.5; PTX cvt.rn.satfinite): through f32 first, then to nearest
// even, saturating to `max` beyond it (infinities too: e5m2 gets no infinity from a conversion).
double round_f8(double v, int mant, int bias, double max) {
  v = double(float(v));
  if (std::isnan(v)) return v;
  double a = std::fabs(v);
  if (a == 0) return v;
  if (a >= max) return std::copysign(max, v);
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int min_exp = 1 - bias;
  int exp = std::max(e - 1, min_exp);
  double quantum = std::ldexp(1.0, exp - mant);
  double r = std::nearbyint(a / quantum) * quantum;
  if (r > max) r = max;
  return std::copysign(r, v);
}

}  // namespace

double round_float(double v, DType t) {
  switch (t) {
    case DType::F64: return v;
    case DType::F32: return double(float(v));
    case DType::F16: return f16_bits_to_f32(f32_to_f16_bits(float(v)));
    case DType::BF16: return bf16_bits_to_f32(f32_to_bf16_bits(float(v)));
    case DType::TF32: return round_tf32(float(v));
    case DType::F8E4M3: return round_f8(v, 3, 7, 448.0);
    case DType::F8E5M2: return round_f8(v, 2, 15, 57344.0);
    default: return v;
  }
}

namespace {

bool is_floatish(DType t) { return is_float(t) || is_restricted(t); }

// Saturating float → integer conversion toward zero, NaN → 0.
int64_t float_to_int(double f, DType to) {
  if (std::isnan(f)) return 0;
  double t = std::trunc(f);
  if (is_unsigned_int(to)) {
    double max = dtype_bits(to) == 64 ? 18446744073709551615.0 : std::ldexp(1.0, dtype_bits(to)) - 1;
    if (t <= 0) return 0;
    if (t >= max) return dtype_bits(to) == 64 ? int64_t(~uint64_t(0)) : int64_t(max);
    return int64_t(uint64_t(t));
  }
  int bits = dtype_bits(to);
  double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);
  if (t <= lo) return int64_t(std::numeric_limits<int64_t>::min() >> (64 - bits));
  if (t >= hi) return int64_t(std::numeric_limits<int64_t>::max() >> (64 - bits));
  return int64_t(t);
}

double int_to_double(int64_t i, DType from) {
  return is_unsigned_int(from) ? double(uint64_t(i)) : double(i);
}

}  // namespace

Scalar convert_scalar(Scalar s, DType from, DType to) {
  Scalar r;
  if (to == DType::Bool) {
    r.i = is_floatish(from) ? (s.f != 0 || std::isnan(s.f)) : s.i != 0;
    return r;
  }
  if (is_floatish(to)) {
    r.f = round_float(is_floatish(from) ? s.f : int_to_double(s.i, from), to);
    return r;
  }
  r.i = is_floatish(from) ? float_to_int(s.f, to) : wrap_int(s.i, to);
  return r;
}

bool int_fits(Scalar s, DType from, DType to) {
  if (to == DType::Bool) return s.i == 0 || s.i == 1;
  bool neg = is_signed_int(from) && s.i < 0;
  uint64_t mag = uint64_t(s.i);
  int bits = dtype_bits(to);
  if (is_unsigned_int(to)) return !neg && (bits == 64 || mag < (uint64_t(1) << bits));
  if (neg) return bits == 64 || s.i >= -(int64_t(1) << (bits - 1));
  return mag <= (uint64_t(1) << (bits - 1)) - 1;
}

namespace {

// Integer power with wrap-around (exponent >= 0).
int64_t ipow(int64_t base, uint64_t exp, DType t) {
  uint64_t result = 1, b = uint64_t(base);
  while (exp) {
    if (exp & 1) result *= b;
    b *= b;
    exp >>= 1;
  }
  return wrap_int(int64_t(result), t);
}

bool compare(Op op, int c) {
  switch (op) {
    case Op::Lt: return c < 0;
    case Op::Le: return c <= 0;
    case Op::Gt: return c > 0;
    case Op::Ge: return c >= 0;
    case Op::Eq: return c == 0;
    case Op::Ne: return c != 0;
    default: return false;
  }
}

}  // namespace

std::optional<Scalar> fold_binary(Op op, DType t, Scalar a, Scalar b, DType result, std::string& error) {
  Scalar r;
  if (op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge || op == Op::Eq || op == Op::Ne) {
    if (is_floatish(t)) {
      if (std::isnan(a.f) || std::isnan(b.f)) r.i = op == Op::Ne;
      else r.i = compare(op, a.f < b.f ? -1 : a.f > b.f ? 1 : 0);
    } else if (is_unsigned_int(t)) {
      uint64_t x = uint64_t(a.i), y = uint64_t(b.i);
      r.i = compare(op, x < y ? -1 : x > y ? 1 : 0);
    } else {
      r.i = compare(op, a.i < b.i ? -1 : a.i > b.i ? 1 : 0);
    }
    return r;
  }
  if (is_floatish(t)) {
    double x = a.f, y = b.f, v = 0;
    switch (op) {
      case Op::Add: v = x + y; break;
      case Op::Sub: v = x - y; break;
      case Op::Mul: v = x * y; break;
      case Op::Div: v = x / y; break;
      case Op::FloorDiv: v = std::floor(x / y); break;
      case Op::Mod: v = y == 0 ? NAN : x - std::floor(x / y) * y; break;
      case Op::Pow: v = std::pow(x, y); break;
      default: error = std::string("operator ") + op_spelling(op) + " needs integer operands"; return std::nullopt;
    }
    r.f = round_float(v, result);
    return r;
  }
  // Integers and bool: compute on 64-bit patterns, then wrap to the width.
  bool is_unsigned = is_unsigned_int(t);
  uint64_t ux = uint64_t(a.i), uy = uint64_t(b.i);
  int bits = dtype_bits(t);
  int64_t v = 0;
  switch (op) {
    case Op::Add: v = int64_t(ux + uy); break;
    case Op::Sub: v = int64_t(ux - uy); break;
    case Op::Mul: v = int64_t(ux * uy); break;
    case Op::FloorDiv:
    case Op::Mod: {
      if (b.i == 0) {
        error = "integer division by zero in a constant expression";
        return std::nullopt;
      }
      if (is_unsigned) {
        v = int64_t(op == Op::FloorDiv ? ux / uy : ux % uy);
        break;
      }
      if (a.i == std::numeric_limits<int64_t>::min() && b.i == -1) {
        v = op == Op::FloorDiv ? a.i : 0;  // wraps, §6.4
        break;
      }
      int64_t q = a.i / b.i, m = a.i % b.i;
      if (m != 0 && ((m < 0) != (b.i < 0))) {
        --q;
        m += b.i;
      }
      v = op == Op::FloorDiv ? q : m;
      break;
    }
    case Op::Pow:
      if (!is_unsigned && b.i < 0) {
        // §5.1: the exact result truncated toward zero; base 0 is unspecified.
        if (a.i == 0) {
          error = "0 ** a negative exponent is unspecified";
          return std::nullopt;
        }
        v = a.i == 1 ? 1 : a.i == -1 ? ((b.i & 1) ? -1 : 1) : 0;
        break;
      }
      v = ipow(a.i, uint64_t(b.i), t);
      break;
    case Op::BitAnd: v = int64_t(ux & uy); break;
    case Op::BitOr: v = int64_t(ux | uy); break;
    case Op::BitXor: v = int64_t(ux ^ uy); break;
    case Op::Shl:
    case Op::Shr: {
      // Counts are clamped to [0, width] (§6.4): shifting by the width gives 0 (or all sign bits).
      int64_t n = b.i;
      if (!is_unsigned && n < 0) n = 0;
      uint64_t count = uint64_t(n) > uint64_t(bits) ? uint64_t(bits) : uint64_t(n);
      if (op == Op::Shl) v = count >= 64 ? 0 : int64_t(ux << count);
      else if (is_unsigned) v = count >= 64 ? 0 : int64_t((ux & (bits == 64 ? ~0ull : (1ull << bits) - 1)) >> count);
      else v = count >= 64 ? (a.i < 0 ? -1 : 0) : (a.i >> count);
      break;
    }
    default: error = std::string("operator ") + op_spelling(op) + " is not defined here"; return std::nullopt;
  }
  r.i = wrap_int(v, result);
  return r;
}

ExactInt exact_int(Scalar s, DType t) {
  return t == DType::U64 ? ExactInt(uint64_t(s.i)) : ExactInt(s.i);
}

DType exact_int_dtype(ExactInt v) {
  if (v >= INT32_MIN && v <= INT32_MAX) return DType::I32;
  if (v >= INT64_MIN && v <= INT64_MAX) return DType::I64;
  return DType::U64;
}

Scalar exact_int_scalar(ExactInt v) { return Scalar{int64_t(uint64_t(v)), 0}; }

std::optional<ExactInt> fold_exact(Op op, ExactInt a, ExactInt b, std::string& error) {
  const ExactInt lo = INT64_MIN, hi = ExactInt(UINT64_MAX);
  ExactInt v = 0;
  bool overflow = false;
  switch (op) {
    case Op::Lt: return ExactInt(a < b);
    case Op::Le: return ExactInt(a <= b);
    case Op::Gt: return ExactInt(a > b);
    case Op::Ge: return ExactInt(a >= b);
    case Op::Eq: return ExactInt(a == b);
    case Op::Ne: return ExactInt(a != b);
    case Op::Add: v = a + b; break;  // operands are below 2^64: no 128-bit overflow
    case Op::Sub: v = a - b; break;
    case Op::Mul: overflow = __builtin_mul_overflow(a, b, &v); break;
    case Op::FloorDiv:
    case Op::Mod: {
      if (b == 0) {
        error = "integer division by zero in a constant expression";
        return std::nullopt;
      }
      ExactInt q = a / b, m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) {
        --q;
        m += b;
      }
      v = op == Op::FloorDiv ? q : m;
      break;
    }
    case Op::Pow: {
      if (b < 0) {
        error = "negative integer exponent in a constant expression (use a float base)";
        return std::nullopt;
      }
      if (a == 0 || a == 1) {
        v = b == 0 ? 1 : a;
        break;
      }
      if (a == -1) {
        v = (b & 1) ? -1 : 1;
        break;
      }
      v = 1;  // |a| >= 2: at most 64 steps before the range check stops it
      for (ExactInt i = 0; i < b && !overflow; ++i)
        overflow = __builtin_mul_overflow(v, a, &v) || v < lo || v > hi;
      break;
    }
    case Op::BitAnd: v = a & b; break;
    case Op::BitOr: v = a | b; break;
    case Op::BitXor: v = a ^ b; break;
    case Op::Shl:
    case Op::Shr:
      if (b < 0) {
        error = "negative shift count in a constant expression";
        return std::nullopt;
      }
      if (op == Op::Shr) {
        v = b >= 127 ? (a < 0 ? -1 : 0) : a >> int(b);
      } else {
        // |a| < 2^64 and b <= 63 keep |v| < 2^127; from b = 64 on any a other than 0 is out
        // of the 64-bit range (a * 2^64 would overflow the 128-bit product: fuzzer finding).
        overflow = a != 0 && b >= 64;
        if (!overflow) v = b >= 64 ? 0 : a * (ExactInt(1) << int(b));
      }
      break;
    default:
      error = std::string("operator ") + op_spelling(op) + " cannot fold integers";
      return std::nullopt;
  }
  if (overflow || v < lo || v > hi) {
    error = "the value of this constant expression does not fit in 64 bits";
    return std::nullopt;
  }
  return v;
}

Scalar fold_unary(Op op, DType t, Scalar a) {
  Scalar r;
  if (is_floatish(t)) {
    r.f = op == Op::Neg ? -a.f : a.f;
    return r;
  }
  switch (op) {
    case Op::Neg: r.i = wrap_int(int64_t(0 - uint64_t(a.i)), t); break;
    case Op::Invert: r.i = t == DType::Bool ? !a.i : wrap_int(~a.i, t); break;
    default: r = a; break;
  }
  return r;
}

bool scalar_truth(Scalar s, DType t) {
  return is_floatish(t) ? (s.f != 0 || std::isnan(s.f)) : s.i != 0;
}

}  // namespace tilec
