// Scalar semantics of the reference interpreter (numerics.h): rounding, conversions and the
// elementwise operators, each written from docs/language.md, not from the compiler's code.
#include "ir/interp/numerics.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tilec::interp {
namespace {

// A binary float format: `p` significand bits (with the implicit one), `emin` the exponent of
// the smallest normal, `max` the largest finite value.
struct Format {
  int p;
  int emin;
  long double max;
  bool saturate;  // f8: out of range values become ±max (§8.8), never inf
};

Format format_of(DType t) {
  switch (t) {
    case DType::F16: return {11, -14, 65504.0L, false};
    case DType::BF16: return {8, -126, std::ldexp(255.0L, 120), false};  // (2 - 2^-7) * 2^127
    case DType::F8E4M3: return {4, -6, 448.0L, true};
    case DType::F8E5M2: return {3, -14, 57344.0L, true};
    case DType::TF32: return {11, -126, std::ldexp(2047.0L, 117), false};
    case DType::F32: return {24, -126, std::ldexp(16777215.0L, 104), false};
    default: return {53, -1022, std::numeric_limits<double>::max(), false};
  }
}

// Rounds x (finite, non-zero) to `p` significant bits with `emin` the lowest normal exponent:
// scale so that the last kept bit is the units digit, round to an integer, scale back. The
// scaling is by a power of two, so it is exact in long double (64-bit significand).
long double round_bits(long double x, int p, int emin, bool ties_away) {
  int e = 0;
  std::frexp(x, &e);  // x = m * 2^e, 0.5 <= |m| < 1: the leading bit has exponent e - 1
  int lead = std::max(e - 1, emin);
  long double scaled = std::ldexp(x, p - 1 - lead);
  long double r = ties_away ? std::round(scaled) : std::nearbyint(scaled);  // nearbyint: to even
  return std::ldexp(r, lead - (p - 1));
}

}  // namespace

int64_t wrap(int64_t v, DType t) {
  if (t == DType::Bool) return v != 0;
  int bits = dtype_bits(t);
  if (bits >= 64) return v;
  uint64_t u = uint64_t(v) & ((uint64_t(1) << bits) - 1);
  if (is_signed_int(t) && (u >> (bits - 1)) & 1) u |= ~((uint64_t(1) << bits) - 1);
  return int64_t(u);
}

double round_to(long double x, DType t) {
  if (std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  if (t == DType::F64) return double(x);
  if (t == DType::F32) return double(float(x));  // the hardware conversion rounds to nearest even
  Format f = format_of(t);
  if (std::isinf(x)) return f.saturate ? double(std::copysign(f.max, x)) : double(x);
  if (x == 0) return double(x);
  long double r = round_bits(x, f.p, f.emin, t == DType::TF32);
  if (std::fabs(r) > f.max)
    return f.saturate ? double(std::copysign(f.max, x)) : double(std::copysign(INFINITY, x));
  return double(r);
}

long double as_real(const Scalar& s, DType t) {
  if (is_float(t) || is_restricted(t)) return s.f;
  if (is_unsigned_int(t)) return (long double)uint64_t(s.i);
  return (long double)s.i;
}

bool truth(const Scalar& s, DType t) {
  if (is_float(t) || is_restricted(t)) return s.f != 0 || std::isnan(s.f);
  return s.i != 0;
}

uint64_t to_bits(const Scalar& s, DType t) {
  int bits = dtype_bits(t);
  uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  if (!is_float(t) && !is_restricted(t)) return uint64_t(s.i) & mask;
  if (t == DType::F64) {
    uint64_t b;
    std::memcpy(&b, &s.f, 8);
    return b;
  }
  float f = float(s.f);
  uint32_t b32;
  std::memcpy(&b32, &f, 4);
  if (t == DType::F32 || t == DType::TF32) return b32;
  if (t == DType::BF16) return b32 >> 16;  // exact: the value is a bf16
  // f16 and f8: sign, biased exponent, mantissa of the exact value.
  int p = format_of(t).p, emin = format_of(t).emin;
  int ebits = bits - p;  // 5 for f16 and e5m2, 4 for e4m3
  int bias = (1 << (ebits - 1)) - 1;
  uint64_t sign = std::signbit(s.f) ? uint64_t(1) << (bits - 1) : 0;
  double a = std::fabs(s.f);
  if (std::isnan(a)) return t == DType::F8E4M3 ? sign | 0x7f : sign | (((uint64_t(1) << ebits) - 1) << (p - 1)) | (uint64_t(1) << (p - 2));
  if (std::isinf(a)) return sign | (((uint64_t(1) << ebits) - 1) << (p - 1));
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);
  int lead = e - 1;
  if (lead < emin)  // subnormal: mantissa counts units of 2^(emin - p + 1)
    return sign | uint64_t(std::ldexp(a, p - 1 - emin));
  uint64_t mant = uint64_t(std::ldexp(a, p - 1 - lead)) - (uint64_t(1) << (p - 1));
  return sign | (uint64_t(lead + bias) << (p - 1)) | mant;
}

