// Session 17: the contract pass on a Triton-style `acc += a @ b` (mm_plus.tile), contracted (the
// default build) against --fmad=false (prefix nofmad_), bf16 n x n x n, inputs integers in -2..2
// (both exact), correctness first, then medians of 21 CUDA-event timings, interleaved.
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "check_util.h"
#include "mm_plus.h"
#include "mm_plus_nofmad.h"

int main() {
  use_device_0();
  std::mt19937_64 rng(std::random_device{}());
  for (int64_t n : {512, 4096, 8192}) {
    std::vector<uint16_t> a(size_t(n * n)), b(size_t(n * n));
    std::vector<int> ai(a.size()), bi(b.size());
    std::uniform_int_distribution<int> d(-2, 2);
    for (size_t i = 0; i < a.size(); ++i) a[i] = to_bf16(float(ai[i] = d(rng)));
    for (size_t i = 0; i < b.size(); ++i) b[i] = to_bf16(float(bi[i] = d(rng)));
    Buffer da(a.size() * 2), db(b.size() * 2), dc(size_t(n * n) * 4);
    da.put(a);
    db.put(b);
    for (int v = 0; v < 2; ++v) {  // correctness: rows 0, n/2, n-1 against the CPU
      poison(dc);
      CHECK_CU(v ? nofmad_mm_plus(nullptr, da.p, db.p, dc.p, n, n, n) : mm_plus(nullptr, da.p, db.p, dc.p, n, n, n));
      CHECK_CU(cuCtxSynchronize());
      std::vector<float> c = dc.get<float>(size_t(n * n));
      size_t bad = 0;
      for (int64_t i : {int64_t(0), n / 2, n - 1})
        for (int64_t j = 0; j < n; ++j) {
          long s = 0;
          for (int64_t k = 0; k < n; ++k) s += long(ai[size_t(i * n + k)]) * bi[size_t(k * n + j)];
          bad += double(c[size_t(i * n + j)]) != double(s);
        }
      std::printf("%s %lld^3: %zu wrong in 3 rows\n", v ? "nofmad" : "contracted", (long long)n, bad);
      if (bad) ++failures;
    }
    CUevent e0, e1;
    CHECK_CU(cuEventCreate(&e0, 0));
    CHECK_CU(cuEventCreate(&e1, 0));
    std::vector<float> t[2];
    for (int it = 0; it < 44; ++it) {
      int v = it % 2;
      CHECK_CU(cuEventRecord(e0, nullptr));
      CHECK_CU(v ? nofmad_mm_plus(nullptr, da.p, db.p, dc.p, n, n, n) : mm_plus(nullptr, da.p, db.p, dc.p, n, n, n));
      CHECK_CU(cuEventRecord(e1, nullptr));
      CHECK_CU(cuEventSynchronize(e1));
      float ms = 0;
      CHECK_CU(cuEventElapsedTime(&ms, e0, e1));
      if (it >= 2) t[v].push_back(ms);
    }
    for (int v = 0; v < 2; ++v) {
      std::sort(t[v].begin(), t[v].end());
      double med = t[v][t[v].size() / 2];
      std::printf("%-10s bf16 %lld^3 [%s]: median %.4f ms (min %.4f max %.4f) %.1f TFLOP/s\n", v ? "nofmad" : "contracted",
                  (long long)n, g_last_entry, med, t[v].front(), t[v].back(), 2.0 * n * n * n / (med * 1e-3) / 1e12);
    }
  }
  return failures ? 1 : 0;
}
