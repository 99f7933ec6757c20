// GPU correctness of loads and stores at element offsets (language.md §7.2.1-7.2.2) through the
// generated headers of tests/gpu/offsets.tile and the samples stencil2d and silu_gate (not in CI:
// needs a GPU). Fresh random inputs each run, outputs poisoned first, results compared with a
// CPU reference: run-time offsets of both signs, tiles partly and wholly outside the arrays,
// ragged extents (the general variant) and aligned ones (the vectorized variant), padding
// values, stores that must leave the rest of the array untouched. Exits non-zero on a mismatch.
//   check_offsets [--small]     (--small: the sizes that compute-sanitizer runs)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check_util.h"  // first: it defines TILEC_TRACE_LAUNCH for the headers
#include "offsets.h"
#include "offsets_portable.h"
#include "silu_gate.h"
#include "stencil2d.h"

// The mma-loop kernels run twice: from offsets.h (the tma_wgmma path on a 9.0 device, where the
// rows are 16-byte aligned), and with g_portable from offsets_portable.h (-arch sm_80 --prefix
// p80_, the driver compiling its compute_80 PTX): the portable path, whose vectorized variant
// copies the tiles at element offsets by cp.async when the innermost offset is a known multiple
// of 16 bytes.
bool g_portable = false;
#define OFFSETS_LAUNCH(kernel, ...) (g_portable ? p80_##kernel(__VA_ARGS__) : kernel(__VA_ARGS__))
// `tma`: the tma_wgmma path runs on a 9.0 device; `aligned` (default: the same): every row is
// 16-byte aligned, so the portable path's vectorized variant (the cp.async pipeline) runs.
void expect_mm_path(const std::string& what, bool tma, int aligned_rows = -1) {
  bool aligned = aligned_rows < 0 ? tma : aligned_rows != 0;
  if (!g_portable) {
    expect_path(what, tma && g_device_cc == 90);
    return;
  }
  bool vectorized = std::strstr(g_last_entry, "_v16") != nullptr;
  if (is_wgmma_entry() || vectorized != aligned) {
    std::printf("FAIL %s: ran %s, expected the portable path's %s variant\n", what.c_str(), g_last_entry,
                aligned ? "vectorized" : "general");
    ++failures;
  }
}

