// samples/matmul_f8.tile's check on the GPU, shared by check_f8.cpp (the builds' launch choice
// and portable entries) and check_configs.cpp (every configuration through the forced launch):
// C = (A @ B^T) * sa * sb in bf16 from random finite f8 bytes, against float64 with the error
// bound check_f8.cpp's comment derives. Include after check_util.h.
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "check_util.h"
#include "f8_util.h"

namespace {

inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Random finite bytes of magnitude at most 8 (subnormals included).
inline std::vector<uint8_t> random_f8(size_t n, bool e5m2, std::mt19937_64& rng) {
  std::vector<uint8_t> pool;
  for (int b = 0; b < 256; ++b)
    if (std::fabs(f8_value(uint8_t(b), e5m2)) <= 8) pool.push_back(uint8_t(b));
  std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = pool[pick(rng)];
  return v;
}

using Launch = std::function<CUresult(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, CUdeviceptr, CUdeviceptr,
                                      int64_t, int64_t, int64_t)>;

// `promote`: the k32 steps between promotions into the f32 accumulator (0: none).
// `forced`: `launch` runs one entry by name (portable_entry), not the header's launcher.
inline void check_matmul(const char* name, const Launch& launch, int64_t M, int64_t N, int64_t K, bool a_e5m2, int promote,
                  std::mt19937_64& rng, bool forced = false) {
  std::vector<uint8_t> a = random_f8(size_t(M * K), a_e5m2, rng), b = random_f8(size_t(N * K), false, rng);
  std::vector<float> sa = {0.375f}, sb = {1.75f};
  Buffer A(a.size()), B(b.size()), SA(4), SB(4), C(size_t(M * N * 2));
  A.put(a);
  B.put(b);
  SA.put(sa);
  SB.put(sb);
  poison(C);
  CHECK_CU(launch(nullptr, A.p, B.p, SA.p, SB.p, C.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  char what[96];
  std::snprintf(what, sizeof what, "%s %ldx%ldx%ld", name, long(M), long(N), long(K));
  if (g_device_cc == 90 && !forced) expect_path(what, K % 16 == 0 && N * 2 % 16 == 0);  // 16-byte rows of A, B, C
  if (forced) std::snprintf(what, sizeof what, "%s %ldx%ldx%ld (%s)", name, long(M), long(N), long(K), g_last_entry);
  std::vector<uint16_t> c = C.get<uint16_t>(size_t(M * N));
  std::uniform_int_distribution<int64_t> row(0, M - 1), col(0, N - 1);
  double s = double(sa[0]) * double(sb[0]), worst = 0, num = 0, den = 0, worst_acc = 0;
  double steps = double(promote ? std::min<int64_t>(promote, cdiv(K, 32)) : cdiv(K, 32));
  size_t bad = 0, first = 0;
  int samples = int(std::min<int64_t>(M * N, 4000));
  for (int t = 0; t < samples; ++t) {
    int64_t i = M * N <= 4000 ? t / N : row(rng), j = M * N <= 4000 ? t % N : col(rng);
    double ref = 0, mag = 0;
    for (int64_t k = 0; k < K; ++k) {
      double p = f8_value(a[size_t(i * K + k)], a_e5m2) * f8_value(b[size_t(j * K + k)], false);
      ref += p;
      mag += std::fabs(p);
    }
    ref *= s;
    mag *= s;
    double out = from_bf16(c[size_t(i * N + j)]), err = std::fabs(out - ref);
    double bound = 0x1p-8 * std::fabs(ref) + 0x1p-20 * mag + steps * 0x1p-12 * mag;
    if (!(err <= bound) && bad++ == 0) first = size_t(i * N + j);
    worst = std::max(worst, std::isnan(err) ? INFINITY : err / bound);
    // What the accumulation added beyond C's bf16 rounding, relative to mag.
    if (mag > 0) worst_acc = std::max(worst_acc, std::max(0.0, err - 0x1p-8 * std::fabs(ref)) / mag);
    num += err * err;
    den += ref * ref;
  }
  double rel = std::sqrt(num / (den ? den : 1));
  std::printf("%-34s n=%-11d %s  worst err/bound %.3f, rel err %.2e, worst (err - bf16 rounding)/mag %.2e\n", what,
              samples, bad || !(rel < 0x1p-7) ? "FAIL" : "ok  ", worst, rel, worst_acc);
  if (bad || !(rel < 0x1p-7)) {
    ++failures;
    if (bad) std::printf("    first bad element %zu\n", first);
  }
}

}  // namespace
