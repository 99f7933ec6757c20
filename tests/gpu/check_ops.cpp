// GPU checks of the op families in tests/gpu/ops.tile against CPU references written here
// (independently of the compiler's own constant folder). Prints the worst error per function
// and exits non-zero on any violation of the documented bounds (docs/language.md §6.9).
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.h"
#include "f8_util.h"
#include "ops.h"
#include "ops_fast.h"

namespace {

int failures = 0;

struct Buf {
  CUdeviceptr p = 0;
  size_t bytes;
  explicit Buf(size_t b) : bytes(b ? b : 1) {
    CHECK_CU(cuMemAlloc(&p, bytes));
    CHECK_CU(cuMemsetD8(p, 0xff, bytes));  // poison
  }
  ~Buf() { cuMemFree(p); }
  template <typename T>
  void put(const std::vector<T>& v) { CHECK_CU(cuMemcpyHtoD(p, v.data(), v.size() * sizeof(T))); }
  template <typename T>
  std::vector<T> get(size_t n) {
    std::vector<T> v(n);
    CHECK_CU(cuMemcpyDtoH(v.data(), p, n * sizeof(T)));
    return v;
  }
};

std::mt19937_64 rng(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));

float uniform(float lo, float hi) { return lo + (hi - lo) * float(std::uniform_real_distribution<double>(0, 1)(rng)); }

void verdict(const std::string& what, bool ok, const std::string& detail) {
  std::printf("%-40s %s  %s\n", what.c_str(), ok ? "ok  " : "FAIL", detail.c_str());
  if (!ok) ++failures;
}

// Units in the last place of the f32 nearest to `ref`, floored at `floor_ulp_of`.
double ulps(float got, double ref, double floor_of = 0) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(ref)) return got == float(ref) ? 0 : INFINITY;
  double scale = std::max(std::fabs(ref), floor_of);
  float r = float(scale);
  double ulp = std::nextafter(r, INFINITY) - r;
  if (ulp == 0 || std::isinf(ulp)) ulp = std::ldexp(1.0, -149);
  return std::fabs(double(got) - ref) / ulp;
}

// ---- math ----------------------------------------------------------------------------------