Scalar from_bits(uint64_t b, DType t) {
  Scalar s;
  int bits = dtype_bits(t);
  if (!is_float(t) && !is_restricted(t)) {
    s.i = wrap(int64_t(b), t);
    return s;
  }
  if (t == DType::F64) {
    std::memcpy(&s.f, &b, 8);
    return s;
  }
  if (t == DType::F32 || t == DType::TF32 || t == DType::BF16) {
    uint32_t b32 = t == DType::BF16 ? uint32_t(b << 16) : uint32_t(b);
    float f;
    std::memcpy(&f, &b32, 4);
    s.f = f;
    return s;
  }
  int p = format_of(t).p, emin = format_of(t).emin;
  int ebits = bits - p, bias = (1 << (ebits - 1)) - 1;
  bool neg = (b >> (bits - 1)) & 1;
  uint64_t exp = (b >> (p - 1)) & ((uint64_t(1) << ebits) - 1), mant = b & ((uint64_t(1) << (p - 1)) - 1);
  double v;
  if (t == DType::F8E4M3 && exp == 15 && mant == 7) v = NAN;  // e4m3 has no infinity
  else if (t != DType::F8E4M3 && exp == uint64_t((1 << ebits) - 1)) v = mant ? NAN : INFINITY;
  else if (exp == 0) v = std::ldexp(double(mant), emin - (p - 1));
  else v = std::ldexp(double(mant | (uint64_t(1) << (p - 1))), int(exp) - bias - (p - 1));
  s.f = neg ? -v : v;
  return s;
}

Scalar convert(const Scalar& s, DType from, DType to) {
  Scalar r;
  bool ffrom = is_float(from) || is_restricted(from), fto = is_float(to) || is_restricted(to);
  if (to == DType::Bool) {
    r.i = truth(s, from);
    return r;
  }
  if (fto) {
    r.f = round_to(as_real(s, from), to);
    return r;
  }
  if (!ffrom) {  // integer or bool → integer: wrap
    r.i = wrap(s.i, to);
    return r;
  }
  // Float → integer: NaN → 0, truncate toward zero, saturate to the dtype's range.
  if (std::isnan(s.f)) return r;
  long double v = std::trunc((long double)s.f);
  int bits = dtype_bits(to);
  if (is_unsigned_int(to)) {
    long double hi = std::ldexp(1.0L, bits) - 1;
    r.i = v <= 0 ? 0 : v >= hi ? int64_t(bits == 64 ? ~uint64_t(0) : uint64_t(hi)) : int64_t(uint64_t(v));
  } else {
    long double hi = std::ldexp(1.0L, bits - 1) - 1, lo = -std::ldexp(1.0L, bits - 1);
    r.i = v >= hi ? int64_t(hi) : v <= lo ? int64_t(lo) : int64_t(v);
  }
  return r;
}

}  // namespace tilec::interp