namespace {

std::vector<float> random_floats(size_t n, std::mt19937_64& rng, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// n f16 values drawn uniformly from [-10, 10].
std::vector<uint16_t> random_f16(size_t n, std::mt19937_64& rng) {
  std::vector<float> f = random_floats(n, rng, -10.f, 10.f);
  std::vector<uint16_t> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = to_f16(f[i]);
  return h;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// One line per case; the entry that ran tells the variant (_v16: vectorized).
void report(const std::string& what, size_t n, size_t bad, size_t first_bad) {
  std::printf("%-58s n=%-9zu %s%s\n", (what + " [" + g_last_entry + "]").c_str(), n, bad ? "FAIL" : "ok  ",
              bad ? (" first bad index " + std::to_string(first_bad)).c_str() : "");
  if (bad) ++failures;
}

bool inside(int64_t i, int64_t n) { return i >= 0 && i < n; }

// "name PxQ -> MxN at (dr, dc)".
std::string case_label(const char* name, int64_t P, int64_t Q, int64_t M, int64_t N, int64_t dr, int64_t dc) {
  return std::string(name) + " " + std::to_string(P) + "x" + std::to_string(Q) + " -> " + std::to_string(M) + "x" +
         std::to_string(N) + " at (" + std::to_string(dr) + ", " + std::to_string(dc) + ")";
}

// An f32 kernel (x: f32[P, Q], out: f32[M, N], dr: i64, dc: i64) whose out[i, j] is
// ref(at, i + dr, j + dc), where at(r, c) is x[r, c] inside x and -1 outside; compared bit for bit.
using ShiftKernel = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, int64_t, int64_t, int64_t, int64_t, int64_t,
                                 int64_t);
template <typename Ref>
void check_f32_shift(const char* name, ShiftKernel kernel, int64_t P, int64_t Q, int64_t M, int64_t N, int64_t dr,
                     int64_t dc, std::mt19937_64& rng, Ref ref) {
  std::vector<float> x = random_floats(size_t(P * Q), rng, -10.f, 10.f);
  Buffer dx(x.size() * 4), dout(size_t(M * N) * 4);
  dx.put(x);
  poison(dout);
  CHECK_CU(kernel(nullptr, dx.p, dout.p, P, Q, M, N, dr, dc));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> out = dout.get<float>(size_t(M * N));
  auto at = [&](int64_t i, int64_t j) { return inside(i, P) && inside(j, Q) ? x[size_t(i * Q + j)] : -1.f; };
  size_t bad = 0, first = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      if (bits(out[size_t(i * N + j)]) != bits(ref(at, i + dr, j + dc)) && !bad++) first = size_t(i * N + j);
  report(case_label(name, P, Q, M, N, dr, dc), size_t(M * N), bad, first);
}

// out[i, j] = x[i + dr, j + dc], or -1 outside x.
void check_shift_load(int64_t P, int64_t Q, int64_t M, int64_t N, int64_t dr, int64_t dc, std::mt19937_64& rng) {
  check_f32_shift("shift_load", shift_load, P, Q, M, N, dr, dc, rng, [](auto& at, int64_t r, int64_t c) { return at(r, c); });
}

// out[i + dr, j + dc] = t[i, j] inside out, where t is x's tiling: x[i, j] inside x, 0 in the
// rest of the (16, 64) tiles that cover it (the load's padding, stored like any element);
// everything else keeps its poison.
void check_shift_store(int64_t M, int64_t N, int64_t P, int64_t Q, int64_t dr, int64_t dc, std::mt19937_64& rng) {
  std::vector<float> x = random_floats(size_t(M * N), rng, -10.f, 10.f);
  Buffer dx(x.size() * 4), dout(size_t(P * Q) * 4);
  dx.put(x);
  poison(dout);
  CHECK_CU(shift_store(nullptr, dx.p, dout.p, M, N, P, Q, dr, dc));
  CHECK_CU(cuCtxSynchronize());
  std::vector<uint32_t> out = dout.get<uint32_t>(size_t(P * Q));
  size_t bad = 0, first = 0;
  for (int64_t p = 0; p < P; ++p)
    for (int64_t q = 0; q < Q; ++q) {
      int64_t i = p - dr, j = q - dc;
      bool covered = inside(i, (M + 15) / 16 * 16) && inside(j, (N + 63) / 64 * 64);
      uint32_t ref = !covered ? 0xffffffffu : inside(i, M) && inside(j, N) ? bits(x[size_t(i * N + j)]) : 0u;
      if (out[size_t(p * Q + q)] != ref && !bad++) first = size_t(p * Q + q);
    }
  report(case_label("shift_store", M, N, P, Q, dr, dc), size_t(P * Q), bad, first);
}

// f16: out[i, j] = x[i + dr, j + 8 k8 + extra], or 2.0 outside x (extra: 0 for shift_load_h,
// -3 for shift3_h).
void check_shift_load_h(int64_t P, int64_t Q, int64_t M, int64_t N, int32_t dr, int64_t k8, std::mt19937_64& rng,
                        int64_t extra = 0) {
  std::vector<uint16_t> x = random_f16(size_t(P * Q), rng);
  Buffer dx(x.size() * 2), dout(size_t(M * N) * 2);
  dx.put(x);
  poison(dout);
  CHECK_CU((extra ? shift3_h : shift_load_h)(nullptr, dx.p, dout.p, P, Q, M, N, dr, k8));
  CHECK_CU(cuCtxSynchronize());
  std::vector<uint16_t> out = dout.get<uint16_t>(size_t(M * N));
  size_t bad = 0, first = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t si = i + dr, sj = j + 8 * k8 + extra;
      uint16_t ref = inside(si, P) && inside(sj, Q) ? x[size_t(si * Q + sj)] : to_f16(2.f);
      if (out[size_t(i * N + j)] != ref && !bad++) first = size_t(i * N + j);
    }
  report(std::string(extra ? "shift3_h " : "shift_load_h ") + std::to_string(P) + "x" + std::to_string(Q) + " -> " + std::to_string(M) + "x" +
             std::to_string(N) + " at (" + std::to_string(dr) + ", 8*" + std::to_string(k8) + ")",
         size_t(M * N), bad, first);
}

// out[i] = x[i + s] + x[i - s], 0 outside.
void check_window1d(int64_t n, int64_t s, std::mt19937_64& rng) {
  std::vector<float> x = random_floats(size_t(n), rng, -10.f, 10.f);
  Buffer dx(x.size() * 4), dout(x.size() * 4);
  dx.put(x);
  poison(dout);
  CHECK_CU(window1d(nullptr, dx.p, dout.p, n, s));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> out = dout.get<float>(size_t(n));
  size_t bad = 0, first = 0;
  for (int64_t i = 0; i < n; ++i) {
    float a = inside(i + s, n) ? x[size_t(i + s)] : 0.f, b = inside(i - s, n) ? x[size_t(i - s)] : 0.f;
    if (bits(out[size_t(i)]) != bits(a + b) && !bad++) first = size_t(i);
  }
  report("window1d n=" + std::to_string(n) + " s=" + std::to_string(s), size_t(n), bad, first);
}

// Launches back to back on one stream, each reading what the one before wrote, across CTAs:
// x <- window1d(x, s) `steps` times (out[i] = x[i + s] + x[i - s]) without a synchronization
// between them. On a 9.0 device the header launches them programmatically (docs/header.md,
// "Launch"): a launch's CTAs may start before the one before it ends and must wait for it
// (griddepcontrol.wait). Small integers, so every step is exact and any stale read shows.
void check_dependent_launches(int64_t n, int64_t s, int steps, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> d(-8, 8);
  std::vector<int64_t> ref(static_cast<size_t>(n));
  std::vector<float> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[size_t(i)] = float(ref[size_t(i)] = d(rng));
  Buffer b0(x.size() * 4), b1(x.size() * 4);
  b0.put(x);
  poison(b1);
  for (int t = 0; t < steps; ++t) CHECK_CU(window1d(nullptr, t % 2 ? b1.p : b0.p, t % 2 ? b0.p : b1.p, n, s));
  CHECK_CU(cuCtxSynchronize());
  for (int t = 0; t < steps; ++t) {
    std::vector<int64_t> next(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      next[size_t(i)] = (inside(i + s, n) ? ref[size_t(i + s)] : 0) + (inside(i - s, n) ? ref[size_t(i - s)] : 0);
    ref.swap(next);
  }
  std::vector<float> out = (steps % 2 ? b1 : b0).get<float>(size_t(n));
  size_t bad = 0, first = 0;
  for (int64_t i = 0; i < n; ++i)
    if (out[size_t(i)] != float(ref[size_t(i)]) && !bad++) first = size_t(i);
  report("dependent launches: window1d x" + std::to_string(steps) + " n=" + std::to_string(n) + " s=" +
             std::to_string(s),
         size_t(n), bad, first);
}

// windows: out[i, j] = t + 2 a + 4 b + 8 d + 16 e at columns j + dc + {0, -1, +1, +4, -3} of
// row i + dr (-1 outside x), in the kernel's order of f32 operations (the products are exact).
void check_windows(int64_t P, int64_t Q, int64_t M, int64_t N, int64_t dr, int64_t dc, std::mt19937_64& rng) {
  check_f32_shift("windows", windows, P, Q, M, N, dr, dc, rng, [](auto& at, int64_t r, int64_t c) {
    return at(r, c) + 2.f * at(r, c - 1) + 4.f * at(r, c + 1) + 8.f * at(r, c + 4) + 16.f * at(r, c - 3);
  });
}

// windows_h: f16, i32 offsets; out = t + 2 a + 4 b + 8 d in f32 at columns j + dc + {0, -8, +1,
// +5} (2.0 outside x), rounded to f16 once.
void check_windows_h(int64_t P, int64_t Q, int64_t M, int64_t N, int32_t dr, int32_t dc, std::mt19937_64& rng) {
  std::vector<uint16_t> x = random_f16(size_t(P * Q), rng);
  Buffer dx(x.size() * 2), dout(size_t(M * N) * 2);
  dx.put(x);
  poison(dout);
  CHECK_CU(windows_h(nullptr, dx.p, dout.p, P, Q, M, N, dr, dc));
  CHECK_CU(cuCtxSynchronize());
  std::vector<uint16_t> out = dout.get<uint16_t>(size_t(M * N));
  // The kernel's i32 column arithmetic: bid(1) * 64 + dc, then the constants, each wrapping.
  auto col = [](int64_t j, int32_t dc, int32_t k) {
    uint32_t base = uint32_t(j / 64 * 64) + uint32_t(dc);
    return int64_t(int32_t(base + uint32_t(k))) + j % 64;
  };
  auto at = [&](int64_t i, int64_t j) { return inside(i, P) && inside(j, Q) ? from_f16(x[size_t(i * Q + j)]) : 2.f; };
  size_t bad = 0, first = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      int64_t si = int64_t(int32_t(uint32_t(i / 16 * 16) + uint32_t(dr))) + i % 16;
      float ref = at(si, col(j, dc, 0)) + 2.f * at(si, col(j, dc, -8)) + 4.f * at(si, col(j, dc, 1)) +
                  8.f * at(si, col(j, dc, 5));
      if (out[size_t(i * N + j)] != to_f16(ref) && !bad++) first = size_t(i * N + j);
    }
  report(case_label("windows_h", P, Q, M, N, dr, dc), size_t(M * N), bad, first);
}

// windows1d: out[i] = x[i - 2] + 2 x[i + 2], 0 outside.
void check_windows1d(int64_t n, std::mt19937_64& rng) {
  std::vector<float> x = random_floats(size_t(n), rng, -10.f, 10.f);
  Buffer dx(x.size() * 4), dout(x.size() * 4);
  dx.put(x);
  poison(dout);
  CHECK_CU(windows1d(nullptr, dx.p, dout.p, n));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> out = dout.get<float>(size_t(n));
  size_t bad = 0, first = 0;
  for (int64_t i = 0; i < n; ++i) {
    float a = inside(i - 2, n) ? x[size_t(i - 2)] : 0.f, b = inside(i + 2, n) ? x[size_t(i + 2)] : 0.f;
    if (bits(out[size_t(i)]) != bits(a + 2.f * b) && !bad++) first = size_t(i);
  }
  report("windows1d n=" + std::to_string(n), size_t(n), bad, first);
}

// C = A[s : s + M] @ B with rows of A outside it reading 0; f16 inputs, f32 accumulation.
void check_window_mm(int64_t R, int64_t K, int64_t N, int64_t M, int64_t s, std::mt19937_64& rng) {
  std::vector<float> af = random_floats(size_t(R * K), rng, -1.f, 1.f), bf = random_floats(size_t(K * N), rng, -1.f, 1.f);
  std::vector<uint16_t> a(af.size()), b(bf.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = to_f16(af[i]);
  for (size_t i = 0; i < b.size(); ++i) b[i] = to_f16(bf[i]);
  Buffer da(a.size() * 2), db(b.size() * 2), dc(size_t(M * N) * 4);
  da.put(a);
  db.put(b);
  poison(dc);
  CHECK_CU(OFFSETS_LAUNCH(window_mm, nullptr, da.p, db.p, dc.p, R, K, N, M, s));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> c = dc.get<float>(size_t(M * N));
  double num = 0, den = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double ref = 0;
      if (inside(i + s, R))
        for (int64_t k = 0; k < K; ++k) ref += double(from_f16(a[size_t((i + s) * K + k)])) * from_f16(b[size_t(k * N + j)]);
      double d = double(c[size_t(i * N + j)]) - ref;
      num += std::isnan(d) ? INFINITY : d * d;
      den += ref * ref;
    }
  double err = std::sqrt(num / (den ? den : 1));
  bool ok = err <= 1e-5;  // either path: portable, or tma_wgmma with A from registers
  std::printf("%-58s rel err %.2e %s\n",
              ("window_mm " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) + " s=" +
               std::to_string(s) + " [" + g_last_entry + "]").c_str(),
              err, ok ? "ok" : "FAIL");
  if (!ok) ++failures;
}

