// GPU checks of the op families in tests/gpu/ops.tile against CPU references written here
// (independently of the compiler's own constant folder). Prints the worst error per function
// and exits non-zero on any violation of the documented bounds (docs/language.md §6.9).
#include <cuda.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ops.h"
#include "ops_fast.h"

namespace {

int failures = 0;

#define CHECK_CU(call)                                                                \
  do {                                                                                \
    CUresult r_ = (call);                                                             \
    if (r_ != CUDA_SUCCESS) {                                                         \
      const char* s_ = nullptr;                                                       \
      cuGetErrorString(r_, &s_);                                                      \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, s_);  \
      std::exit(2);                                                                   \
    }                                                                                 \
  } while (0)

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
  Buf dx(n * 4), dp(n * 4), dout(14 * n * 4);
  dx.put(x);
  dp.put(p);
  if (fast) CHECK_CU(fast_math_f32(nullptr, dx.p, dp.p, dout.p, int64_t(n)));
  else CHECK_CU(math_f32(nullptr, dx.p, dp.p, dout.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> out = dout.get<float>(14 * n);
  struct Fn {
    const char* name;
    double bound;  // ulps (accurate mode)
    double floor;  // results smaller than this are measured in ulps of it (absolute error)
  };
  const Fn fns[] = {{"exp", 3, 0}, {"exp2", 3, 0}, {"log", 3, 0}, {"log2", 3, 0}, {"sqrt", 0.5, 0},
                    {"rsqrt", 2, 0}, {"sin", 3, 1e-6}, {"cos", 3, 1e-6}, {"tanh", 4, 0}, {"sigmoid", 4, 0},
                    {"floor", 0, 0}, {"ceil", 0, 0}, {"pow", 128, 0}, {"// and %", 0, 0}};
  for (int f = 0; f < 14; ++f) {
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
  Buf da(n * 4), db(n * 4), dout(8 * n * 4);
  da.put(a);
  db.put(b);
  CHECK_CU(intops(nullptr, da.p, db.p, dout.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  auto out = dout.get<int32_t>(8 * n);
  size_t bad[8] = {}, first[8] = {};
  for (size_t i = 0; i < n; ++i) {
    int32_t x = a[i], y = b[i];
    int32_t s = y & 63;
    int32_t ref[8];
    ref[0] = pyfloordiv(x, y);
    ref[1] = pymod(x, y);
    ref[2] = s >= 32 ? 0 : int32_t(uint32_t(x) << s);
    ref[3] = s >= 32 ? (x < 0 ? -1 : 0) : (x >> s);
    ref[4] = wrap32(int64_t(std::min(x, y)) * 3 - int64_t(std::max(x, y)));
    ref[5] = int8_t(uint8_t(int32_t(int8_t(x)) * int32_t(int8_t(y))));
    ref[6] = uint16_t(uint16_t(x) + uint16_t(y));
    int32_t sum = wrap32(int64_t(x) + y);
    ref[7] = x > y ? wrap32(int64_t(x) - y) : wrap32(-int64_t(sum == INT32_MIN ? sum : std::abs(sum)));
    for (int k = 0; k < 8; ++k)
      if (out[size_t(k) * n + i] != ref[k] && !bad[k]++) first[k] = i;
  }
  const char* names[] = {"//", "%", "<<", ">>", "min*3-max", "i8 *", "u16 +", "where/abs"};
  for (int k = 0; k < 8; ++k) {
    char d[160];
    std::snprintf(d, sizeof d, "%zu wrong%s", bad[k],
                  bad[k] ? (", first a=" + std::to_string(a[first[k]]) + " b=" + std::to_string(b[first[k]]) +
                            " got " + std::to_string(out[size_t(k) * n + first[k]])).c_str()
                         : "");
    verdict(std::string("int ") + names[k] + " n=" + std::to_string(n), bad[k] == 0, d);
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

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  CHECK_CU(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CHECK_CU(cuDeviceGet(&dev, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  std::vector<size_t> sizes = {1, 1000, 4099};
  if (!small) sizes.push_back((size_t(1) << 20) + 3);
  for (size_t n : sizes) {
    check_math(n, false);
    check_casts(n);
    check_intops(n);
    check_half(n);
  }
  if (!small) check_math((size_t(1) << 20) + 3, true);
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
  check_control(1000, 7);
  check_control(4099, 30);
  check_control(1, 2);
  check_transposes(1, 1);
  check_transposes(100, 70);
  if (!small) check_transposes(1000, 3000);
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
