// GPU correctness of the compiled samples through their generated headers (not in CI: needs a
// GPU). Fresh random inputs each run, outputs poisoned first, results compared with a float64
// CPU reference. Exits non-zero on any mismatch.
//   check_samples [--small]     (--small: only the ragged sizes that compute-sanitizer runs)
#include <cuda.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gelu_bias.h"
#include "vector_add.h"

namespace {

int failures = 0;

#define CHECK_CU(call)                                                             \
  do {                                                                             \
    CUresult r_ = (call);                                                          \
    if (r_ != CUDA_SUCCESS) {                                                      \
      const char* s_ = nullptr;                                                    \
      cuGetErrorString(r_, &s_);                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, s_); \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)

// Fills with uniform values in [lo, hi) from a per-run seed (fresh inputs every run).
void fill(std::vector<float>& v, std::mt19937_64& rng, float lo, float hi) {
  // A fast generator for multi-gigabyte arrays: xorshift seeded from the Mersenne twister.
  uint64_t s = rng() | 1;
  for (float& x : v) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x = lo + (hi - lo) * float((s >> 40) * (1.0 / 16777216.0));
  }
}

struct Buffer {
  CUdeviceptr p = 0;
  size_t bytes = 0;
  explicit Buffer(size_t n) : bytes(n) { CHECK_CU(cuMemAlloc(&p, n ? n : 1)); }
  ~Buffer() { cuMemFree(p); }
};

// Poison: all-ones bits are a NaN for f32, so an unwritten element never passes.
void poison(const Buffer& b) { CHECK_CU(cuMemsetD8(b.p, 0xff, b.bytes)); }

void report(const char* what, size_t n, size_t bad, double worst, size_t first_bad) {
  std::printf("%-34s n=%-11zu %s  worst=%.3g%s\n", what, n, bad ? "FAIL" : "ok  ", worst,
              bad ? (" first bad index " + std::to_string(first_bad)).c_str() : "");
  if (bad) ++failures;
}

void check_vector_add(size_t n, std::mt19937_64& rng, const char* mode) {
  std::vector<float> a(n), b(n), c(n);
  fill(a, rng, -1000.f, 1000.f);
  fill(b, rng, -1000.f, 1000.f);
  Buffer da(n * 4), db(n * 4), dc(n * 4);
  CHECK_CU(cuMemcpyHtoD(da.p, a.data(), n * 4));
  CHECK_CU(cuMemcpyHtoD(db.p, b.data(), n * 4));
  poison(dc);
  std::string what = std::string("vector_add ") + mode;
  if (std::strcmp(mode, "dense") == 0) {
    CHECK_CU(vector_add(nullptr, da.p, db.p, dc.p, int64_t(n)));
  } else {
    // The strided form on the same dense arrays (vectorized variant chosen by the stub).
    int64_t shape[1] = {int64_t(n)}, strides[1] = {1};
    CHECK_CU(vector_add_strided(nullptr, da.p, shape, strides, db.p, shape, strides, dc.p, shape, strides));
  }
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(c.data(), dc.p, n * 4));
  size_t bad = 0, first = 0;
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    float ref = float(double(a[i]) + double(b[i]));  // f32 addition is correctly rounded
    double err = std::fabs(double(c[i]) - double(ref));
    if (!(c[i] == ref)) {
      if (!bad) first = i;
      ++bad;
    }
    worst = std::max(worst, err);
  }
  report(what.c_str(), n, bad, worst, first);
}

// Strided and unaligned views: the general variant.
void check_vector_add_views(size_t n, std::mt19937_64& rng) {
  // a is every other element of a 2n buffer; b starts one element into its buffer (unaligned);
  // c is dense. Elements of a's buffer between the view's elements must stay untouched.
  std::vector<float> a2(2 * n), b1(n + 1), c(n);
  fill(a2, rng, -10.f, 10.f);
  fill(b1, rng, -10.f, 10.f);
  Buffer da(2 * n * 4), db((n + 1) * 4), dc(n * 4);
  CHECK_CU(cuMemcpyHtoD(da.p, a2.data(), 2 * n * 4));
  CHECK_CU(cuMemcpyHtoD(db.p, b1.data(), (n + 1) * 4));
  poison(dc);
  int64_t shape[1] = {int64_t(n)}, s2[1] = {2}, s1[1] = {1};
  CHECK_CU(vector_add_strided(nullptr, da.p, shape, s2, db.p + 4, shape, s1, dc.p, shape, s1));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(c.data(), dc.p, n * 4));
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i) {
    float ref = float(double(a2[2 * i]) + double(b1[i + 1]));
    if (!(c[i] == ref)) {
      if (!bad) first = i;
      ++bad;
    }
  }
  report("vector_add strided+unaligned", n, bad, 0, first);
}

double gelu_ref(double v) {
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
}

void check_gelu(size_t n, std::mt19937_64& rng) {
  std::vector<float> x(n), w(n), b(n), out(n);
  fill(x, rng, -4.f, 4.f);
  fill(w, rng, -2.f, 2.f);
  fill(b, rng, -1.f, 1.f);
  Buffer dx(n * 4), dw(n * 4), dbb(n * 4), dout(n * 4);
  CHECK_CU(cuMemcpyHtoD(dx.p, x.data(), n * 4));
  CHECK_CU(cuMemcpyHtoD(dw.p, w.data(), n * 4));
  CHECK_CU(cuMemcpyHtoD(dbb.p, b.data(), n * 4));
  poison(dout);
  CHECK_CU(gelu_bias(nullptr, dx.p, dw.p, dbb.p, dout.p, int64_t(n)));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(out.data(), dout.p, n * 4));
  // Bound: f32 rounding of the few operations (a few ulp of |v|, where the 1 + tanh cancels)
  // plus tanh's error (docs/language.md: <= 3 ulp). 2^-17 relative to |v| + |ref| is ~64 ulp.
  size_t bad = 0, first = 0;
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    double v = double(x[i]) * double(w[i]) + double(b[i]);
    double ref = gelu_ref(v);
    double err = std::fabs(double(out[i]) - ref) / (std::fabs(v) + std::fabs(ref) + 1e-30);
    if (!(err <= std::ldexp(1.0, -17))) {
      if (!bad) first = i;
      ++bad;
    }
    if (err > worst || std::isnan(err)) worst = std::isnan(err) ? INFINITY : err;
  }
  report("gelu_bias", n, bad, worst, first);
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
  std::mt19937_64 rng(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::vector<size_t> sizes = {1, 1023, 1025, 4096};
  if (!small) {
    sizes.push_back((size_t(1) << 28) + 7);
  }
  for (size_t n : sizes) {
    check_vector_add(n, rng, "dense");
    check_vector_add(n, rng, "strided");
    check_vector_add_views(n, rng);
    check_gelu(n, rng);
  }
  if (!small) check_vector_add((size_t(1) << 31) + 5, rng, "dense");  // more than 2^31 elements
  // Empty arrays: the grid has a zero dimension, so the stub returns success without launching.
  Buffer d(4);
  CHECK_CU(vector_add(nullptr, d.p, d.p, d.p, 0));
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