// bf16 values of a random matrix, and their floats.
std::vector<uint16_t> random_bf16(size_t n, std::mt19937_64& rng) {
  std::vector<float> f = random_floats(n, rng, -1.f, 1.f);
  std::vector<uint16_t> b(n);
  for (size_t i = 0; i < n; ++i) b[i] = to_bf16(f[i]);
  return b;
}

// Compares C (f32, M x N) with `ref` (double) by relative Frobenius error; on a 9.0 device with
// `tma` (every row of A, B and C 16-byte aligned) the tma_wgmma path must have run, the portable
// one otherwise.
void compare_mm(const std::string& what, const std::vector<float>& c, const std::vector<double>& ref, bool tma,
                int aligned_rows = -1) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double d = double(c[i]) - ref[i];
    num += std::isnan(d) ? INFINITY : d * d;
    den += ref[i] * ref[i];
  }
  double err = std::sqrt(num / (den ? den : 1));
  bool ok = err <= 1e-5;  // f32 accumulation of exact bf16 products
  std::printf("%-58s rel err %.2e %s\n", (what + " [" + g_last_entry + "]").c_str(), err, ok ? "ok" : "FAIL");
  if (!ok) ++failures;
  expect_mm_path(what, tma, aligned_rows);
}

// C[i, j] = sum_k A[i + s, k] B[k + t, j + c], 0 outside A (R x K) and B (P x Q): TMA boxes at
// element offsets (tma_shift_mm: c = 8 u, a multiple of 16 bytes), or B through registers
// (tma_unaligned_mm: c = u, so no TMA box for B; the portable path runs).
// The kernels of one product C[i, j] = sum_k A[i + s, k] B[k + t, j + c]: c = 8 u (a multiple of
// 16 bytes) in tma_shift_mm and in shift_mm_forms (the same offsets written through a widened i32
// loop variable, << and negation), c = u in tma_unaligned_mm.
enum class ShiftMm { Aligned, Forms, Unaligned };

