// GPU correctness of mma loops whose operands are loaded at run-time element offsets of any
// alignment (tests/gpu/offsets_mm.tile; not in CI: needs a GPU), for f16, bf16 and i8, from the
// default target's header (on a 9.0 device: the tma_wgmma path, whose wgmma takes an unaligned A
// from registers) and from the -arch sm_80 header (the portable path). Inputs are integers in
// -2..2, so every product and sum is exact: a result is right or wrong, no tolerance. Each case
// runs three times (the bug it guards against, issue 35, was a race between an unfinished wgmma
// and the registers of its A operand). Exits non-zero on a mismatch.
//   check_offsets_mm [--small | --time]   (--small: the sizes that compute-sanitizer runs)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "check_util.h"  // first: it defines TILEC_TRACE_LAUNCH for the headers
#include "offsets_mm_bf16.h"
#include "offsets_mm_f16.h"
#include "offsets_mm_i8.h"
#include "offsets_mm_p80_bf16.h"
#include "offsets_mm_p80_f16.h"
#include "offsets_mm_p80_i8.h"

namespace {

constexpr int64_t BK = 64;  // offsets_mm.tile's k step

// One header's three kernels (offsets_mm.tile): A at offsets, B at offsets, both.
struct Kernels {
  const char* name;
  CUresult (*a_off)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t MA, int64_t KA, int64_t K, int64_t N,
                    int64_t M, int64_t r0, int64_t c0);
  CUresult (*b_off)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t M, int64_t K, int64_t KB, int64_t NB,
                    int64_t N, int64_t t0, int64_t c1);
  CUresult (*ab_off)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t MA, int64_t KA, int64_t KB,
                     int64_t NB, int64_t M, int64_t N, int64_t r0, int64_t c0, int64_t t0, int64_t c1, int64_t KT);
  int bytes;      // of an input element
  bool integer;   // i8 in, i32 out (else f16/bf16 in, f32 out)
  bool is_bf16;
  bool portable;  // the -arch sm_80 header
};

const Kernels kKernels[] = {
    {"f16", f16_mm_a_off, f16_mm_b_off, f16_mm_ab_off, 2, false, false, false},
    {"bf16", bf16_mm_a_off, bf16_mm_b_off, bf16_mm_ab_off, 2, false, true, false},
    {"i8", i8_mm_a_off, i8_mm_b_off, i8_mm_ab_off, 1, true, false, false},
    {"p80 f16", p80_f16_mm_a_off, p80_f16_mm_b_off, p80_f16_mm_ab_off, 2, false, false, true},
    {"p80 bf16", p80_bf16_mm_a_off, p80_bf16_mm_b_off, p80_bf16_mm_ab_off, 2, false, true, true},
    {"p80 i8", p80_i8_mm_a_off, p80_i8_mm_b_off, p80_i8_mm_ab_off, 1, true, false, true},
};

enum class Form { A, B, AB };

// The product of offsets_mm.tile in its general form: C[i, j] = sum over k < KT * BK of
// A[r0 + i, c0 + k] B[t0 + k, c1 + j], 0 outside A (MA x KA) and B (KB x NB).
struct Case {
  Form form;
  int64_t M, N, MA, KA, KB, NB, r0, c0, t0, c1, KT;
};

// n integers in -2..2, encoded as the kernel's input type.
std::vector<uint8_t> random_ints(const Kernels& k, size_t n, std::mt19937_64& rng, std::vector<int>& values) {
  std::uniform_int_distribution<int> d(-2, 2);
  values.resize(n);
  std::vector<uint8_t> bytes(n * size_t(k.bytes));
  for (size_t i = 0; i < n; ++i) {
    values[i] = d(rng);
    if (k.integer) {
      bytes[i] = uint8_t(int8_t(values[i]));
    } else {
      uint16_t h = k.is_bf16 ? to_bf16(float(values[i])) : to_f16(float(values[i]));
      std::memcpy(&bytes[2 * i], &h, 2);
    }
  }
  return bytes;
}

bool inside(int64_t i, int64_t n) { return i >= 0 && i < n; }