void check_math(size_t n, bool fast) {
  std::vector<float> x(n), p(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = uniform(-10.f, 10.f);
    p[i] = std::exp(uniform(-12.f, 12.f));
  }
  // specials: exact integers, halves, zero, large and tiny values
  const float sx[] = {0.f, -0.f, 1.f, -1.f, 0.5f, -2.5f, 88.f, -87.f, 1e-7f, -1e-7f, 0.54f, 0.56f};
  for (size_t i = 0; i < n && i < std::size(sx); ++i) x[i] = sx[i];
  const float sp[] = {1.f, 2.f, 0.5f, 1e-30f, 1e30f, 1.0000001f, 0.9999999f, 1e-40f};
  for (size_t i = 0; i < n && i < std::size(sp); ++i) p[i] = sp[i];
  Buf dx(n * 4), dp(n * 4), dout(16 * n * 4);
  dx.put(x);
  dp.put(p);
  if (fast) CHECK_CU(fast_math_f32(nullptr, dx.p, dp.p, dout.p, int64_t(n)));
  else CHECK_CU(math_f32(nullptr, dx.p, dp.p, dout.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> out = dout.get<float>(16 * n);
  struct Fn {
    const char* name;
    double bound;  // ulps (accurate mode)
    double floor;  // results smaller than this are measured in ulps of it (absolute error)
  };
  const Fn fns[] = {{"exp", 3, 0}, {"exp2", 3, 0}, {"log", 3, 0}, {"log2", 3, 0}, {"sqrt", 0.5, 0},
                    {"rsqrt", 2, 0}, {"sin", 3, 1e-6}, {"cos", 3, 1e-6}, {"tanh", 4, 0}, {"sigmoid", 4, 0},
                    {"floor", 0, 0}, {"ceil", 0, 0}, {"pow", 128, 0}, {"// and %", 0, 0},
                    {"erf", 2, 0}, {"clamp", 0, 0}};
  for (int f = 0; f < 16; ++f) {
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < n; ++i) {
      double v = x[i], q = p[i], ref;
      switch (f) {
        case 0: ref = std::exp(v); break;
        case 1: ref = std::exp2(v); break;
        case 2: ref = std::log(q); break;
        case 3: ref = std::log2(q); break;
        case 4: ref = std::sqrt(q); break;
        case 5: ref = 1 / std::sqrt(q); break;
        case 6: ref = std::sin(v); break;
        case 7: ref = std::cos(v); break;
        case 8: ref = std::tanh(v); break;
        case 9: ref = 1 / (1 + std::exp(-v)); break;
        case 10: ref = std::floor(v); break;
        case 11: ref = std::ceil(v); break;
        case 12: ref = std::pow(q, double(float(x[i] * 0.25f))); break;
        case 14: ref = std::erf(double(x[i] * 0.4f)); break;
        case 15: ref = std::min(std::max(v, -2.5), q); break;
        default: {
          // v // 0.75 + v % 0.75 with f32 roundings as the kernel does them
          float fv = x[i], d = 0.75f;
          float qq = std::floor(fv / d);
          float m = fv - qq * d;
          ref = double(qq + m);
          break;
        }
      }
      double e = ulps(out[size_t(f) * n + i], ref, fns[f].floor);
      if (!(e <= worst)) {
        worst = e;
        at = i;
      }
    }
    char detail[200];
    std::snprintf(detail, sizeof detail, "worst %.2f ulp (bound %.1f) at x=%.9g p=%.9g", worst, fns[f].bound, x[at], p[at]);
    std::string what = std::string(fast ? "math --fast-math " : "math ") + fns[f].name + " n=" + std::to_string(n);
    if (fast) std::printf("%-40s info  %s\n", what.c_str(), detail);  // approximations: reported only
    else verdict(what, worst <= fns[f].bound, detail);
  }
}

// ---- casts ---------------------------------------------------------------------------------

int64_t sat(double v, double lo, double hi) {
  if (std::isnan(v)) return 0;
  double t = std::trunc(v);
  if (t <= lo) return int64_t(lo);
  if (t >= hi) return int64_t(hi);
  return int64_t(t);
}

uint16_t bf16_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffff) > 0x7f800000) return uint16_t((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}

float bf16_float(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t f16_bits(float f) {
  _Float16 h = (_Float16)f;  // IEEE round to nearest even
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

float f16_float(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return float(h);
}

bool same_bits16(uint16_t a, uint16_t b) {
  bool na = (a & 0x7fff) > 0x7c00, nb = (b & 0x7fff) > 0x7c00;  // any NaN equals any NaN
  return a == b || (na && nb);
}

void check_casts(size_t n) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) {
    float mag = std::exp(uniform(-20.f, 25.f));
    x[i] = (rng() & 1) ? mag : -mag;
  }
  const float specials[] = {NAN, INFINITY, -INFINITY, 0.f, -0.f, 0.5f, -0.5f, 2.5f, 255.5f, 256.f, -129.f, 127.9f,
                            3e9f, -3e9f, 4294967040.f, 1e20f, -1e20f, 65504.f, 65520.f, 65519.f, 1e-8f,
                            9.2233720e18f, -9.2233720e18f, 1.00390625f, 1.01171875f};
  for (size_t i = 0; i < n && i < std::size(specials); ++i) x[i] = specials[i];
  Buf dx(n * 4), di32(n * 4), du8(n), di8(n), di64(n * 8), du32(n * 4), df16(n * 2), dbf16(n * 2), dbool(n),
      df64(n * 8), dback(n * 4);
  dx.put(x);
  CHECK_CU(casts(nullptr, dx.p, di32.p, du8.p, di8.p, di64.p, du32.p, df16.p, dbf16.p, dbool.p, df64.p, dback.p,
                 int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  auto i32 = di32.get<int32_t>(n);
  auto u8 = du8.get<uint8_t>(n);
  auto i8 = di8.get<int8_t>(n);
  auto i64 = di64.get<int64_t>(n);
  auto u32 = du32.get<uint32_t>(n);
  auto h = df16.get<uint16_t>(n);
  auto bf = dbf16.get<uint16_t>(n);
  auto b = dbool.get<uint8_t>(n);
  auto f64 = df64.get<double>(n);
  auto back = dback.get<float>(n);
  size_t bad[10] = {};
  size_t first[10] = {};
  auto miss = [&](int k, size_t i) {
    if (!bad[k]++) first[k] = i;
  };
  for (size_t i = 0; i < n; ++i) {
    double v = x[i];
    if (i32[i] != sat(v, -2147483648.0, 2147483647.0)) miss(0, i);
    if (u8[i] != sat(v, 0, 255)) miss(1, i);
    if (i8[i] != sat(v, -128, 127)) miss(2, i);
    int64_t ref64 = std::isnan(v) ? 0 : v >= 9223372036854775808.0 ? INT64_MAX
                    : v <= -9223372036854775808.0 ? INT64_MIN : int64_t(std::trunc(v));
    if (i64[i] != ref64) miss(3, i);
    if (u32[i] != uint32_t(sat(v, 0, 4294967295.0))) miss(4, i);
    if (!same_bits16(h[i], f16_bits(x[i]))) miss(5, i);
    if (!same_bits16(bf[i], bf16_bits(x[i]))) miss(6, i);
    if (b[i] != uint8_t(v != 0 || std::isnan(v))) miss(7, i);
    if (!(f64[i] == v || (std::isnan(v) && std::isnan(f64[i])))) miss(8, i);
    float r = float(int8_t(sat(v, -128, 127))) + bf16_float(bf16_bits(x[i]));
    if (!(back[i] == r || (std::isnan(r) && std::isnan(back[i])))) miss(9, i);
  }
  const char* names[] = {"i32", "u8", "i8", "i64", "u32", "f16", "bf16", "bool", "f64", "i8+bf16 round trip"};
  for (int k = 0; k < 10; ++k) {
    char d[160];
    std::snprintf(d, sizeof d, "%zu wrong%s", bad[k],
                  bad[k] ? (", first x=" + std::to_string(x[first[k]])).c_str() : "");
    verdict(std::string("cast f32 -> ") + names[k] + " n=" + std::to_string(n), bad[k] == 0, d);
  }
}

// ---- integer semantics ---------------------------------------------------------------------

int32_t pyfloordiv(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == -1) return INT32_MIN;
  int32_t q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}

int32_t pymod(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == -1) return 0;
  int32_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

int32_t wrap32(int64_t v) { return int32_t(uint32_t(uint64_t(v))); }

void check_intops(size_t n) {
  std::vector<int32_t> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = (rng() & 3) ? int32_t(int64_t(rng() % 2001) - 1000) : int32_t(uint32_t(rng()));
    do b[i] = (rng() & 3) ? int32_t(int64_t(rng() % 41) - 20) : int32_t(uint32_t(rng()));
    while (b[i] == 0);
  }
  if (n > 2) {
    a[0] = INT32_MIN, b[0] = -1;
    a[1] = -7, b[1] = 2;
    a[2] = 7, b[2] = -2;
  }
  constexpr int kRows = 12;
  Buf da(n * 4), db(n * 4), dout(kRows * n * 4);
  da.put(a);
  db.put(b);
  CHECK_CU(intops(nullptr, da.p, db.p, dout.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  auto out = dout.get<int32_t>(kRows * n);
  size_t bad[kRows] = {}, first[kRows] = {};
  for (size_t i = 0; i < n; ++i) {
    int32_t x = a[i], y = b[i];
    int32_t s = y & 63;
    int32_t ref[kRows];
    ref[0] = pyfloordiv(x, y);
    ref[1] = pymod(x, y);
    ref[2] = s >= 32 ? 0 : int32_t(uint32_t(x) << s);
    ref[3] = s >= 32 ? (x < 0 ? -1 : 0) : (x >> s);
    ref[4] = wrap32(int64_t(std::min(x, y)) * 3 - int64_t(std::max(x, y)));
    ref[5] = int8_t(uint8_t(int32_t(int8_t(x)) * int32_t(int8_t(y))));
    ref[6] = uint16_t(uint16_t(x) + uint16_t(y));
    int32_t sum = wrap32(int64_t(x) + y);
    ref[7] = x > y ? wrap32(int64_t(x) - y) : wrap32(-int64_t(sum == INT32_MIN ? sum : std::abs(sum)));
    ref[8] = pyfloordiv(x, 16);
    ref[9] = pymod(x, 16);
    int64_t w = int64_t(x) * 3, q = w / 1024 - (w % 1024 < 0 ? 1 : 0);  // floor division
    ref[10] = wrap32(q);
    ref[11] = int32_t(w - q * 1024);
    for (int k = 0; k < kRows; ++k)
      if (out[size_t(k) * n + i] != ref[k] && !bad[k]++) first[k] = i;
  }
  const char* names[] = {"//", "%", "<<", ">>", "min*3-max", "i8 *", "u16 +", "where/abs",
                         "// 16", "% 16", "i64 // 1024", "i64 % 1024"};
  for (int k = 0; k < kRows; ++k) {
    char d[160];
    std::snprintf(d, sizeof d, "%zu wrong%s", bad[k],
                  bad[k] ? (", first a=" + std::to_string(a[first[k]]) + " b=" + std::to_string(b[first[k]]) +
                            " got " + std::to_string(out[size_t(k) * n + first[k]])).c_str()
                         : "");
    verdict(std::string("int ") + names[k] + " n=" + std::to_string(n), bad[k] == 0, d);
  }
}

// 64-bit // and % (intops64): operands below 2^31 (the 32-bit division), at and above it, and
// negative ones, signed (Python's floor semantics) and unsigned; the reference in __int128-free
// 64-bit C arithmetic.
void check_intops64(size_t n) {
  std::vector<int64_t> a(n), b(n);
  auto pick = [](int kind) -> int64_t {
    switch (kind) {
      case 0: return int64_t(rng() % 5000);                          // small, non-negative
      case 1: return int64_t(rng() % (uint64_t(1) << 31));           // below 2^31
      case 2: return int64_t((uint64_t(1) << 31) + rng() % 1000);    // just above
      case 3: return -int64_t(rng() % 5000) - 1;                     // negative
      default: return int64_t(uint64_t(rng()) << 32 | uint32_t(rng()));  // any 64 bits
    }
  };
  for (size_t i = 0; i < n; ++i) {
    a[i] = pick(int(rng() % 5));
    do b[i] = pick(int(rng() % 4) == 3 ? 3 : int(rng() % 3));
    while (b[i] == 0);
  }
  if (n > 3) {
    a[0] = INT64_MIN, b[0] = -1;
    a[1] = (int64_t(1) << 31) - 1, b[1] = (int64_t(1) << 31) - 1;
    a[2] = int64_t(1) << 31, b[2] = 3;
    a[3] = 7, b[3] = int64_t(1) << 31;
  }
  Buf da(n * 8), db(n * 8), dout(4 * n * 8);
  da.put(a);
  db.put(b);
  CHECK_CU(intops64(nullptr, da.p, db.p, dout.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  auto out = dout.get<int64_t>(4 * n);
  size_t bad[4] = {}, first[4] = {};
  for (size_t i = 0; i < n; ++i) {
    int64_t x = a[i], y = b[i];
    int64_t ref[4];
    if (x == INT64_MIN && y == -1) {
      ref[0] = INT64_MIN, ref[1] = 0;
    } else {
      int64_t q = x / y, r = x % y;
      bool adjust = r != 0 && ((r < 0) != (y < 0));
      ref[0] = adjust ? q - 1 : q;
      ref[1] = adjust ? r + y : r;
    }
    ref[2] = int64_t(uint64_t(x) / uint64_t(y));
    ref[3] = int64_t(uint64_t(x) % uint64_t(y));
    for (int k = 0; k < 4; ++k)
      if (out[size_t(k) * n + i] != ref[k] && !bad[k]++) first[k] = i;
  }
  const char* names[] = {"//", "%", "u64 //", "u64 %"};
  for (int k = 0; k < 4; ++k) {
    char d[200];
    std::snprintf(d, sizeof d, "%zu wrong%s", bad[k],
                  bad[k] ? (", first a=" + std::to_string(a[first[k]]) + " b=" + std::to_string(b[first[k]]) +
                            " got " + std::to_string(out[size_t(k) * n + first[k]])).c_str()
                         : "");
    verdict(std::string("i64 ") + names[k] + " n=" + std::to_string(n), bad[k] == 0, d);
  }
}

// Launch divisors (launch_div): u32 values at the edges and at random divided by u32 d, u64 e,
// the extent m, cdiv(m, 3); the CTA index by cdiv(m, 5) and that by m // 3. The reference is C's
// integer division of the same values.
void check_launch_div(size_t n, uint32_t d, uint64_t e, int64_t m) {
  std::vector<uint32_t> x(n);
  static const uint32_t edges[] = {0u, 1u, 2u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
  for (size_t i = 0; i < n; ++i) x[i] = i < 7 ? edges[i] : i % 3 ? uint32_t(rng()) : uint32_t(rng() % 100000);
  for (size_t i = 7; i + 1 < n && i < 40; i += 2) x[i] = uint32_t(uint64_t(d) * (i - 6)), x[i + 1] = x[i] - 1;
  Buf dx(n * 4), daux(static_cast<size_t>(m)), dout(8 * n * 8);
  dx.put(x);
  CHECK_CU(launch_div(nullptr, dx.p, daux.p, dout.p, int64_t(n), m, d, e));
  CHECK_CU(cuCtxSynchronize());
  auto out = dout.get<int64_t>(8 * n);
  int64_t c3 = (m + 2) / 3, c5 = (m + 4) / 5, f3 = m / 3;
  size_t bad[8] = {}, first[8] = {};
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = x[i];
    int64_t t = int64_t(i / 256);  // the CTA of element i (T = 256)
    int64_t q = t / c5;
    int64_t ref[8] = {int64_t(v / d), int64_t(v % d), int64_t(v / e), int64_t(v % e), int64_t(v) / m,
                      int64_t(v) % c3, q, q / f3 + t % f3 * 1000000};
    for (int k = 0; k < 8; ++k)
      if (out[size_t(k) * n + i] != ref[k] && !bad[k]++) first[k] = i;
  }
  static const char* names[] = {"u32 / d", "u32 % d", "u64 / e", "u64 % e", "i64 / m", "i64 % cdiv(m, 3)",
                                "bid / cdiv(m, 5)", "that / (m // 3)"};
  for (int k = 0; k < 8; ++k) {
    std::string detail = std::to_string(bad[k]) + " wrong";
    if (bad[k])
      detail += ", first x=" + std::to_string(x[first[k]]) + " got " + std::to_string(out[size_t(k) * n + first[k]]);
    verdict("launch divisor " + std::string(names[k]) + " d=" + std::to_string(d) + " e=" + std::to_string(e) +
                " m=" + std::to_string(m),
            bad[k] == 0, detail);
  }
}

// ---- f16 / bf16 ----------------------------------------------------------------------------

void check_half(size_t n) {
  std::vector<uint16_t> h(n), g(n);
  for (size_t i = 0; i < n; ++i) {
    h[i] = f16_bits(uniform(-8.f, 8.f));
    g[i] = bf16_bits(uniform(-8.f, 8.f));
  }
  Buf dh(n * 2), dg(n * 2), doh(n * 2), dog(n * 2);
  dh.put(h);
  dg.put(g);
  CHECK_CU(halfops(nullptr, dh.p, dg.p, doh.p, dog.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  auto oh = doh.get<uint16_t>(n);
  auto og = dog.get<uint16_t>(n);
  size_t bh = 0, bg = 0;
  for (size_t i = 0; i < n; ++i) {
    // every operation rounds to the dtype (§6.7)
    auto rh = [](float v) { return f16_float(f16_bits(v)); };
    auto rb = [](float v) { return bf16_float(bf16_bits(v)); };
    float x = f16_float(h[i]);
    float y = rh(rh(rh(x * x) + 1.5f) / rh(x - 3.0f));
    if (!same_bits16(oh[i], f16_bits(y))) ++bh;
    float u = bf16_float(g[i]);
    float v = rb(rb(rb(u * u) + 1.5f) / rb(u - 3.0f));
    if (!same_bits16(og[i], bf16_bits(v))) ++bg;
  }
  verdict("f16 (x*x+1.5)/(x-3) n=" + std::to_string(n), bh == 0, std::to_string(bh) + " wrong");
  verdict("bf16 (x*x+1.5)/(x-3) n=" + std::to_string(n), bg == 0, std::to_string(bg) + " wrong");
}

// ---- 2-D tiles, loops, if, grid ------------------------------------------------------------

// erf (docs/language.md §7.7) over every `stride`-th f32 bit pattern of [0, 5] with both signs
// (erf is +-1 in f32 from 3.92 on), the specials, and every f16 and bf16 bit pattern, against
// std::erf in double. f16 and bf16 compute in f32 and round once: within 1 ulp of their dtype.
void check_erf(uint32_t stride) {
  std::vector<float> x;
  for (uint32_t b = 0; b <= 0x40a00000u; b += stride) {
    float f;
    std::memcpy(&f, &b, 4);
    x.push_back(f);
    x.push_back(-f);
  }
  const float specials[] = {NAN, INFINITY, -INFINITY, 0.f, -0.f, 1e-45f, -1e-45f, 1e-38f, 0.875f,
                            std::nextafter(0.875f, 0.f), -0.875f, 4.f, std::nextafter(4.f, 0.f), -4.f,
                            3.9199f, 1e30f, -1e30f, 0.5f, 1.f, 2.f};
  x.insert(x.end(), std::begin(specials), std::end(specials));
  size_t n = std::max(x.size(), size_t(65536));
  x.resize(n, 0.5f);
  std::vector<uint16_t> h(n), g(n);
  for (size_t i = 0; i < n; ++i) h[i] = g[i] = uint16_t(i);
  Buf dx(n * 4), dh(n * 2), dg(n * 2), dout(n * 4), doh(n * 2), dog(n * 2);
  dx.put(x);
  dh.put(h);
  dg.put(g);
  CHECK_CU(erf_sweep(nullptr, dx.p, dh.p, dg.p, dout.p, doh.p, dog.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> out = dout.get<float>(n);
  std::vector<uint16_t> oh = doh.get<uint16_t>(n), og = dog.get<uint16_t>(n);
  double worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    double e = ulps(out[i], std::erf(double(x[i])));
    if (!(e <= worst)) {
      worst = e;
      at = i;
    }
  }
  char detail[200];
  std::snprintf(detail, sizeof detail, "worst %.2f ulp (bound 2) at x=%a, %zu inputs", worst, x[at], n);
  verdict("erf f32 sweep", worst <= 2, detail);
  // f16 and bf16: the result differs from the correctly rounded one by at most one step.
  auto steps = [](uint16_t a, uint16_t b, bool f16) {
    float fa = f16 ? f16_float(a) : bf16_float(a), fb = f16 ? f16_float(b) : bf16_float(b);
    if (std::isnan(fa) || std::isnan(fb)) return (std::isnan(fa) && std::isnan(fb)) ? 0 : 1000;
    if (fa == fb) return 0;
    // ordered integers of the bit patterns
    auto ord = [](uint16_t v) { return (v & 0x8000) ? -int(v & 0x7fff) : int(v); };
    return std::abs(ord(a) - ord(b));
  };
  int wh = 0, wg = 0;
  size_t ah = 0, ag = 0;
  for (size_t i = 0; i < 65536; ++i) {
    int eh = steps(oh[i], f16_bits(float(std::erf(double(f16_float(h[i]))))), true);
    int eg = steps(og[i], bf16_bits(float(std::erf(double(bf16_float(g[i]))))), false);
    if (eh > wh) wh = eh, ah = i;
    if (eg > wg) wg = eg, ag = i;
  }
  std::snprintf(detail, sizeof detail, "worst %d ulp (bound 1) at bits 0x%04zx", wh, ah);
  verdict("erf f16, every input", wh <= 1, detail);
  std::snprintf(detail, sizeof detail, "worst %d ulp (bound 1) at bits 0x%04zx", wg, ag);
  verdict("erf bf16, every input", wg <= 1, detail);
}

void check_tiles2d(int64_t M, int64_t N, int32_t k, bool flip) {
  std::vector<float> x(static_cast<size_t>(M * N)), r(static_cast<size_t>(M)), c(static_cast<size_t>(N));
  for (float& v : x) v = uniform(-1.f, 1.f);
  for (float& v : r) v = uniform(-1.f, 1.f);
  for (float& v : c) v = uniform(-1.f, 1.f);
  Buf dx(x.size() * 4), dr(r.size() * 4), dc(c.size() * 4), dout(x.size() * 4), dinfo(16);
  dx.put(x);
  dr.put(r);
  dc.put(c);
  CHECK_CU(tiles2d(nullptr, dx.p, dr.p, dc.p, dout.p, dinfo.p, M, N, k, flip));
  CHECK_CU(cuCtxSynchronize());
  auto out = dout.get<float>(x.size());
  auto info = dinfo.get<int32_t>(4);
  size_t bad = 0;
  double worst = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double acc = 0;
      for (int s = 0; s < k; ++s) acc = acc + double(x[size_t(i * N + j)]) * s + r[size_t(i)];
      if (j % 2 != 0) acc -= c[size_t(j)];
      if (flip) acc = -acc;
      double e = std::fabs(out[size_t(i * N + j)] - acc);
      worst = std::max(worst, e);
      if (!(e <= 1e-5 * (1 + k))) ++bad;
    }
  int64_t gm = (M + 15) / 16, gn = (N + 63) / 64;
  bool info_ok = true;
  for (int q = 0; q < 4; ++q) info_ok = info_ok && info[size_t(q)] == gm * 10 + gn;
  char d[160];
  std::snprintf(d, sizeof d, "%zu wrong, worst abs err %.2g, num_blocks %s", bad, worst, info_ok ? "ok" : "WRONG");
  verdict("tiles2d M=" + std::to_string(M) + " N=" + std::to_string(N) + " k=" + std::to_string(k) +
              (flip ? " flip" : ""),
          bad == 0 && info_ok, d);
}

// ---- reductions ----------------------------------------------------------------------------

void check_reductions(int64_t M, int64_t N) {
  // N <= 128: each row is one (16, 128) tile, padded past N.
  std::vector<float> x(size_t(M * N));
  std::vector<uint16_t> h(size_t(M * N));
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = uniform(-4.f, 4.f);
    if (rng() % 50 == 0) x[i] = float(int(x[i]));  // ties for argmax/argmin
    h[i] = f16_bits(uniform(-2.f, 2.f));
  }
  if (M > 3 && N > 5) {
    x[size_t(2 * N + 3)] = NAN;  // row 2: max, min and argmax see a NaN
    x[size_t(3 * N + 1)] = 100.f;
    x[size_t(3 * N + 4)] = 100.f;  // row 3: a tie for the max: the first index wins
  }
  Buf dx(x.size() * 4), dh(h.size() * 2), drows(size_t(6 * M) * 4), didx(size_t(2 * M) * 4), dtot(8);
  dx.put(x);
  dh.put(h);
  CHECK_CU(reductions(nullptr, dx.p, dh.p, drows.p, didx.p, dtot.p, M, N));
  CHECK_CU(cuCtxSynchronize());
  auto rows = drows.get<float>(size_t(6 * M));
  auto idx = didx.get<int32_t>(size_t(2 * M));
  auto tot = dtot.get<float>(2);
  size_t bad[9] = {};
  auto close = [](float got, double ref, double scale) {
    if (std::isnan(ref)) return std::isnan(got);
    return std::fabs(double(got) - ref) <= 1e-5 * scale + 1e-6;
  };
  for (int64_t i = 0; i < M; ++i) {
    double sum = 0, scale = 0, mx = -INFINITY, mn = INFINITY, sum_pad_max = -INFINITY, hsum = 0, prod = 1;
    bool nan = false;
    int32_t amax = -1, amin = -1;
    float vmax = -INFINITY, vmin = INFINITY;
    bool amax_nan = false;
    for (int64_t j = 0; j < 128; ++j) {
      bool in = j < N;
      float v = in ? x[size_t(i * N + j)] : 0.f;  // default padding 0
      sum += v;
      scale += std::fabs(v);
      if (std::isnan(v)) nan = true;
      sum_pad_max = std::isnan(v) || std::isnan(sum_pad_max) ? NAN : std::max(sum_pad_max, double(v));
      prod *= (v > 0 ? 1.0 : -1.0);
      if (in) {
        mx = std::isnan(v) || std::isnan(mx) ? NAN : std::max(mx, double(v));
        mn = std::isnan(v) || std::isnan(mn) ? NAN : std::min(mn, double(v));
        hsum += f16_float(h[size_t(i * N + j)]);
        if (!amax_nan && (std::isnan(v) || amax < 0 || v > vmax)) {
          amax = int32_t(j);
          vmax = v;
          amax_nan = std::isnan(v);
        }
        if (amin < 0 || std::isnan(v) || v < vmin) {
          if (!(amin >= 0 && std::isnan(vmin))) {
            amin = int32_t(j);
            vmin = v;
          }
        }
      }
    }
    if (amax < 0) amax = 0;  // a row wholly padding: the first index
    if (amin < 0) amin = 0;
    double centered = 0;
    for (int64_t j = 0; j < 128; ++j) centered += (j < N ? x[size_t(i * N + j)] : 0.f) - sum_pad_max;
    double ref[6] = {sum, nan ? NAN : mx, nan ? NAN : mn, centered, double(f16_float(f16_bits(float(hsum)))), prod};
    double sc[6] = {scale, 1, 1, scale + 128 * std::fabs(sum_pad_max), 200, 1};
    for (int k = 0; k < 6; ++k)
      if (!close(rows[size_t(k * M + i)], ref[k], sc[k]) && !(k == 4 && std::fabs(rows[size_t(k * M + i)] - ref[k]) <= 0.0625))
        ++bad[k];
    if (idx[size_t(i)] != amax) ++bad[6];
    if (idx[size_t(M + i)] != amin) ++bad[7];
  }
  double t = 0;
  for (int64_t i = 0; i < std::min<int64_t>(M, 16); ++i)
    for (int64_t j = 0; j < std::min<int64_t>(N, 128); ++j) t += x[size_t(i * N + j)];
  if (!(close(tot[0], t, 1e3) && tot[0] == tot[1]) && !(std::isnan(t) && std::isnan(tot[0]))) ++bad[8];
  const char* names[] = {"sum", "max (NaN)", "min (NaN)", "x - max(keepdims)", "f16 sum", "prod", "argmax", "argmin",
                         "sum all"};
  for (int k = 0; k < 9; ++k)
    verdict(std::string("reduce ") + names[k] + " M=" + std::to_string(M) + " N=" + std::to_string(N), bad[k] == 0,
            std::to_string(bad[k]) + " wrong");
}

// ---- control flow --------------------------------------------------------------------------

void check_control(size_t n, int32_t steps) {
  std::vector<float> x(n);
  for (float& v : x) v = uniform(-1.f, 1.f);
  Buf dx(n * 4), dout(n * 4);
  dx.put(x);
  CHECK_CU(control(nullptr, dx.p, dout.p, int64_t(n), steps));
  CHECK_CU(cuCtxSynchronize());
  auto out = dout.get<uint32_t>(n);
  double s = 0;
  for (int k = 1; k <= steps; ++k) {
    if (k % 3 == 0) continue;
    if (k > 20) break;
    s += k;
  }
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t t = i / 256;
    bool returned = int64_t(t * 256) >= int64_t(n) - 128;
    float got;
    std::memcpy(&got, &out[i], 4);
    if (returned) {
      if (out[i] != 0xffffffffu) ++bad;  // untouched: still the poison
    } else if (!(std::fabs(got - (x[i] * s + 4)) <= 1e-4 * (1 + std::fabs(x[i] * s)))) {
      ++bad;
    }
  }
  verdict("control while/break/continue/return n=" + std::to_string(n) + " steps=" + std::to_string(steps), bad == 0,
          std::to_string(bad) + " wrong");
}

// ---- transposes ----------------------------------------------------------------------------

void check_transposes(int64_t M, int64_t N) {
  std::vector<float> x(size_t(M * N));
  for (float& v : x) v = uniform(-1.f, 1.f);
  Buf dx(x.size() * 4), dy(x.size() * 4), dz(x.size() * 4);
  dx.put(x);
  CHECK_CU(transposes(nullptr, dx.p, dy.p, dz.p, M, N));
  CHECK_CU(cuCtxSynchronize());
  auto y = dy.get<float>(x.size());
  auto z = dz.get<float>(x.size());
  size_t by = 0, bz = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      by += y[size_t(j * M + i)] != x[size_t(i * N + j)];
      bz += z[size_t(j * M + i)] != x[size_t(i * N + j)];
    }
  verdict("transpose() M=" + std::to_string(M) + " N=" + std::to_string(N), by == 0, std::to_string(by) + " wrong");
  verdict("load order=(1,0) M=" + std::to_string(M) + " N=" + std::to_string(N), bz == 0, std::to_string(bz) + " wrong");
}

// ---- tensor-core products: i8 -> i32 (exact), f64 ----------------------------------------

void check_mm_i8(int64_t M, int64_t N, int64_t K, bool ones) {
  std::vector<int8_t> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N));
  for (auto& v : a) v = ones ? 1 : int8_t(int(rng() % 255) - 127);
  for (auto& v : b) v = ones ? 1 : int8_t(int(rng() % 255) - 127);
  Buf da(a.size()), db(b.size()), dc(size_t(M * N) * 4);
  da.put(a);
  db.put(b);
  CHECK_CU(mm_i8(nullptr, da.p, db.p, dc.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  auto c = dc.get<int32_t>(size_t(M * N));
  size_t bad = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t r = 0;
      for (int64_t k = 0; k < K; ++k) r += int64_t(a[size_t(i * K + k)]) * b[size_t(k * N + j)];
      bad += c[size_t(i * N + j)] != int32_t(r);
    }
  verdict("mma i8 -> i32 " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + (ones ? " ones" : ""),
          bad == 0, std::to_string(bad) + " wrong");
}

void check_mm_f64(int64_t M, int64_t N, int64_t K) {
  std::vector<double> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(K * N));
  for (auto& v : a) v = uniform(-1.f, 1.f);
  for (auto& v : b) v = uniform(-1.f, 1.f);
  Buf da(a.size() * 8), db(b.size() * 8), dc(size_t(M * N) * 8);
  da.put(a);
  db.put(b);
  CHECK_CU(mm_f64(nullptr, da.p, db.p, dc.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  auto c = dc.get<double>(size_t(M * N));
  double num = 0, den = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double r = 0;
      for (int64_t k = 0; k < K; ++k) r += a[size_t(i * K + k)] * b[size_t(k * N + j)];
      num += (c[size_t(i * N + j)] - r) * (c[size_t(i * N + j)] - r);
      den += r * r;
    }
  double err = std::sqrt(num / (den ? den : 1));
  char d[80];
  std::snprintf(d, sizeof d, "rel err %.2e", err);
  verdict("mma f64 " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K), err < 1e-12, d);
}

// f8 x f8 -> f32 products of both dtypes (mm_f8), with bytes of finite values up to 4 in
// magnitude (subnormals included), against float64 products of the decoded values.
void check_mm_f8(int64_t M, int64_t N, int64_t K) {
  std::vector<uint8_t> e4, e5;  // the bytes allowed as inputs
  for (int b = 0; b < 256; ++b) {
    if (std::fabs(f8_value(uint8_t(b), false)) <= 4) e4.push_back(uint8_t(b));
    if (std::fabs(f8_value(uint8_t(b), true)) <= 4) e5.push_back(uint8_t(b));
  }
  auto pick = [](const std::vector<uint8_t>& from, size_t n) {
    std::vector<uint8_t> v(n);
    for (auto& x : v) x = from[rng() % from.size()];
    return v;
  };
  auto a = pick(e4, size_t(M * K)), b = pick(e4, size_t(K * N)), a2 = pick(e5, size_t(M * K)), b2 = pick(e5, size_t(K * N));
  Buf da(a.size()), db(b.size()), da2(a2.size()), db2(b2.size()), dc(size_t(M * N) * 4), dc2(size_t(M * N) * 4);
  da.put(a);
  db.put(b);
  da2.put(a2);
  db2.put(b2);
  CHECK_CU(mm_f8(nullptr, da.p, db.p, da2.p, db2.p, dc.p, dc2.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  auto c = dc.get<float>(size_t(M * N)), c2 = dc2.get<float>(size_t(M * N));
  std::string sz = " " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  for (int e5m2 = 0; e5m2 < 2; ++e5m2) {
    const auto& x = e5m2 ? a2 : a;
    const auto& y = e5m2 ? b2 : b;
    const auto& got = e5m2 ? c2 : c;
    double num = 0, den = 0;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double r = 0;
        for (int64_t k = 0; k < K; ++k)
          r += f8_value(x[size_t(i * K + k)], e5m2) * f8_value(y[size_t(k * N + j)], e5m2);
        double d = got[size_t(i * N + j)] - r;
        num += d * d;
        den += r * r;
      }
    double err = std::sqrt(num / (den ? den : 1));
    char d[80];
    std::snprintf(d, sizeof d, "rel err %.2e", err);
    verdict(std::string("mma ") + (e5m2 ? "f8e5m2" : "f8e4m3") + " -> f32" + sz, err < 1e-3, d);
  }
}

// mm_small: an 8x8 @ 8x4 product (padded to one m16n8k16 instruction inside, 8 warps of
// which 7 hold copies) of f16-rounded inputs, and a @ b in f32. Ragged extents 5x7x3.
void check_mm_small() {
  const int64_t M = 5, K = 7, N = 3;
  std::vector<float> a(size_t(M * K)), b(size_t(K * N));
  for (auto& v : a) v = std::round(uniform(-1.f, 1.f) * 64) / 64;  // exact in f16
  for (auto& v : b) v = std::round(uniform(-1.f, 1.f) * 64) / 64;
  Buf da(a.size() * 4), db(b.size() * 4), dc(size_t(M * N) * 4), dd(size_t(M * N) * 4);
  da.put(a);
  db.put(b);
  CHECK_CU(mm_small(nullptr, da.p, db.p, dc.p, dd.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  auto c = dc.get<float>(size_t(M * N)), d = dd.get<float>(size_t(M * N));
  size_t bad = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double r = 0;  // exact: products of f16 values summed in f64
      for (int64_t k = 0; k < K; ++k) r += double(a[size_t(i * K + k)]) * b[size_t(k * N + j)];
      bad += std::fabs(c[size_t(i * N + j)] - r) > 1e-6 * (1 + std::fabs(r));
      bad += d[size_t(i * N + j)] != float(r);
    }
  verdict("mma 8x8 @ 8x4 padded, 8 warps; a @ b f32", bad == 0, std::to_string(bad) + " wrong");
}

// ---- gather / scatter ----------------------------------------------------------------------

// Random element indices into [0, extent), about 1 in 8 out of range (negative or past the end).
template <typename I>
I random_index(int64_t extent) {
  uint64_t k = rng() % 16;
  if (k == 0) return I(-1 - int64_t(rng() % 5));
  if (k == 1) return I(extent + int64_t(rng() % 5));
  return I(int64_t(rng() % uint64_t(std::max<int64_t>(extent, 1))));
}

void check_gather(int64_t R, int64_t C, size_t n) {
  size_t rc = size_t(R * C);
  std::vector<float> src(rc), dst0(rc);
  std::vector<uint16_t> h(rc);
  std::vector<int8_t> b8(rc);
  std::vector<uint8_t> bb(rc);
  for (size_t i = 0; i < rc; ++i) {
    src[i] = uniform(-100.f, 100.f);
    dst0[i] = uniform(-1.f, 1.f);
    h[i] = f16_bits(uniform(-4.f, 4.f));
    b8[i] = int8_t(rng());
    bb[i] = uint8_t(rng() & 1);
  }
  std::vector<int32_t> ri(n), si(n), sj(n);
  std::vector<int64_t> ci(n);
  std::vector<uint8_t> keep(n);
  // Scatter targets: distinct positions (a shuffled prefix of the array) or outside it.
  std::vector<size_t> perm(rc);
  for (size_t i = 0; i < rc; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  for (size_t i = 0; i < n; ++i) {
    ri[i] = random_index<int32_t>(R);
    ci[i] = random_index<int64_t>(C);
    keep[i] = rng() % 8 != 0;
    if (i < rc && rng() % 8 != 0) {
      si[i] = int32_t(perm[i] / size_t(C));
      sj[i] = int32_t(perm[i] % size_t(C));
    } else {
      si[i] = (rng() & 1) ? -1 : int32_t(R + 2);
      sj[i] = int32_t(rng() % uint64_t(C));
    }
  }
  Buf dsrc(rc * 4), dri(n * 4), dci(n * 8), dkeep(n), dg(n * 4), ddst(rc * 4), dh(rc * 2), dgh(n * 2), db8(rc),
      dg8(n), dbb(rc), dgb(n), dsi(n * 4), dsj(n * 4), dgrid(16 * 64 * 4);
  dsrc.put(src);
  dri.put(ri);
  dci.put(ci);
  dkeep.put(keep);
  ddst.put(dst0);
  dh.put(h);
  db8.put(b8);
  dbb.put(bb);
  dsi.put(si);
  dsj.put(sj);
  CHECK_CU(gather_scatter(nullptr, dsrc.p, dri.p, dci.p, dkeep.p, dg.p, ddst.p, dh.p, dgh.p, db8.p, dg8.p, dbb.p, dgb.p,
                          dsi.p, dsj.p, dgrid.p, R, C, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  auto g = dg.get<float>(n);
  auto gh = dgh.get<uint16_t>(n);
  auto g8 = dg8.get<int8_t>(n);
  auto gb = dgb.get<uint8_t>(n);
  auto dst = ddst.get<float>(rc);
  auto grid = dgrid.get<float>(16 * 64);
  size_t bad[6] = {};
  std::vector<float> want = dst0;
  for (size_t i = 0; i < n; ++i) {
    bool in = ri[i] >= 0 && ri[i] < R && ci[i] >= 0 && ci[i] < C;
    size_t at = in ? size_t(ri[i]) * size_t(C) + size_t(ci[i]) : 0;
    float v = in && keep[i] ? src[at] : -7.f;
    bad[0] += g[i] != v;
    bad[1] += gh[i] != (in ? h[at] : 0);
    bad[2] += g8[i] != (in ? b8[at] : -3);
    bad[3] += gb[i] != (in ? bb[at] : 1);
    if (keep[i] && si[i] >= 0 && si[i] < R && sj[i] >= 0 && sj[i] < C) want[size_t(si[i]) * size_t(C) + size_t(sj[i])] = v * 2.f + 1.f;
  }
  for (size_t i = 0; i < rc; ++i) bad[4] += dst[i] != want[i];
  for (int a = 0; a < 16; ++a)
    for (int b = 0; b < 64; ++b) {
      int64_t r = 3 * a - 2, c = 2 * b - 5;
      float v = r >= 0 && r < R && c >= 0 && c < C ? src[size_t(r * C + c)] : 0.5f;
      bad[5] += grid[size_t(a * 64 + b)] != v;
    }
  const char* names[] = {"gather f32 (mask, i32+i64 indices)", "gather f16", "gather i8", "gather bool",
                         "scatter f32 (mask)", "gather 2-D broadcast indices"};
  for (int k = 0; k < 6; ++k)
    verdict(std::string(names[k]) + " " + std::to_string(R) + "x" + std::to_string(C) + " n=" + std::to_string(n),
            bad[k] == 0, std::to_string(bad[k]) + " wrong");
}

// i32 indices into a u8 array of more than 2^32 bytes: the offsets must be 64-bit.
void check_gather_far() {
  const int64_t R = 70000, C = 70000;  // 4.9e9 bytes
  Buf big(size_t(R * C));
  std::vector<int32_t> ri(16), ci(16);
  std::vector<uint8_t> val(16);
  for (int k = 0; k < 16; ++k) {
    ri[size_t(k)] = int32_t(R - 1 - 3 * k);
    ci[size_t(k)] = int32_t(C - 1 - 7 * k);
    val[size_t(k)] = uint8_t(rng() % 200);
  }
  ri[3] = -1;             // out of range
  ci[5] = int32_t(C);     // out of range
  for (int k = 0; k < 16; ++k)
    if (ri[size_t(k)] >= 0 && ci[size_t(k)] < C)
      CHECK_CU(cuMemcpyHtoD(big.p + CUdeviceptr(int64_t(ri[size_t(k)]) * C + ci[size_t(k)]), &val[size_t(k)], 1));
  Buf dri(64), dci(64), dout(16);
  dri.put(ri);
  dci.put(ci);
  CHECK_CU(gather_far(nullptr, big.p, dri.p, dci.p, dout.p, R, C));
  CHECK_CU(cuCtxSynchronize());
  auto out = dout.get<uint8_t>(16);
  size_t bad = 0;
  for (int k = 0; k < 16; ++k) {
    bool in = ri[size_t(k)] >= 0 && ci[size_t(k)] < C;
    bad += out[size_t(k)] != (in ? val[size_t(k)] : 0);
    if (in) {
      uint8_t back = 0;
      CHECK_CU(cuMemcpyDtoH(&back, big.p + CUdeviceptr(int64_t(ri[size_t(k)]) * C + ci[size_t(k)]), 1));
      bad += back != uint8_t(val[size_t(k)] + 1);
    }
  }
  verdict("gather/scatter past 2^32 bytes", bad == 0, std::to_string(bad) + " wrong");
}

// ---- atomics -------------------------------------------------------------------------------

// Element values of one dtype as bits, with the arithmetic the atomics do.
enum class Dt { F32, F64, F16, BF16, I32, U32, I64, U64, I16, U16, I8, U8, Bool };

struct DtInfo {
  const char* name;
  int bytes;
  bool fl, sgn;
};

DtInfo info(Dt d) {
  switch (d) {
    case Dt::F32: return {"f32", 4, true, true};
    case Dt::F64: return {"f64", 8, true, true};
    case Dt::F16: return {"f16", 2, true, true};
    case Dt::BF16: return {"bf16", 2, true, true};
    case Dt::I32: return {"i32", 4, false, true};
    case Dt::U32: return {"u32", 4, false, false};
    case Dt::I64: return {"i64", 8, false, true};
    case Dt::U64: return {"u64", 8, false, false};
    case Dt::I16: return {"i16", 2, false, true};
    case Dt::U16: return {"u16", 2, false, false};
    case Dt::I8: return {"i8", 1, false, true};
    case Dt::U8: return {"u8", 1, false, false};
    default: return {"bool", 1, false, false};
  }
}

uint64_t width_mask(Dt d) { return info(d).bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * info(d).bytes)) - 1; }

double to_double(Dt d, uint64_t b) {
  switch (d) {
    case Dt::F32: {
      float f;
      uint32_t u = uint32_t(b);
      std::memcpy(&f, &u, 4);
      return f;
    }
    case Dt::F64: {
      double f;
      std::memcpy(&f, &b, 8);
      return f;
    }
    case Dt::F16: return f16_float(uint16_t(b));
    default: return bf16_float(uint16_t(b));
  }
}

uint64_t from_double(Dt d, double v) {
  switch (d) {
    case Dt::F32: {
      float f = float(v);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      return u;
    }
    case Dt::F64: {
      uint64_t u;
      std::memcpy(&u, &v, 8);
      return u;
    }
    case Dt::F16: return f16_bits(float(v));
    default: return bf16_bits(float(v));
  }
}

int64_t to_int(Dt d, uint64_t b) {
  int bits = 8 * info(d).bytes;
  if (!info(d).sgn || bits == 64) return int64_t(b);
  return int64_t(b << (64 - bits)) >> (64 - bits);
}

bool is_nan(Dt d, uint64_t b) { return info(d).fl && std::isnan(to_double(d, b)); }

enum AOp { kAdd, kMax, kMin, kXchg, kCas, kAnd, kOr, kXor };

// The new value of an element holding `a` after op with value `v` (and expected `e` for cas).
uint64_t apply(Dt d, AOp op, uint64_t a, uint64_t v, uint64_t e) {
  uint64_t m = width_mask(d);
  bool fl = info(d).fl;
  switch (op) {
    case kAdd:
      if (fl) return from_double(d, to_double(d, a) + to_double(d, v));  // one rounding (exact sums of the
      return (a + v) & m;                                                 // dtype's values in double)
    case kMax:
    case kMin: {
      if (fl) {
        double x = to_double(d, a), y = to_double(d, v);
        if (std::isnan(x) || std::isnan(y)) return from_double(d, NAN);
        return (op == kMax) == (y > x) ? v : a;
      }
      bool less = info(d).sgn ? to_int(d, v) < to_int(d, a) : v < a;
      bool greater = info(d).sgn ? to_int(d, v) > to_int(d, a) : v > a;
      return (op == kMax ? greater : less) ? v : a;
    }
    case kXchg: return v;
    case kCas: return a == e ? v : a;
    case kAnd: return a & v;
    case kOr: return a | v;
    default: return (a ^ v) & m;
  }
}

uint64_t get_bits(const std::vector<uint8_t>& buf, Dt d, size_t i) {
  uint64_t b = 0;
  std::memcpy(&b, buf.data() + i * size_t(info(d).bytes), size_t(info(d).bytes));
  return b;
}

void put_bits(std::vector<uint8_t>& buf, Dt d, size_t i, uint64_t b) {
  std::memcpy(buf.data() + i * size_t(info(d).bytes), &b, size_t(info(d).bytes));
}

// A random value for max/min/xchg/cas/and/or/xor: full-width integers, floats of either sign.
uint64_t random_value(Dt d) {
  if (d == Dt::Bool) return rng() & 1;
  if (!info(d).fl) return rng() & width_mask(d);
  return from_double(d, double(uniform(-100.f, 100.f)));
}

// The old values `olds` (in some order) and the final value of one element are a valid
// serialization of the ops from `init` when (1) the ops that changed the value chain from init
// to final: the multiset {init} + {new of each} equals {old of each} + {final}; and (2) every op
// that left the value unchanged saw a value the element held at some point.
bool serializable(Dt d, AOp op, uint64_t init, uint64_t fin, const std::vector<uint64_t>& olds,
                  const std::vector<uint64_t>& vals, const std::vector<uint64_t>& exps) {
  std::multiset<uint64_t> from{init}, to{fin};
  std::set<uint64_t> states{init};
  std::vector<uint64_t> unchanged;
  for (size_t i = 0; i < olds.size(); ++i) {
    uint64_t nw = apply(d, op, olds[i], vals[i], exps.empty() ? 0 : exps[i]);
    if (nw == olds[i]) {
      unchanged.push_back(olds[i]);
      continue;
    }
    from.insert(nw);
    to.insert(olds[i]);
    states.insert(nw);
  }
  if (from != to) return false;
  for (uint64_t o : unchanged)
    if (!states.count(o)) return false;
  return true;
}

// atomics_<dtype> kernels: 11 rows per dtype (see ops.tile).
template <typename Launch>
void check_atomics(Dt d, size_t n, int64_t nb, bool i64_idx, bool u32_idx, Launch launch) {
  const DtInfo di = info(d);
  const int rows = 11;
  bool ints = !di.fl && d != Dt::Bool;
  std::vector<int64_t> idx(n);
  std::vector<int32_t> m(n);
  std::vector<uint8_t> v(n * size_t(di.bytes)), u(n * size_t(di.bytes)), w(n * size_t(di.bytes));
  std::vector<uint8_t> acc(size_t(rows * nb) * size_t(di.bytes));
  for (size_t i = 0; i < n; ++i) {
    idx[i] = u32_idx ? ((rng() % 16 == 0) ? int64_t(nb + int64_t(rng() % 3)) : int64_t(rng() % uint64_t(nb)))
                     : random_index<int64_t>(nb);
    m[i] = int32_t(rng() % 10 != 0);
    // add values: small (float sums stay exact), never 0 for the integers
    put_bits(v, d, i, di.fl ? from_double(d, double(1 + rng() % 2)) : 1 + rng() % 3);
    put_bits(u, d, i, random_value(d));
  }
  if (di.fl)  // NaNs: max/min propagate them, xchg/cas move their bits
    for (size_t i = 0; i < n; i += 97) put_bits(u, d, i, from_double(d, NAN));
  for (int64_t j = 0; j < rows * nb; ++j)
    put_bits(acc, d, size_t(j), j / nb == 0 || j / nb == 5 ? (di.fl ? from_double(d, double(rng() % 4)) : rng() % 4)
                                                            : random_value(d));
  // cas: expect a value the element may hold (its initial value, or another element's value)
  std::vector<std::vector<size_t>> members(static_cast<size_t>(nb));
  for (size_t i = 0; i < n; ++i)
    if (idx[i] >= 0 && idx[i] < nb) members[size_t(idx[i])].push_back(i);
  for (size_t i = 0; i < n; ++i) {
    uint64_t e = random_value(d);
    if (idx[i] >= 0 && idx[i] < nb) {
      const auto& mb = members[size_t(idx[i])];
      size_t k = rng() % (mb.size() + 1);
      e = k == mb.size() ? get_bits(acc, d, size_t(4 * nb + idx[i])) : get_bits(u, d, mb[k]);
    }
    put_bits(w, d, i, e);
  }
  // 8-bit atomics CAS the halfword holding the element: one spare byte keeps it in the allocation.
  Buf didx(n * 8), dv(v.size()), du(u.size()), dw(w.size()), dm(n * 4), dacc(acc.size() + 1), dold(size_t(rows) * n * size_t(di.bytes));
  if (i64_idx) didx.put(idx);
  else {
    std::vector<int32_t> i32(idx.begin(), idx.end());
    didx.put(i32);
  }
  dv.put(v);
  du.put(u);
  dw.put(w);
  if (d == Dt::Bool) {
    std::vector<uint8_t> mb(m.begin(), m.end());
    dm.put(mb);
  } else {
    dm.put(m);
  }
  dacc.put(acc);
  CHECK_CU(launch(didx.p, dv.p, du.p, dw.p, dm.p, dacc.p, dold.p, int64_t(n), nb));
  CHECK_CU(cuCtxSynchronize());
  auto fin = dacc.get<uint8_t>(acc.size());
  auto old = dold.get<uint8_t>(size_t(rows) * n * size_t(di.bytes));
  struct Row {
    int row;
    AOp op;
    bool returns;
    const char* name;
  };
  std::vector<Row> todo;
  if (d == Dt::Bool) {
    todo = {{3, kXchg, true, "xchg"}, {4, kCas, true, "cas"}};
  } else {
    todo = {{0, kAdd, true, "add"}, {1, kMax, true, "max"}, {2, kMin, true, "min"}, {3, kXchg, true, "xchg"},
            {4, kCas, true, "cas"}, {5, kAdd, false, "add (no result)"}, {6, kMax, false, "max (no result)"}};
    if (ints) {
      todo.push_back({7, kAnd, true, "and"});
      todo.push_back({8, kOr, true, "or"});
      todo.push_back({9, kXor, true, "xor"});
      todo.push_back({10, kOr, false, "or (no result)"});
    }
  }
  for (const Row& r : todo) {
    size_t bad_old = 0, bad_fin = 0, bad_skip = 0;
    for (int64_t b = 0; b < nb; ++b) {
      std::vector<uint64_t> olds, vals, exps;
      bool nan_bin = false;
      for (size_t i : members[size_t(b)]) {
        if (!m[i]) continue;
        uint64_t val = get_bits(r.op == kAdd ? v : u, d, i);
        nan_bin = nan_bin || is_nan(d, val);
        vals.push_back(val);
        if (r.op == kCas) exps.push_back(get_bits(w, d, i));
        if (r.returns) olds.push_back(get_bits(old, d, size_t(r.row) * n + i));
      }
      uint64_t init = get_bits(acc, d, size_t(r.row * nb + b)), got = get_bits(fin, d, size_t(r.row * nb + b));
      if ((r.op == kMax || r.op == kMin) && nan_bin) {  // NaN wins whatever the order
        bad_fin += !is_nan(d, got);
        continue;
      }
      if (r.returns) {
        if (!serializable(d, r.op, init, got, olds, vals, exps)) ++bad_old;
        continue;
      }
      // No old values: the final value of an order-independent op.
      uint64_t want = init;
      double exact = di.fl ? to_double(d, init) : 0;
      for (uint64_t x : vals) {
        want = apply(d, r.op, want, x, 0);
        if (di.fl) exact += to_double(d, x);
      }
      // f16/bf16 sums past 2^11 / 2^8 round differently in each order (and may stall): unchecked.
      double exact_limit = d == Dt::F16 ? 2048 : d == Dt::BF16 ? 256 : 1e15;
      if (r.op == kAdd && di.fl) bad_fin += std::fabs(exact) <= exact_limit && std::fabs(to_double(d, got) - exact) > 1e-3 * std::fabs(exact);
      else bad_fin += got != want;
    }
    // Elements masked off or out of range return 0.
    if (r.returns)
      for (size_t i = 0; i < n; ++i)
        if (!(m[i] && idx[i] >= 0 && idx[i] < nb)) bad_skip += get_bits(old, d, size_t(r.row) * n + i) != 0;
    char detail[200];
    std::snprintf(detail, sizeof detail, "%zu bins not serializable, %zu wrong finals, %zu skipped elements not 0",
                  bad_old, bad_fin, bad_skip);
    verdict(std::string("atomic_") + r.name + " " + di.name + " n=" + std::to_string(n) + " bins=" + std::to_string(nb),
            bad_old + bad_fin + bad_skip == 0, detail);
  }
}

#define ATOMICS_LAUNCH(fn) \
  [](CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, CUdeviceptr e, CUdeviceptr f, CUdeviceptr g, CUdeviceptr h, int64_t n, int64_t nb) { \
    return fn(nullptr, a, b, c, e, f, g, h, n, nb);                                                                                    \
  }

void check_all_atomics(size_t n, int64_t nb) {
  check_atomics(Dt::F32, n, nb, false, false, ATOMICS_LAUNCH(atomics_f32));
  check_atomics(Dt::F64, n, nb, true, false, ATOMICS_LAUNCH(atomics_f64));
  check_atomics(Dt::F16, n, nb, false, false, ATOMICS_LAUNCH(atomics_f16));
  check_atomics(Dt::BF16, n, nb, false, false, ATOMICS_LAUNCH(atomics_bf16));
  check_atomics(Dt::I32, n, nb, false, false, ATOMICS_LAUNCH(atomics_i32));
  check_atomics(Dt::U32, n, nb, false, true, ATOMICS_LAUNCH(atomics_u32));
  check_atomics(Dt::I64, n, nb, true, false, ATOMICS_LAUNCH(atomics_i64));
  check_atomics(Dt::U64, n, nb, false, false, ATOMICS_LAUNCH(atomics_u64));
  check_atomics(Dt::I16, n, nb, false, false, ATOMICS_LAUNCH(atomics_i16));
  check_atomics(Dt::U16, n, nb, false, false, ATOMICS_LAUNCH(atomics_u16));
  check_atomics(Dt::I8, n, nb, false, false, ATOMICS_LAUNCH(atomics_i8));
  check_atomics(Dt::U8, n, nb, false, false, ATOMICS_LAUNCH(atomics_u8));
  check_atomics(Dt::Bool, n, nb, false, false,
                [](CUdeviceptr a, CUdeviceptr, CUdeviceptr c, CUdeviceptr e, CUdeviceptr f, CUdeviceptr g, CUdeviceptr h,
                   int64_t n, int64_t nb) { return atomics_bool(nullptr, a, c, e, f, g, h, n, nb); });
}

// Scalar atomics (tickets), a replicated small tile, and compare-and-swap loops in the language.
void check_atomics_misc(int64_t nblocks, int64_t nb) {
  const int64_t at = 128;
  size_t n = size_t(nblocks * at);
  std::vector<int32_t> small0(16), pi0(static_cast<size_t>(nb)), idx(n), xi(n);
  std::vector<float> fi0(static_cast<size_t>(nb)), xf(n);
  const float pow2[] = {0.5f, 2.f, -1.f, 1.f};  // exact products in any order
  for (auto& s : small0) s = int32_t(rng() % 1000);
  for (auto& p : pi0) p = int32_t(rng() | 1);
  for (auto& f : fi0) f = 1.f;
  for (size_t i = 0; i < n; ++i) {
    idx[i] = random_index<int32_t>(nb);
    xi[i] = int32_t(rng());
    xf[i] = pow2[rng() % 4];
  }
  Buf dcounter(4), dtickets(size_t(nblocks) * 4), dhist(16), dsmall(64), dolds(size_t(nblocks) * 64), dpi(size_t(nb) * 4),
      dfi(size_t(nb) * 4), didx(n * 4), dxi(n * 4), dxf(n * 4);
  CHECK_CU(cuMemsetD8(dcounter.p, 0, 4));
  CHECK_CU(cuMemsetD8(dhist.p, 0, 16));
  dsmall.put(small0);
  dpi.put(pi0);
  dfi.put(fi0);
  didx.put(idx);
  dxi.put(xi);
  dxf.put(xf);
  CHECK_CU(atomics_misc(nullptr, dcounter.p, dtickets.p, dhist.p, dsmall.p, dolds.p, dpi.p, dfi.p, didx.p, dxi.p, dxf.p,
                        nblocks, nb, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  auto counter = dcounter.get<int32_t>(1);
  auto tickets = dtickets.get<int32_t>(size_t(nblocks));
  auto hist = dhist.get<int32_t>(4);
  auto small = dsmall.get<int32_t>(16);
  auto olds = dolds.get<int32_t>(size_t(nblocks) * 16);
  auto pi = dpi.get<int32_t>(size_t(nb));
  auto fi = dfi.get<float>(size_t(nb));
  std::vector<int32_t> sorted = tickets;
  std::sort(sorted.begin(), sorted.end());
  bool tickets_ok = counter[0] == nblocks;
  for (int64_t t = 0; t < nblocks; ++t) tickets_ok = tickets_ok && sorted[size_t(t)] == t;
  verdict("atomic_add scalar tickets nblocks=" + std::to_string(nblocks), tickets_ok, "");
  bool hist_ok = true;
  for (int k = 0; k < 4; ++k) hist_ok = hist_ok && hist[size_t(k)] == (nblocks - k + 3) / 4;
  verdict("atomic_add scalar index", hist_ok, "");
  size_t bad_small = 0;
  for (int e = 0; e < 16; ++e) {
    std::vector<uint64_t> o, v;
    for (int64_t t = 0; t < nblocks; ++t) {
      o.push_back(uint32_t(olds[size_t(t * 16 + e)]));
      v.push_back(uint32_t(e + t));
    }
    bad_small += !serializable(Dt::I32, kAdd, uint32_t(small0[size_t(e)]), uint32_t(small[size_t(e)]), o, v, {});
  }
  verdict("atomic_add replicated (16,) tile, old values", bad_small == 0, std::to_string(bad_small) + " elements wrong");
  std::vector<uint32_t> pw(pi0.begin(), pi0.end());
  std::vector<float> fw = fi0;
  for (size_t i = 0; i < n; ++i)
    if (idx[i] >= 0 && idx[i] < nb) {
      pw[size_t(idx[i])] *= uint32_t(xi[i]);
      fw[size_t(idx[i])] *= xf[i];
    }
  size_t bp = 0, bf = 0;
  for (int64_t b = 0; b < nb; ++b) {
    bp += uint32_t(pi[size_t(b)]) != pw[size_t(b)];
    bf += fi[size_t(b)] != fw[size_t(b)];
  }
  verdict("atomic_cas loop: i32 multiply, bins=" + std::to_string(nb), bp == 0, std::to_string(bp) + " wrong");
  verdict("atomic_cas loop: f32 multiply, bins=" + std::to_string(nb), bf == 0, std::to_string(bf) + " wrong");
}

// Whether atom.add/red.add flush subnormals (reported, not judged).
void report_atomic_subnormals() {
  Buf da(16), dh(8), dold(16), dhold(8);
  CHECK_CU(cuMemsetD8(da.p, 0, 16));
  CHECK_CU(cuMemsetD8(dh.p, 0, 8));
  CHECK_CU(atomic_subnormals(nullptr, da.p, dh.p, dold.p, dhold.p));
  CHECK_CU(cuCtxSynchronize());
  auto a = da.get<float>(4);
  auto h = dh.get<uint16_t>(4);
  std::printf("%-40s info  f32 atom %g red %g (1e-40 if kept); f16 atom %g red %g (about 1.19e-07 if kept)\n",
              "atomic_add of subnormals", a[0], a[2], f16_float(h[0]), f16_float(h[2]));
}

// ---- scans ---------------------------------------------------------------------------------

// Inclusive scan reference inside (bm, bn) tiles of an M x N array, along `axis`.
template <typename T, typename Acc, typename Op>
std::vector<Acc> tile_scan(const std::vector<T>& x, int64_t M, int64_t N, int64_t bm, int64_t bn, int axis, Acc init, Op op) {
  std::vector<Acc> out(x.size());
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      Acc a = init;
      if (axis == 1)
        for (int64_t c = j - j % bn; c <= j; ++c) a = op(a, Acc(x[size_t(i * N + c)]));
      else
        for (int64_t r = i - i % bm; r <= i; ++r) a = op(a, Acc(x[size_t(r * N + j)]));
      out[size_t(i * N + j)] = a;
    }
  return out;
}

template <typename G, typename R>
size_t count_bad_close(const std::vector<G>& got, const std::vector<R>& ref, const std::vector<R>& scale, double rel,
                       double floor) {
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(double(got[i]) - double(ref[i])) <= rel * double(scale[i]) + floor)) ++bad;
  return bad;
}

void check_scans(int64_t M, int64_t N) {
  size_t mn = size_t(M * N);
  std::vector<float> x(mn), x1(mn);
  std::vector<int32_t> ix(mn);
  std::vector<uint16_t> h(mn);
  std::vector<int8_t> b8(mn);
  for (size_t i = 0; i < mn; ++i) {
    x[i] = uniform(-1.f, 1.f);
    x1[i] = uniform(0.95f, 1.05f);
    ix[i] = int32_t(rng());
    h[i] = f16_bits(uniform(-1.f, 1.f));
    b8[i] = int8_t(rng());
  }
  auto add = [](auto a, auto b) { return a + b; };
  auto absadd = [](double a, double b) { return a + std::fabs(b); };
  int64_t nt = (N + 255) / 256;
  std::string sz = " " + std::to_string(M) + "x" + std::to_string(N);
  {
    Buf dx(mn * 4), dix(mn * 4), dh(mn * 2), db8(mn), ds1(mn * 4), ds0(mn * 4), dp1(mn * 4), di1(mn * 4), di0(mn * 4),
        dh0(mn * 2), db1(mn * 4), drs(size_t(M * nt) * 4);
    dx.put(x);
    dix.put(ix);
    dh.put(h);
    db8.put(b8);
    Buf dx1(mn * 4);
    dx1.put(x1);
    // p1 scans x1 (values near 1); the kernel reads x for everything else.
    CHECK_CU(scans_rows(nullptr, dx.p, dx1.p, dix.p, dh.p, db8.p, ds1.p, ds0.p, dp1.p, di1.p, di0.p, dh0.p, db1.p, drs.p, M, N, nt));
    CHECK_CU(cuCtxSynchronize());
    auto s1 = ds1.get<float>(mn), s0 = ds0.get<float>(mn), p1 = dp1.get<float>(mn);
    auto i1 = di1.get<int32_t>(mn), i0 = di0.get<int32_t>(mn), b1 = db1.get<int32_t>(mn);
    auto h0 = dh0.get<uint16_t>(mn);
    auto rs = drs.get<float>(size_t(M * nt));
    auto r1 = tile_scan(x, M, N, 16, 256, 1, 0.0, add), a1 = tile_scan(x, M, N, 16, 256, 1, 0.0, absadd);
    auto r0 = tile_scan(x, M, N, 16, 256, 0, 0.0, add), a0 = tile_scan(x, M, N, 16, 256, 0, 0.0, absadd);
    auto rp = tile_scan(x1, M, N, 16, 256, 1, 1.0, [](double a, double b) { return a * b; });
    std::vector<double> ones(mn, 1.0), hv(mn), hs(mn), hgot(mn);
    for (size_t i = 0; i < mn; ++i) hv[i] = f16_float(h[i]);
    auto rh = tile_scan(hv, M, N, 16, 256, 0, 0.0, add), ah = tile_scan(hv, M, N, 16, 256, 0, 0.0, absadd);
    for (size_t i = 0; i < mn; ++i) {
      hgot[i] = f16_float(h0[i]);
      hs[i] = ah[i] * 0.01 + std::fabs(rh[i]) * 0.5;  // f32 sums (1e-5), one f16 rounding (2^-11)
    }
    auto ri1 = tile_scan(ix, M, N, 16, 256, 1, uint32_t(0), [](uint32_t a, uint32_t b) { return a + b; });
    auto ri0 = tile_scan(ix, M, N, 16, 256, 0, uint32_t(1), [](uint32_t a, uint32_t b) { return a * b; });
    auto rb1 = tile_scan(b8, M, N, 16, 256, 1, int32_t(0), [](int32_t a, int32_t b) { return a + b; });
    size_t bi1 = 0, bi0 = 0, bb1 = 0;
    for (size_t i = 0; i < mn; ++i) {
      bi1 += uint32_t(i1[i]) != ri1[i];
      bi0 += uint32_t(i0[i]) != ri0[i];
      bb1 += b1[i] != rb1[i];
    }
    // row sums scanned down each 16-row tile, one column per column tile
    size_t brs = 0;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t t = 0; t < nt; ++t) {
        double ref = 0, sc = 0;
        for (int64_t r = i - i % 16; r <= i; ++r)
          for (int64_t c = t * 256; c < std::min(N, (t + 1) * 256); ++c) {
            ref += x[size_t(r * N + c)];
            sc += std::fabs(x[size_t(r * N + c)]);
          }
        brs += !(std::fabs(rs[size_t(i * nt + t)] - ref) <= 1e-5 * sc + 1e-6);
      }
    verdict("cumsum f32 (16,256) axis 1" + sz, count_bad_close(s1, r1, a1, 1e-5, 1e-6) == 0, "");
    verdict("cumsum f32 (16,256) axis 0" + sz, count_bad_close(s0, r0, a0, 1e-5, 1e-6) == 0, "");
    std::vector<double> rp_scale(mn);
    for (size_t i = 0; i < mn; ++i) rp_scale[i] = std::fabs(rp[i]) * 300;
    verdict("cumprod f32 (16,256) axis -1" + sz, count_bad_close(p1, rp, rp_scale, 1e-6, 1e-30) == 0, "");
    verdict("cumsum i32 (16,256) axis 1 (wraps)" + sz, bi1 == 0, std::to_string(bi1) + " wrong");
    verdict("cumprod i32 (16,256) axis 0 (wraps)" + sz, bi0 == 0, std::to_string(bi0) + " wrong");
    verdict("cumsum f16 -> f16 (16,256) axis 0" + sz, count_bad_close(hgot, rh, hs, 1e-3, 1e-3) == 0, "");
    verdict("cumsum i8 -> i32 (16,256) axis 1" + sz, bb1 == 0, std::to_string(bb1) + " wrong");
    verdict("cumsum of row sums (slice layout)" + sz, brs == 0, std::to_string(brs) + " wrong");
  }
  {
    Buf dx(mn * 4), ds0(mn * 4), ds1(mn * 4);
    dx.put(x);
    CHECK_CU(scans_cols(nullptr, dx.p, ds0.p, ds1.p, M, N));
    CHECK_CU(cuCtxSynchronize());
    auto s0 = ds0.get<float>(mn), s1 = ds1.get<float>(mn);
    verdict("cumsum f32 (256,16) axis 0" + sz,
            count_bad_close(s0, tile_scan(x, M, N, 256, 16, 0, 0.0, add), tile_scan(x, M, N, 256, 16, 0, 0.0, absadd), 1e-5, 1e-6) == 0, "");
    verdict("cumsum f32 (256,16) axis 1" + sz,
            count_bad_close(s1, tile_scan(x, M, N, 256, 16, 1, 0.0, add), tile_scan(x, M, N, 256, 16, 1, 0.0, absadd), 1e-5, 1e-6) == 0, "");
  }
  {
    std::vector<double> d(mn);
    std::vector<int64_t> l(mn);
    for (size_t i = 0; i < mn; ++i) {
      d[i] = double(x[i]) * 1e10;
      l[i] = int64_t(rng());
    }
    Buf dx(mn * 4), dd(mn * 8), dl(mn * 8), ds1(mn * 4), dd1(mn * 8), dl1(mn * 8);
    dx.put(x);
    dd.put(d);
    dl.put(l);
    CHECK_CU(scans_wide(nullptr, dx.p, dd.p, dl.p, ds1.p, dd1.p, dl1.p, M, N));
    CHECK_CU(cuCtxSynchronize());
    auto s1 = ds1.get<float>(mn);
    auto d1 = dd1.get<double>(mn);
    auto l1 = dl1.get<int64_t>(mn);
    auto rl = tile_scan(l, M, N, 4, 2048, 1, uint64_t(0), [](uint64_t a, uint64_t b) { return a + b; });
    size_t bl = 0;
    for (size_t i = 0; i < mn; ++i) bl += uint64_t(l1[i]) != rl[i];
    verdict("cumsum f32 (4,2048) axis 1, 8 warps" + sz,
            count_bad_close(s1, tile_scan(x, M, N, 4, 2048, 1, 0.0, add), tile_scan(x, M, N, 4, 2048, 1, 0.0, absadd), 1e-5, 1e-6) == 0, "");
    verdict("cumsum f64 (4,2048) axis 1" + sz,
            count_bad_close(d1, tile_scan(d, M, N, 4, 2048, 1, 0.0, add), tile_scan(d, M, N, 4, 2048, 1, 0.0, absadd), 1e-13, 1e-3) == 0, "");
    verdict("cumsum i64 (4,2048) axis 1" + sz, bl == 0, std::to_string(bl) + " wrong");
  }
  {
    // 1-D tiles of 64 and (2, 8) tiles: fewer elements than threads
    size_t n = mn;
    std::vector<uint8_t> u(n), bo(n);
    for (size_t i = 0; i < n; ++i) {
      u[i] = uint8_t(rng());
      bo[i] = uint8_t(rng() & 1);
    }
    Buf dx(n * 4), du(n), dbo(n), ds(n * 4), dus(n * 4), dbs(n * 4), ds2(n * 4);
    dx.put(x);
    du.put(u);
    dbo.put(bo);
    CHECK_CU(scans_small(nullptr, dx.p, du.p, dbo.p, ds.p, dus.p, dbs.p, ds2.p, int64_t(n)));
    CHECK_CU(cuCtxSynchronize());
    auto s = ds.get<float>(n), s2 = ds2.get<float>(n);
    auto us = dus.get<uint32_t>(n);
    auto bs = dbs.get<int32_t>(n);
    size_t bad[4] = {};
    // s2 covers only tiles 0 .. 4*num_blocks-1 of 16 elements; elements past them stay poisoned
    size_t covered = std::min(n, size_t((n + 63) / 64 * 64));
    for (size_t i = 0; i < n; ++i) {
      double r = 0, sc = 0, r8 = 0, sc8 = 0;
      uint32_t ru = 0;
      int32_t rb = 0;
      for (size_t k = i - i % 64; k <= i; ++k) {
        r += x[k];
        sc += std::fabs(x[k]);
        ru += u[k];
        rb += bo[k];
      }
      for (size_t k = i - i % 8; k <= i; ++k) {
        r8 += x[k];
        sc8 += std::fabs(x[k]);
      }
      bad[0] += !(std::fabs(s[i] - r) <= 1e-5 * sc + 1e-6);
      bad[1] += us[i] != ru;
      bad[2] += bs[i] != rb;
      if (i < covered) bad[3] += !(std::fabs(s2[i] - r8) <= 1e-5 * sc8 + 1e-6);
    }
    std::string sn = " n=" + std::to_string(n);
    verdict("cumsum f32 (64,) (wraps the CTA)" + sn, bad[0] == 0, std::to_string(bad[0]) + " wrong");
    verdict("cumsum u8 -> u32 (64,)" + sn, bad[1] == 0, std::to_string(bad[1]) + " wrong");
    verdict("cumsum bool -> i32 (64,)" + sn, bad[2] == 0, std::to_string(bad[2]) + " wrong");
    verdict("cumsum (2,8) axis 1 via reshapes" + sn, bad[3] == 0, std::to_string(bad[3]) + " wrong");
  }
  {
    // 3-D: M x 8 x 32, tiles of (4, 8, 32)
    size_t n3 = size_t(M) * 256;
    std::vector<float> x3(n3);
    for (float& v : x3) v = uniform(-1.f, 1.f);
    Buf dx(n3 * 4), d0(n3 * 4), d1(n3 * 4), d2(n3 * 4);
    dx.put(x3);
    CHECK_CU(scans_3d(nullptr, dx.p, d0.p, d1.p, d2.p, M));
    CHECK_CU(cuCtxSynchronize());
    std::vector<float> got[3] = {d0.get<float>(n3), d1.get<float>(n3), d2.get<float>(n3)};
    size_t bad[3] = {};
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < 8; ++j)
        for (int64_t k = 0; k < 32; ++k) {
          auto at = [&](int64_t a, int64_t b, int64_t c) { return x3[size_t((a * 8 + b) * 32 + c)]; };
          double r[3] = {0, 0, 0}, sc[3] = {0, 0, 0};
          for (int64_t a = i - i % 4; a <= i; ++a) r[0] += at(a, j, k), sc[0] += std::fabs(at(a, j, k));
          for (int64_t b = 0; b <= j; ++b) r[1] += at(i, b, k), sc[1] += std::fabs(at(i, b, k));
          for (int64_t c = 0; c <= k; ++c) r[2] += at(i, j, c), sc[2] += std::fabs(at(i, j, c));
          for (int q = 0; q < 3; ++q)
            bad[q] += !(std::fabs(got[q][size_t((i * 8 + j) * 32 + k)] - r[q]) <= 1e-5 * sc[q] + 1e-6);
        }
    for (int q = 0; q < 3; ++q)
      verdict("cumsum f32 (4,8,32) axis " + std::to_string(q) + " M=" + std::to_string(M), bad[q] == 0,
              std::to_string(bad[q]) + " wrong");
  }
}

// ---- cat, extract, reshape -----------------------------------------------------------------

// ---- histograms ------------------------------------------------------------------------------

// histograms(): per CTA t (elements [1024 t, 1024 t + 1024)), the counts the kernel stores,
// against counts made here element by element.
void check_histograms(size_t n) {
  int64_t nb = int64_t((n + 1023) / 1024);
  std::vector<int32_t> a(n);
  std::vector<uint8_t> keep(n), u(n);
  std::vector<int64_t> w(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = int32_t(rng() % 80) - 8;  // [-8, 72): some negative, some past the 64 bins
    keep[i] = uint8_t(rng() % 4 != 0);
    // past 2^32 with an in-range low word: must not count as the low word's bin
    w[i] = rng() % 16 == 0 ? (int64_t(1) << 32) + int64_t(rng() % 2048) : int64_t(rng() % 2200) - 100;
    u[i] = uint8_t(rng());
  }
  int32_t s = 3;
  Buf da(n * 4), dk(n), dw(n * 8), du(n), dh1(size_t(nb) * 64 * 4), dh2(size_t(nb) * 2048 * 4),
      dh3(size_t(nb) * 256 * 4), dh4(size_t(nb) * 8 * 4);
  da.put(a);
  dk.put(keep);
  dw.put(w);
  du.put(u);
  CHECK_CU(histograms(nullptr, da.p, dk.p, dw.p, du.p, dh1.p, dh2.p, dh3.p, dh4.p, int64_t(n), nb, s));
  CHECK_CU(cuCtxSynchronize());
  auto h1 = dh1.get<int32_t>(size_t(nb) * 64), h2 = dh2.get<int32_t>(size_t(nb) * 2048),
       h3 = dh3.get<int32_t>(size_t(nb) * 256), h4 = dh4.get<int32_t>(size_t(nb) * 8);
  std::vector<int32_t> r1(h1.size()), r2(h2.size()), r3(h3.size()), r4(h4.size());
  for (size_t i = 0; i < n; ++i) {
    size_t t = i / 1024;
    if (keep[i] && a[i] >= 0 && a[i] < 64) ++r1[t * 64 + size_t(a[i])];
    if (w[i] >= 0 && w[i] < 2048) ++r2[t * 2048 + size_t(w[i])];
    ++r3[t * 256 + u[i]];
  }
  for (int64_t t = 0; t < nb; ++t)
    if (s + t < 8) r4[size_t(t * 8 + s + t)] = 1;
  auto wrong = [](const std::vector<int32_t>& got, const std::vector<int32_t>& ref) {
    size_t bad = 0;
    for (size_t i = 0; i < got.size(); ++i) bad += got[i] != ref[i];
    return bad;
  };
  std::string sz = " n=" + std::to_string(n);
  size_t b1 = wrong(h1, r1), b2 = wrong(h2, r2), b3 = wrong(h3, r3), b4 = wrong(h4, r4);
  verdict("histogram i32 64 bins, mask" + sz, b1 == 0, std::to_string(b1) + " bins wrong");
  verdict("histogram i64 (16,64) 2048 bins" + sz, b2 == 0, std::to_string(b2) + " bins wrong");
  verdict("histogram u8 256 bins, loop of 4" + sz, b3 == 0, std::to_string(b3) + " bins wrong");
  verdict("histogram of a scalar" + sz, b4 == 0, std::to_string(b4) + " bins wrong");
}

void check_shapes(int64_t M, int64_t N) {
  size_t mn = size_t(M * N);
  std::vector<float> x(mn);
  std::vector<uint16_t> h(mn);
  for (size_t i = 0; i < mn; ++i) {
    x[i] = uniform(-1.f, 1.f);
    h[i] = f16_bits(uniform(-1.f, 1.f));
  }
  int64_t gm = (M + 15) / 16, gn = (N + 63) / 64;
  size_t nf = size_t(gm * gn * 1024);
  Buf dx(mn * 4), dh(mn * 2), dc1(mn * 4), dc0(mn * 4), de1(mn * 4), de0(mn * 4), dec(mn * 4), dflat(nf * 4), dhc(mn * 2),
      dbc(mn);
  dx.put(x);
  dh.put(h);
  CHECK_CU(shapes(nullptr, dx.p, dh.p, dc1.p, dc0.p, de1.p, de0.p, dec.p, dflat.p, dhc.p, dbc.p, M, N, int64_t(nf)));
  CHECK_CU(cuCtxSynchronize());
  auto c1 = dc1.get<float>(mn), c0 = dc0.get<float>(mn), e1 = de1.get<float>(mn), e0 = de0.get<float>(mn),
       ec = dec.get<float>(mn), flat = dflat.get<float>(nf);
  auto hc = dhc.get<uint16_t>(mn);
  auto bc = dbc.get<uint8_t>(mn);
  auto X = [&](int64_t r, int64_t c) { return r < M && c < N ? x[size_t(r * N + c)] : 0.f; };
  size_t bad[8] = {};
  for (int64_t r = 0; r < M; ++r)
    for (int64_t c = 0; c < N; ++c) {
      size_t i = size_t(r * N + c);
      bad[0] += c1[i] != x[i];
      bad[1] += c0[i] != x[i];
      bad[2] += e1[i] != x[i];
      bad[3] += e0[i] != x[i];
      int64_t r0 = r - r % 16, c0_ = c - c % 64;
      float want = X(r, c) - X(r, c0_ + 3) * 2.f + X(r0 + 5, c);
      bad[4] += !(std::fabs(ec[i] - want) <= 1e-6f);
      bad[6] += hc[i] != h[i];
      bad[7] += bc[i] != uint8_t(x[i] > 0.f);
    }
  for (int64_t i = 0; i < gm; ++i)
    for (int64_t j = 0; j < gn; ++j)
      for (int64_t a = 0; a < 32; ++a)
        for (int64_t b = 0; b < 32; ++b) {
          int64_t q = b * 32 + a;  // transpose(r)[a, b] = r[b, a] = t_flat[b * 32 + a]
          float want = X(i * 16 + q / 64, j * 64 + q % 64);
          bad[5] += flat[size_t((i * gn + j) * 1024 + a * 32 + b)] != want;
        }
  const char* names[] = {"cat axis 1", "cat axis 0", "extract (16,32) halves", "extract (8,64) halves",
                         "extract a column and a row", "reshape/transpose/reshape", "cat f16", "cat bool"};
  for (int k = 0; k < 8; ++k)
    verdict(std::string(names[k]) + " " + std::to_string(M) + "x" + std::to_string(N), bad[k] == 0,
            std::to_string(bad[k]) + " wrong");
}

// ---- swizzle2d -----------------------------------------------------------------------------

// language.md §7.1 (Triton's grouped ordering), for 0 <= i < num_m * num_n: every operand is
// non-negative, so C's / and % are Python's // and %.
std::pair<int64_t, int64_t> swizzle2d_ref(int64_t i, int64_t num_m, int64_t num_n, int64_t group) {
  int64_t width = group * num_n;                   // tiles per band
  int64_t first = i / width * group;               // first tile row of i's band
  int64_t rows = std::min(num_m - first, group);   // rows in this band (the last may be shorter)
  return {first + i % width % rows, i % width / rows};
}

// Every linear tile number of a num_m x num_n grid, in i32 and i64, against the reference; the
// reference itself must visit every tile once.
void check_swizzle2d(int32_t num_m, int32_t num_n, int32_t group) {
  size_t n = size_t(num_m) * size_t(num_n);
  Buf d32(n * 2 * 4), d64(n * 2 * 8);
  CHECK_CU(swizzle(nullptr, d32.p, d64.p, int64_t(n), num_m, num_n, group));
  CHECK_CU(cuCtxSynchronize());
  auto o32 = d32.get<int32_t>(2 * n);
  auto o64 = d64.get<int64_t>(2 * n);
  size_t bad = 0, first = 0;
  std::set<std::pair<int64_t, int64_t>> tiles;
  for (size_t i = 0; i < n; ++i) {
    auto [im, in] = swizzle2d_ref(int64_t(i), num_m, num_n, group);
    if (im >= 0 && im < num_m && in >= 0 && in < num_n) tiles.insert({im, in});
    bool ok = o32[2 * i] == im && o32[2 * i + 1] == in && o64[2 * i] == im && o64[2 * i + 1] == in;
    if (!ok && !bad++) first = i;
  }
  auto [fm, fn] = swizzle2d_ref(int64_t(first), num_m, num_n, group);
  char d[200];
  std::snprintf(d, sizeof d, "%zu wrong%s, first i=%zu: i32 (%d, %d), i64 (%lld, %lld), want (%lld, %lld)", bad,
                tiles.size() == n ? "" : " (the reference is not one-to-one)", first, o32[2 * first],
                o32[2 * first + 1], (long long)o64[2 * first], (long long)o64[2 * first + 1], (long long)fm,
                (long long)fn);
  verdict("swizzle2d " + std::to_string(num_m) + "x" + std::to_string(num_n) + " group " + std::to_string(group),
          bad == 0 && tiles.size() == n, bad ? d : std::to_string(n) + " tiles");
}

// ---- f8 memory ------------------------------------------------------------------------------

// n f8 bytes: every bit pattern first (zeros, subnormals, NaNs, e5m2 infinities), then random.
std::vector<uint8_t> f8_bytes(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = i < 256 ? uint8_t(i) : uint8_t(rng());
  return v;
}

// Bytes [at, at + want.size()) of `got` must be `want`, and every other byte `fill` (the
// poison of Buf, or a padding value). Returns the number of wrong bytes.
size_t compare_bytes(const std::vector<uint8_t>& got, size_t at, const std::vector<uint8_t>& want, uint8_t fill) {
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    bool inside = i >= at && i < at + want.size();
    bad += got[i] != (inside ? want[i - at] : fill);
  }
  return bad;
}

// f8 loads and stores move bytes (language.md §4.2): copies of both f8 dtypes, bitcasts to and
// from u8, a rank-0 element, and the zero padding of a tile past the end. The launch stub runs
// the vectorized variant when every base is 16-byte aligned; `offset` 1 shifts every base by a
// byte, so the general one runs. Bytes around each array must keep the poison.
void check_f8_copy(size_t n, size_t offset) {
  const size_t guard = 64, p = n + 1500;  // p: a few tiles past n, some of them wholly outside a
  auto a = f8_bytes(n), b = f8_bytes(n), u = f8_bytes(n), s = f8_bytes(1);
  std::reverse(b.begin(), b.end());
  std::shuffle(u.begin(), u.end(), rng);
  s[0] = 0x7e;
  Buf da(n + offset + guard), db(n + offset + guard), du(n + offset + guard), ds(1 + offset + guard);
  Buf doa(n + offset + guard), dob(n + offset + guard), dua(n + offset + guard), dub(n + offset + guard),
      dpa(p + offset + guard), dos(1 + offset + guard);
  auto put = [&](Buf& d, const std::vector<uint8_t>& v) { CHECK_CU(cuMemcpyHtoD(d.p + offset, v.data(), v.size())); };
  put(da, a);
  put(db, b);
  put(du, u);
  put(ds, s);
  CHECK_CU(f8_copy(nullptr, da.p + offset, db.p + offset, du.p + offset, ds.p + offset, doa.p + offset, dob.p + offset,
                   dua.p + offset, dub.p + offset, dpa.p + offset, dos.p + offset, int64_t(n), int64_t(p)));
  CHECK_CU(cuCtxSynchronize());
  std::vector<uint8_t> padded(p, 0);
  std::copy(a.begin(), a.end(), padded.begin());
  struct {
    const char* what;
    Buf& d;
    const std::vector<uint8_t>& want;
  } outs[] = {{"f8e4m3 copy", doa, a},  {"f8e5m2 copy", dob, b},       {"f8e4m3 -> u8 bitcast", dua, a},
              {"u8 -> f8e5m2 bitcast", dub, u}, {"f8e4m3 zero padding", dpa, padded}, {"f8e4m3 rank 0", dos, s}};
  for (auto& o : outs) {
    size_t bad = compare_bytes(o.d.get<uint8_t>(o.d.bytes), offset, o.want, 0xff);
    verdict(std::string(o.what) + " n=" + std::to_string(n) + (offset ? " unaligned" : ""), bad == 0,
            std::to_string(bad) + " bytes wrong");
  }
}

// 2-D f8 tiles: a copy with edges along both axes, and a transpose through shared memory. With
// offset 0 and N a multiple of 16 the vectorized variant runs, else the general one.
void check_f8_tiles(int64_t M, int64_t N, size_t offset) {
  size_t n = size_t(M * N);
  const size_t guard = 64;
  auto x = f8_bytes(n), y = f8_bytes(n);
  std::shuffle(y.begin(), y.end(), rng);
  Buf dx(n + offset + guard), dy(n + offset + guard), dox(n + offset + guard), doyt(n + offset + guard);
  CHECK_CU(cuMemcpyHtoD(dx.p + offset, x.data(), n));
  CHECK_CU(cuMemcpyHtoD(dy.p + offset, y.data(), n));
  CHECK_CU(f8_tiles(nullptr, dx.p + offset, dy.p + offset, dox.p + offset, doyt.p + offset, M, N));
  CHECK_CU(cuCtxSynchronize());
  std::vector<uint8_t> yt(n);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) yt[size_t(j * M + i)] = y[size_t(i * N + j)];
  std::string sz = " " + std::to_string(M) + "x" + std::to_string(N) + (offset ? " unaligned" : "");
  size_t b1 = compare_bytes(dox.get<uint8_t>(dox.bytes), offset, x, 0xff);
  size_t b2 = compare_bytes(doyt.get<uint8_t>(doyt.bytes), offset, yt, 0xff);
  verdict("f8e4m3 2-D copy" + sz, b1 == 0, std::to_string(b1) + " bytes wrong");
  verdict("f8e5m2 2-D transpose" + sz, b2 == 0, std::to_string(b2) + " bytes wrong");
}

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  use_device_0();
  std::vector<size_t> sizes = {1, 1000, 4099};
  if (!small) sizes.push_back((size_t(1) << 20) + 3);
  for (size_t n : sizes) {
    check_math(n, false);
    check_casts(n);
    check_intops(n);
    check_intops64(n);
    check_half(n);
  }
  // Divisors 1, powers of two, 2^31 +- 1, 2^32 - 1; 64-bit ones at and above 2^32; extents
  // that make m // 3 and cdiv(m, 5) 1 and larger.
  check_launch_div(4099, 1, 1, 3);
  check_launch_div(4099, 7, 3, 7);
  check_launch_div(4099, 1u << 20, (uint64_t(1) << 32) - 1, 100);
  check_launch_div(4099, 0x7fffffffu, uint64_t(1) << 32, 65537);
  check_launch_div(4099, 0x80000001u, (uint64_t(1) << 40) + 7, 4);
  check_launch_div(small ? 1000 : (size_t(1) << 20) + 3, 0xffffffffu, uint64_t(rng() | 1), 1000);
  check_launch_div(1000, uint32_t(rng() % 5000 + 1), rng() % 100000 + 1, 33);
  if (!small) check_math((size_t(1) << 20) + 3, true);
  check_erf(small ? 4099 : 127);
  check_tiles2d(1, 1, 3, false);
  check_tiles2d(17, 100, 4, true);
  check_tiles2d(100, 1000, 0, false);
  if (!small) check_tiles2d(1000, 3000, 5, false);
  check_reductions(1, 1);
  check_reductions(33, 100);
  check_reductions(64, 128);
  if (!small) check_reductions(5000, 128);
  check_mm_i8(17, 33, 1001, true);
  check_mm_i8(100, 70, 130, false);
  check_mm_i8(1, 1, 1, false);
  check_mm_f64(17, 33, 101);
  check_mm_f64(70, 100, 20);
  // Aligned rows: the pipelined variant, with i8 and f64 fragments read element-wise from
  // swizzled stages.
  check_mm_i8(100, 64, 160, false);
  check_mm_i8(70, 96, 1008, true);
  check_mm_f64(64, 32, 48);
  // f8: ragged (the general variant: rows of K bytes are not 16-byte multiples) and aligned
  check_mm_f8(70, 100, 130);
  check_mm_f8(128, 64, 192);
  check_mm_small();
  check_control(1000, 7);
  check_control(4099, 30);
  check_control(1, 2);
  check_transposes(1, 1);
  check_transposes(100, 70);
  if (!small) check_transposes(1000, 3000);
  // element-index memory, atomics, scans, cat/extract/reshape
  check_gather(1, 1, 1000);
  check_gather(37, 70, 4099);
  if (!small) check_gather(1000, 3000, (size_t(1) << 20) + 3);
  if (!small) check_gather_far();
  check_all_atomics(1000, 61);          // about 16 elements per bin
  check_all_atomics(4099, 3);           // a few bins, many collisions
  if (!small) check_all_atomics((size_t(1) << 18) + 5, 4099);
  check_atomics_misc(1, 5);
  check_atomics_misc(37, 3);
  if (!small) check_atomics_misc(1000, 1001);
  report_atomic_subnormals();
  check_scans(1, 1);
  check_scans(37, 300);
  check_scans(64, 4096);
  if (!small) check_scans(1000, 5000);
  check_histograms(1);
  check_histograms(4099);
  if (!small) check_histograms((size_t(1) << 20) + 3);
  check_shapes(1, 1);
  check_shapes(37, 300);
  if (!small) check_shapes(1000, 3000);
  // swizzle2d: short last bands (5 % 3, 7 % 4, 11 % 4, 37 % 8, 100 % 8 rows), a group taller
  // than the grid, one tile, and whole bands only
  const int32_t swizzles[][3] = {{5, 1, 3}, {7, 13, 4}, {11, 5, 4}, {37, 31, 8}, {100, 37, 8},
                                 {3, 7, 8}, {1, 1, 1}, {64, 64, 8}, {9, 20, 1}};
  for (const auto& t : swizzles) check_swizzle2d(t[0], t[1], t[2]);
  for (size_t n : {size_t(1), size_t(1000), size_t(4099), size_t(1) << 16})
    for (size_t offset : {size_t(0), size_t(1)}) check_f8_copy(n, offset);
  check_f8_tiles(1, 1, 0);
  check_f8_tiles(37, 100, 0);
  check_f8_tiles(70, 128, 0);
  check_f8_tiles(70, 128, 1);
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