void check_tma_shift_mm(ShiftMm kernel, int64_t R, int64_t K, int64_t P, int64_t Q, int64_t M, int64_t N, int64_t s,
                        int64_t t, int32_t u, std::mt19937_64& rng) {
  std::vector<uint16_t> a = random_bf16(size_t(R * K), rng), b = random_bf16(size_t(P * Q), rng);
  Buffer da(a.size() * 2), db(b.size() * 2), dc(size_t(M * N) * 4);
  da.put(a);
  db.put(b);
  poison(dc);
  bool aligned = kernel != ShiftMm::Unaligned;
  if (kernel == ShiftMm::Forms) CHECK_CU(OFFSETS_LAUNCH(shift_mm_forms, nullptr, da.p, db.p, dc.p, R, K, P, Q, M, N, s, t, u));
  else if (aligned) CHECK_CU(OFFSETS_LAUNCH(tma_shift_mm, nullptr, da.p, db.p, dc.p, R, K, P, Q, M, N, s, t, u));
  else CHECK_CU(OFFSETS_LAUNCH(tma_unaligned_mm, nullptr, da.p, db.p, dc.p, R, K, P, Q, M, N, s, t, u));
  CHECK_CU(cuCtxSynchronize());
  int64_t c = aligned ? 8 * int64_t(u) : u;
  std::vector<double> ref(size_t(M * N), 0.0);
  for (int64_t i = 0; i < M; ++i) {
    if (!inside(i + s, R)) continue;
    for (int64_t k = 0; k < K; ++k) {
      if (!inside(k + t, P)) continue;
      double x = from_bf16(a[size_t((i + s) * K + k)]);
      for (int64_t j = 0; j < N; ++j)
        if (inside(j + c, Q)) ref[size_t(i * N + j)] += x * from_bf16(b[size_t((k + t) * Q + j + c)]);
    }
  }
  compare_mm(std::string(kernel == ShiftMm::Forms ? "shift_mm_forms " : aligned ? "tma_shift_mm " : "tma_unaligned_mm ") + std::to_string(M) + "x" +
                 std::to_string(N) + "x" + std::to_string(K) + " s=" + std::to_string(s) + " t=" + std::to_string(t) +
                 " c=" + std::to_string(c),
             dc.get<float>(size_t(M * N)), ref, aligned && K % 8 == 0 && Q % 8 == 0 && N % 4 == 0,
             K % 8 == 0 && Q % 8 == 0 && N % 4 == 0);
}