CUresult launch(const Kernels& k, const Case& c, CUdeviceptr a, CUdeviceptr b, CUdeviceptr out) {
  switch (c.form) {
    case Form::A: return k.a_off(nullptr, a, b, out, c.MA, c.KA, c.KB, c.N, c.M, c.r0, c.c0);
    case Form::B: return k.b_off(nullptr, a, b, out, c.M, c.KA, c.KB, c.NB, c.N, c.t0, c.c1);
    case Form::AB: break;
  }
  return k.ab_off(nullptr, a, b, out, c.MA, c.KA, c.KB, c.NB, c.M, c.N, c.r0, c.c0, c.t0, c.c1, c.KT);
}

void check(const Kernels& k, const Case& c, std::mt19937_64& rng) {
  std::vector<int> av, bv;
  std::vector<uint8_t> a = random_ints(k, size_t(c.MA * c.KA), rng, av), b = random_ints(k, size_t(c.KB * c.NB), rng, bv);
  std::vector<double> ref(size_t(c.M * c.N), 0.0);
  for (int64_t i = 0; i < c.M; ++i) {
    if (!inside(c.r0 + i, c.MA)) continue;
    for (int64_t kk = 0; kk < c.KT * BK; ++kk) {
      if (!inside(c.c0 + kk, c.KA) || !inside(c.t0 + kk, c.KB)) continue;
      int x = av[size_t((c.r0 + i) * c.KA + c.c0 + kk)];
      if (x == 0) continue;
      const int* brow = &bv[size_t((c.t0 + kk) * c.NB)];
      for (int64_t j = 0; j < c.N; ++j)
        if (inside(c.c1 + j, c.NB)) ref[size_t(i * c.N + j)] += double(x * brow[c.c1 + j]);
    }
  }
  Buffer da(a.size()), db(b.size()), dc(size_t(c.M * c.N) * 4);
  da.put(a);
  db.put(b);
  const char* form = c.form == Form::A ? "a_off" : c.form == Form::B ? "b_off" : "ab_off";
  std::string what = std::string(k.name) + " mm_" + form + " " + std::to_string(c.M) + "x" + std::to_string(c.N) +
                     " KT=" + std::to_string(c.KT) + " A " + std::to_string(c.MA) + "x" + std::to_string(c.KA) + " at (" +
                     std::to_string(c.r0) + ", " + std::to_string(c.c0) + ") B " + std::to_string(c.KB) + "x" +
                     std::to_string(c.NB) + " at (" + std::to_string(c.t0) + ", " + std::to_string(c.c1) + ")";
  for (int run = 0; run < 3; ++run) {
    poison(dc);
    CHECK_CU(launch(k, c, da.p, db.p, dc.p));
    CHECK_CU(cuCtxSynchronize());
    size_t bad = 0, first = 0;
    double got_first = 0;
    if (k.integer) {
      std::vector<int32_t> out = dc.get<int32_t>(ref.size());
      for (size_t i = 0; i < ref.size(); ++i)
        if (double(out[i]) != ref[i] && bad++ == 0) first = i, got_first = out[i];
    } else {
      std::vector<float> out = dc.get<float>(ref.size());
      for (size_t i = 0; i < ref.size(); ++i)
        if (double(out[i]) != ref[i] && bad++ == 0) first = i, got_first = out[i];
    }
    if (bad) {
      std::printf("%-100s [%s] FAIL run %d: %zu of %zu wrong, C[%zu] = %.9g, expected %.9g\n", what.c_str(),
                  g_last_entry, run, bad, ref.size(), first, got_first, ref[first]);
      ++failures;
      return;
    }
  }
  std::printf("%-100s [%s] ok\n", what.c_str(), g_last_entry);
  // A at offsets with 16-byte aligned rows on a 9.0 device: wgmma with A from registers.
  bool rs = c.form == Form::A && !k.integer && !k.portable && c.KA % 8 == 0 && c.N % 8 == 0 && c.M > 0;
  if (rs && g_device_cc == 90) expect_path(what, true);
  if (k.portable || c.form != Form::A) expect_path(what, false);
}

// cdiv(K, BK) k steps of a K-long product.
int64_t steps(int64_t K) { return (K + BK - 1) / BK; }

