// The OCP 8-bit floats on the CPU for the GPU checks (check_ops.cpp, check_f8.cpp): the value
// of a byte, and an exact reference of rounding to one, independent of the compiler's code.
#pragma once

#include <cmath>
#include <cstdint>

namespace {

// The value of an f8 byte (language.md §4.2, OCP 8-bit floats): e4m3 has no infinities and one
// NaN pattern per sign (s.1111.111); e5m2 is IEEE-like with infinities.
inline double f8_value(uint8_t b, bool e5m2) {
  double sign = (b & 0x80) ? -1 : 1;
  int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int e = (b & 0x7f) >> mbits, m = b & ((1 << mbits) - 1);
  if (e5m2 && e == 31) return m ? NAN : sign * INFINITY;
  if (!e5m2 && e == 15 && m == 7) return NAN;
  if (e == 0) return sign * std::ldexp(m, 1 - bias - mbits);  // subnormal
  return sign * std::ldexp((1 << mbits) + m, e - bias - mbits);
}

// The byte language.md §7.5 says x converts to, found by search rather than by bit arithmetic:
// the nearest finite value of the sign (ties to the even byte, whose last mantissa bit is 0),
// the largest finite one (0x7e for e4m3, 0x7b for e5m2) at or beyond it, infinities included,
// and a NaN byte for NaN (0x7f for both; the checks accept any NaN).
inline uint8_t f8_round(double x, bool e5m2) {
  if (std::isnan(x)) return 0x7f;
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  uint8_t top = e5m2 ? 0x7b : 0x7e;
  double a = std::fabs(x);
  if (a >= f8_value(top, e5m2)) return uint8_t(sign | top);
  uint8_t best = 0;
  for (uint8_t b = 1; b <= top; ++b) {
    double d = std::fabs(f8_value(b, e5m2) - a), e = std::fabs(f8_value(best, e5m2) - a);
    if (d < e || (d == e && (b & 1) == 0)) best = b;
  }
  return uint8_t(sign | best);
}

inline bool f8_is_nan(uint8_t b, bool e5m2) { return std::isnan(f8_value(b, e5m2)); }

}  // namespace