// C[i, j] = sum over n in range(8 t, Q, 64) of sum_k A[i + s, k] B[k, n + j], 0 outside A
// (R x 64) and B (64 x Q): a resident TMA tile at a row offset, B's boxes at the loop variable.
void check_tma_resident_mm(int64_t R, int64_t Q, int64_t M, int64_t s, int64_t t, std::mt19937_64& rng) {
  std::vector<uint16_t> a = random_bf16(size_t(R * 64), rng), b = random_bf16(size_t(64 * Q), rng);
  Buffer da(a.size() * 2), db(b.size() * 2), dc(size_t(M * 64) * 4);
  da.put(a);
  db.put(b);
  poison(dc);
  CHECK_CU(OFFSETS_LAUNCH(tma_resident_mm, nullptr, da.p, db.p, dc.p, R, Q, M, s, t));
  CHECK_CU(cuCtxSynchronize());
  std::vector<double> bsum(size_t(64 * 64), 0.0);  // sum over the column blocks of B
  for (int64_t n = 8 * t; n < Q; n += 64)
    for (int64_t k = 0; k < 64; ++k)
      for (int64_t j = 0; j < 64; ++j)
        if (inside(n + j, Q)) bsum[size_t(k * 64 + j)] += from_bf16(b[size_t(k * Q + n + j)]);
  std::vector<double> ref(size_t(M * 64), 0.0);
  for (int64_t i = 0; i < M; ++i)
    if (inside(i + s, R))
      for (int64_t k = 0; k < 64; ++k)
        for (int64_t j = 0; j < 64; ++j)
          ref[size_t(i * 64 + j)] += double(from_bf16(a[size_t((i + s) * 64 + k)])) * bsum[size_t(k * 64 + j)];
  compare_mm("tma_resident_mm " + std::to_string(M) + "x64 Q=" + std::to_string(Q) + " s=" + std::to_string(s) +
                 " n0=" + std::to_string(8 * t),
             dc.get<float>(size_t(M * 64)), ref, Q % 8 == 0);
}