// --time: median of 21 CUDA-event timings of the f16 A-at-offsets kernel at n x n x n (c0 = 1:
// A through registers), what the wait for the group costs.
void time_a_off(int64_t n) {
  Buffer da(size_t(n * n) * 2), db(size_t(n * n) * 2), dc(size_t(n * n) * 4);
  CHECK_CU(cuMemsetD16(da.p, 0x3c00, size_t(n * n)));  // 1.0
  CHECK_CU(cuMemsetD16(db.p, 0x3c00, size_t(n * n)));
  CUevent e0, e1;
  CHECK_CU(cuEventCreate(&e0, 0));
  CHECK_CU(cuEventCreate(&e1, 0));
  std::vector<float> ms;
  for (int i = 0; i < 24; ++i) {
    CHECK_CU(cuEventRecord(e0, nullptr));
    CHECK_CU(f16_mm_a_off(nullptr, da.p, db.p, dc.p, n, n, n, n, n, 0, 1));
    CHECK_CU(cuEventRecord(e1, nullptr));
    CHECK_CU(cuEventSynchronize(e1));
    float t = 0;
    CHECK_CU(cuEventElapsedTime(&t, e0, e1));
    if (i >= 3) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  double med = ms[ms.size() / 2];
  std::printf("f16 mm_a_off %lldx%lldx%lld at (0, 1) [%s]: median %.3f ms (min %.3f, max %.3f), %.1f TFLOP/s\n",
              (long long)n, (long long)n, (long long)n, g_last_entry, med, ms.front(), ms.back(),
              2.0 * double(n) * double(n) * double(n) / (med * 1e-3) / 1e12);
}

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::strcmp(argv[1], "--small") == 0;
  use_device_0_with_cc();
  if (argc > 1 && std::strcmp(argv[1], "--time") == 0) {
    time_a_off(4096);
    time_a_off(8192);
    return 0;
  }
  std::mt19937_64 rng(std::random_device{}());
  std::vector<Case> cases;
  // Issue 35's case: M 200, N 296, K 136, A 211 x 152 (rows 16-byte aligned for 16-bit types),
  // at the offsets it reported wrong (0, 1), (-5, -3) and right, then A 211 x 150 (the general
  // variant), then K not a multiple of BK at odd offsets on larger shapes.
  for (auto [r0, c0] : std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {-5, -3}, {3, 5}, {7, 13}, {0, 0}, {-1, 151}})
    cases.push_back({Form::A, 200, 296, 211, 152, 136, 296, r0, c0, 0, 0, steps(136)});
  cases.push_back({Form::A, 200, 296, 211, 150, 136, 296, 0, 1, 0, 0, steps(136)});
  cases.push_back({Form::A, 130, 128, 130, 64, 64, 128, 0, 1, 0, 0, 1});
  // B at offsets (the portable path everywhere: wgmma reads B from shared memory).
  for (auto [t0, c1] : std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {-5, -3}, {3, 8}, {2, -7}})
    cases.push_back({Form::B, 200, 296, 200, 136, 150, 310, 0, 0, t0, c1, steps(136)});
  // Both at offsets.
  cases.push_back({Form::AB, 200, 296, 211, 152, 150, 310, 0, 1, 0, 1, 3});
  cases.push_back({Form::AB, 200, 296, 211, 152, 150, 310, -5, -3, 4, -9, 3});
  cases.push_back({Form::AB, 200, 296, 211, 152, 150, 310, 3, 8, -2, 16, 3});
  cases.push_back({Form::AB, 77, 33, 90, 97, 95, 41, 1, 7, 5, 3, 2});
  if (!small) {
    cases.push_back({Form::A, 1000, 512, 1100, 1024, 1000, 512, 17, 9, 0, 0, steps(1000)});
    cases.push_back({Form::A, 1000, 512, 1100, 1024, 1000, 512, -33, -1, 0, 0, steps(1000)});
    cases.push_back({Form::A, 1024, 512, 1024, 2048, 2000, 512, 0, 3, 0, 0, steps(2000)});
    cases.push_back({Form::B, 1000, 512, 1000, 1000, 1003, 530, 0, 0, -1, 5, steps(1000)});
    cases.push_back({Form::AB, 1000, 512, 1100, 1024, 1003, 530, 11, -7, 9, 13, 16});
  }
  for (const Kernels& k : kKernels)
    for (const Case& c : cases) check(k, c, rng);
  std::printf("%s\n", failures ? "FAILED" : "all ok");
  return failures ? 1 : 0;
}