// out[i, j] = sum_t sum_k X[i + t - p, k] W[t, k, j], 0 outside X (L x Ci); W is T x Ci x Co:
// the accumulator carried through nested loops (conv_taps).
void check_conv_taps(int64_t L, int64_t Ci, int64_t T, int64_t Co, int64_t p, std::mt19937_64& rng) {
  std::vector<uint16_t> x = random_bf16(size_t(L * Ci), rng), w = random_bf16(size_t(T * Ci * Co), rng);
  Buffer dx(x.size() * 2), dw(w.size() * 2), dout(size_t(L * Co) * 4);
  dx.put(x);
  dw.put(w);
  poison(dout);
  CHECK_CU(OFFSETS_LAUNCH(conv_taps, nullptr, dx.p, dw.p, dout.p, L, Ci, T, Co, p));
  CHECK_CU(cuCtxSynchronize());
  std::vector<double> ref(size_t(L * Co), 0.0);
  for (int64_t i = 0; i < L; ++i)
    for (int64_t t = 0; t < T; ++t) {
      if (!inside(i + t - p, L)) continue;
      for (int64_t k = 0; k < Ci; ++k) {
        double v = from_bf16(x[size_t((i + t - p) * Ci + k)]);
        for (int64_t j = 0; j < Co; ++j) ref[size_t(i * Co + j)] += v * from_bf16(w[size_t((t * Ci + k) * Co + j)]);
      }
    }
  compare_mm("conv_taps L=" + std::to_string(L) + " Ci=" + std::to_string(Ci) + " T=" + std::to_string(T) +
                 " Co=" + std::to_string(Co) + " p=" + std::to_string(p),
             dout.get<float>(size_t(L * Co)), ref, Ci % 8 == 0 && Co % 8 == 0);
}

// window_scores: P[i, j] = sum_k Q[i, k] K[j, k] where j <= i and i - j < W, else -inf (exactly).
void check_window_scores(int64_t S, int64_t W, std::mt19937_64& rng) {
  std::vector<uint16_t> q = random_f16(size_t(S * 64), rng), k = random_f16(size_t(S * 64), rng);
  Buffer dq(q.size() * 2), dk(k.size() * 2), dp(size_t(S * S) * 4);
  dq.put(q);
  dk.put(k);
  poison(dp);
  CHECK_CU(OFFSETS_LAUNCH(window_scores, nullptr, dq.p, dk.p, dp.p, S, W));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> p = dp.get<float>(size_t(S * S));
  double num = 0, den = 0;
  int64_t bad_mask = 0;
  for (int64_t i = 0; i < S; ++i)
    for (int64_t j = 0; j < S; ++j) {
      float got = p[size_t(i * S + j)];
      if (!(j <= i && i - j < W)) {
        bad_mask += !(std::isinf(got) && got < 0);
        continue;
      }
      double ref = 0;
      for (int64_t c = 0; c < 64; ++c) ref += double(from_f16(q[size_t(i * 64 + c)])) * from_f16(k[size_t(j * 64 + c)]);
      double d = got - ref;
      num += std::isnan(d) ? INFINITY : d * d;
      den += ref * ref;
    }
  double err = std::sqrt(num / (den ? den : 1));
  bool ok = err <= 1e-5 && bad_mask == 0;
  std::printf("%-58s rel err %.2e, %lld masked not -inf %s\n",
              ("window_scores S=" + std::to_string(S) + " W=" + std::to_string(W) + " [" + g_last_entry + "]").c_str(),
              err, (long long)bad_mask, ok ? "ok" : "FAIL");
  if (!ok) ++failures;
  expect_mm_path("window_scores", S % 4 == 0);
}

// The 5-point stencil sample: out = 4 x - (up + down) - (left + right), zero outside, in f32
// as the kernel computes it (4 x is exact, so contraction into an fma changes nothing).
void check_stencil(int64_t M, int64_t N, std::mt19937_64& rng) {
  std::vector<float> x = random_floats(size_t(M * N), rng, -10.f, 10.f);
  Buffer dx(x.size() * 4), dout(x.size() * 4);
  dx.put(x);
  poison(dout);
  CHECK_CU(stencil2d(nullptr, dx.p, dout.p, M, N));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> out = dout.get<float>(x.size());
  auto at = [&](int64_t i, int64_t j) { return inside(i, M) && inside(j, N) ? x[size_t(i * N + j)] : 0.f; };
  size_t bad = 0, first = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float ref = 4.f * at(i, j) - (at(i - 1, j) + at(i + 1, j)) - (at(i, j - 1) + at(i, j + 1));
      if (bits(out[size_t(i * N + j)]) != bits(ref) && !bad++) first = size_t(i * N + j);
    }
  report("stencil2d f32 " + std::to_string(M) + "x" + std::to_string(N), size_t(M * N), bad, first);
}

// The gated activation sample: out = silu(x[:, :D]) * x[:, D:] in bf16, f32 arithmetic.
void check_silu_gate(int64_t M, int64_t D, std::mt19937_64& rng) {
  std::vector<float> xf = random_floats(size_t(M * 2 * D), rng, -6.f, 6.f);
  std::vector<uint16_t> x(xf.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = to_bf16(xf[i]);
  Buffer dx(x.size() * 2), dout(size_t(M * D) * 2);
  dx.put(x);
  poison(dout);
  CHECK_CU(silu_gate(nullptr, dx.p, dout.p, M, 2 * D, D));
  CHECK_CU(cuCtxSynchronize());
  std::vector<uint16_t> out = dout.get<uint16_t>(size_t(M * D));
  double num = 0, den = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < D; ++j) {
      double g = from_bf16(x[size_t(i * 2 * D + j)]), u = from_bf16(x[size_t(i * 2 * D + D + j)]);
      double ref = g / (1 + std::exp(-g)) * u, d = from_bf16(out[size_t(i * D + j)]) - ref;
      num += std::isnan(d) ? INFINITY : d * d;
      den += ref * ref;
    }
  double err = std::sqrt(num / (den ? den : 1));
  bool ok = err <= 4e-3;  // one bf16 rounding: 2^-9 relative at most per element
  std::printf("%-58s rel err %.2e %s\n",
              ("silu_gate bf16 " + std::to_string(M) + "x" + std::to_string(D) + " [" + g_last_entry + "]").c_str(),
              err, ok ? "ok" : "FAIL");
  if (!ok) ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  use_device_0_with_cc();
  std::mt19937_64 rng(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));

  // Vectorized variant (every innermost extent a multiple of 4 f32), offsets of both signs.
  check_shift_load(300, 1000, 300, 1000, -3, -5, rng);
  check_shift_load(64, 128, 64, 128, -100, 0, rng);       // wholly outside for the first tiles
  check_shift_load(64, 128, 48, 64, 70, 200, rng);        // every position outside: all -1
  // General variant: ragged extents.
  check_shift_load(301, 1001, 257, 999, 7, 3, rng);
  check_shift_load(5, 3, 17, 65, -1, -1, rng);
  check_shift_store(200, 300, 210, 296, -7, 5, rng);
  check_shift_store(64, 64, 64, 64, 3, -70, rng);         // writes nothing
  check_shift_store(33, 65, 40, 70, 2, 1, rng);           // general variant
  // f16: aligned column offsets (16-byte vectors) and unaligned rows, then ragged.
  check_shift_load_h(100, 512, 100, 512, -2, 1, rng);
  check_shift_load_h(100, 512, 77, 256, 5, -3, rng);
  check_shift_load_h(99, 1001, 98, 1003, 1, 2, rng);
  check_shift_load_h(100, 512, 100, 512, -2, 0, rng, -3);   // column -3: the first vector outside
  check_shift_load_h(100, 512, 77, 256, 5, 32, rng, -3);    // the last columns past Q
  check_shift_load_h(99, 1001, 98, 1003, 1, 1, rng, -3);    // general variant
  check_window1d(4096, 5, rng);
  check_dependent_launches(1 << 22, 257, 16, rng);        // |values| <= 8 * 2^16: exact in f32
  check_dependent_launches(1 << 16, 1, 16, rng);
  check_window1d(1000003, 3, rng);
  check_window1d(4096, 5000, rng);  // both shifts wholly outside: zeros
  check_window1d(1, 0, rng);
  // Windows of a tile in registers: vectorized and general variants, negative offsets, tiles
  // partly and wholly outside, ragged edges; f16 with i32 offsets (and one that wraps: the
  // plain load then runs, every element outside x).
  check_windows(300, 1000, 300, 1000, 0, 0, rng);
  check_windows(300, 1000, 256, 960, -3, -5, rng);
  check_windows(301, 1001, 257, 999, 7, 3, rng);
  check_windows(5, 3, 17, 65, -1, -1, rng);
  check_windows(64, 128, 48, 64, 70, 200, rng);           // every position outside
  check_windows_h(100, 512, 100, 512, -2, 0, rng);
  check_windows_h(100, 512, 77, 256, 5, -13, rng);
  check_windows_h(99, 1001, 98, 1003, 1, 3, rng);
  check_windows_h(20, 64, 20, 64, 0, 2147483647 - 2, rng);  // c + 5 wraps in i32
  check_windows1d(4096, rng);
  check_windows1d(1000003, rng);
  check_windows1d(3, rng);
  for (bool portable : {false, true}) {
    g_portable = portable;
    check_window_mm(300, 96, 128, 256, 20, rng);            // vectorized variant
    check_window_mm(300, 100, 130, 257, -10, rng);          // ragged K, N, M: general
    // TMA boxes at element offsets (the tma_wgmma path on a 9.0 device): offsets of both signs,
    // ragged K and extents, 64-bit offsets far outside (clamped: all zeros), a B whose rows are
    // not 16-byte aligned (Q odd: the portable path), and a B whose column offset is not a known
    // multiple of 16 bytes (tma_unaligned_mm: the portable path).
    check_tma_shift_mm(ShiftMm::Aligned, 300, 200, 250, 296, 256, 256, -7, 3, -1, rng);
    check_tma_shift_mm(ShiftMm::Aligned, 300, 200, 250, 296, 200, 136, 77, -60, 12, rng);
    check_tma_shift_mm(ShiftMm::Aligned, 128, 64, 64, 128, 128, 128, int64_t(1) << 40, 0, 0, rng);      // A wholly outside
    check_tma_shift_mm(ShiftMm::Aligned, 128, 64, 64, 128, 128, 128, 0, -(int64_t(1) << 33), 0, rng);   // B wholly outside
    check_tma_shift_mm(ShiftMm::Aligned, 130, 72, 80, 136, 130, 130, 1, 5, -268435456 + 4, rng);        // 8 u near INT32_MIN
    check_tma_shift_mm(ShiftMm::Aligned, 100, 64, 70, 99, 100, 99, 2, -3, 1, rng);
    check_tma_shift_mm(ShiftMm::Forms, 300, 200, 250, 296, 256, 256, -7, 3, -1, rng);
    check_tma_shift_mm(ShiftMm::Forms, 100, 72, 70, 99, 100, 99, 2, -3, 1, rng);
    check_tma_shift_mm(ShiftMm::Unaligned, 300, 200, 250, 296, 256, 256, -7, 3, -5, rng);
    check_tma_shift_mm(ShiftMm::Unaligned, 130, 72, 80, 136, 130, 130, 1, 5, 3, rng);
    check_tma_resident_mm(300, 1000, 256, -10, -4, rng);
    check_tma_resident_mm(300, 1000, 200, 130, 9, rng);
    check_tma_resident_mm(64, 200, 64, -(int64_t(1) << 36), 0, rng);                        // A wholly outside
    check_tma_resident_mm(64, 203, 64, 0, 1, rng);
    check_window_scores(1000, 200, rng);
    check_window_scores(301, 1000, rng);                   // W beyond S: plain causal
    check_window_scores(256, 1, rng);                      // the diagonal only
    check_conv_taps(1000, 192, 3, 256, 1, rng);
    check_conv_taps(300, 100, 5, 130, 2, rng);             // ragged channels: the portable path
    check_conv_taps(129, 64, 1, 64, 0, rng);
  }
  g_portable = false;
  check_stencil(1, 1, rng);
  check_stencil(17, 129, rng);
  check_stencil(1000, 1003, rng);
  check_stencil(256, 512, rng);
  check_silu_gate(3, 1001, rng);
  check_silu_gate(1, 8, rng);
  check_silu_gate(64, 4096, rng);
  if (!small) {
    check_stencil(4096, 4096, rng);
    check_silu_gate(2048, 4096, rng);
    check_silu_gate(1000, 1536 + 7, rng);
  }
  std::printf("%s\n", failures ? "FAILED" : "all ok");
  return failures ? 1 : 0;
}
