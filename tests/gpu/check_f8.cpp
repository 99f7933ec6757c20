// f8 and tf32 on the GPU (issue 16): astype to and from f8e4m3 and f8e5m2 against exact CPU
// references (tests/gpu/f8.tile), samples/matmul_f8.tile against float64 with its error bound,
// matmul_bt.tile -D T=tf32 (check_tf32, below) and an i8 GEMM (tests/gpu/i8.tile, check_i8).
//   - decode: all 256 bytes of each format to f32, f16 and bf16, compared exactly (a NaN byte
//     must give a NaN);
//   - encode: f32 and f16 values at and on both sides of every rounding boundary of each format
//     (each finite value, each midpoint between neighbours, the largest finite value and beyond,
//     infinities, NaN, f32 subnormals; both signs) must give f8_round's byte exactly (a NaN
//     input any NaN byte); f8 of one format to the other likewise;
//   - matmul_f8: C = (A @ B^T) * sa * sb in bf16, A [M, K] and B [N, K] of random finite f8
//     bytes (|x| <= 8, subnormals included). Each sampled element must satisfy
//       |c - ref| <= 2^-8 |ref| + 2^-20 mag + ceil(K / 32) * 2^-12 * mag,
//     mag = sa sb sum_k |a_ik b_jk|: bf16 rounding of C, the f32 epilogue, and one rounding of
//     at most 2^-12 of the running sum per k32 wgmma step (Hopper's f8 accumulation keeps about
//     14 bits, DeepSeek-V3 report §3.3.2; nothing promotes it). The relative Frobenius error of
//     the samples must also stay under 2^-7, so that a wrong kernel cannot hide in the bound.
//     Which entry ran is checked: _wgmma where every row is 16-byte aligned (K and 2 N multiples
//     of 16), the portable one else; e5m2 A beside e4m3 B on both. The vectorized portable
//     entry (_v16), which the launcher never picks on the H200, is launched by name
//     (portable_entry) for the three builds.
//     With -D PROMOTE=True (a promotion into f32 registers every 4 k32 steps) the bound's
//     ceil(K / 32) becomes min(4, ceil(K / 32)) plus the f32 additions (within 2^-20 mag).
//   check_f8 [--small]   one line per case; exit status 1 on a failure; --small: the shapes
//                        compute-sanitizer runs
#include <cuda.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "check_util.h"  // before the generated headers: TILEC_TRACE_LAUNCH
#include "f8_util.h"
#include "f8_matmul_check.h"
#include "f8.h"
#include "matmul_f8.h"
#include "matmul_f8_e5m2.h"
#include "matmul_f8_promote.h"
#include "matmul_bt_tf32.h"
#include "i8.h"

namespace {

// Byte-exact comparison; a NaN expected byte accepts any NaN byte.
void expect_bytes(const char* what, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, bool e5m2,
                  const std::vector<float>& in) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    bool ok = f8_is_nan(want[i], e5m2) ? f8_is_nan(got[i], e5m2) : got[i] == want[i];
    if (!ok && bad++ == 0) first = i;
  }
  report(what, want.size(), bad, 0, first);
  if (bad)
    std::printf("    input %a: got 0x%02x, want 0x%02x\n", double(in[first]), unsigned(got[first]),
                unsigned(want[first]));
}

void check_decode(bool e5m2) {
  const int64_t n = 256;
  std::vector<uint8_t> x(n);
  for (int i = 0; i < n; ++i) x[size_t(i)] = uint8_t(i);
  Buffer X(n), Y(n * 4), H(n * 2), B(n * 2);
  X.put(x);
  for (const Buffer* b : {&Y, &H, &B}) poison(*b);
  CHECK_CU((e5m2 ? decode_e5m2 : decode_e4m3)(nullptr, X.p, Y.p, H.p, B.p, n));
  CHECK_CU(cuCtxSynchronize());
  std::vector<float> y = Y.get<float>(n);
  std::vector<uint16_t> h = H.get<uint16_t>(n), b = B.get<uint16_t>(n);
  size_t bad = 0, first = 0;
  for (int i = 0; i < n; ++i) {
    double want = f8_value(uint8_t(i), e5m2);
    double got[3] = {y[size_t(i)], from_f16(h[size_t(i)]), from_bf16(b[size_t(i)])};
    for (double g : got) {
      bool ok = std::isnan(want) ? std::isnan(g) : g == want && std::signbit(g) == std::signbit(want);
      if (!ok && bad++ == 0) first = size_t(i);
    }
  }
  report(e5m2 ? "decode f8e5m2 -> f32, f16, bf16" : "decode f8e4m3 -> f32, f16, bf16", n, bad, 0, first);
}

// f32 values at and around every rounding boundary of both formats, both signs.
std::vector<float> boundary_inputs() {
  std::vector<float> v;
  for (bool e5m2 : {false, true}) {
    uint8_t top = e5m2 ? 0x7b : 0x7e;
    for (int b = 0; b <= top; ++b) {
      float x = float(f8_value(uint8_t(b), e5m2));
      float next = b < top ? float(f8_value(uint8_t(b + 1), e5m2)) : 2 * x;  // beyond the top: saturates
      float mid = x + (next - x) / 2;  // exact: one bit more than an f8 significand
      for (float y : {x, mid}) {
        v.push_back(y);
        v.push_back(std::nextafter(y, 0.0f));
        v.push_back(std::nextafter(y, INFINITY));
      }
    }
  }
  for (float y : {FLT_MAX, INFINITY, 1e30f, 65504.0f, FLT_TRUE_MIN, FLT_MIN, 1e-30f, 0x1p-10f, 0x1p-17f}) v.push_back(y);
  size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  v.push_back(NAN);
  v.push_back(-NAN);
  return v;
}

void check_encode() {
  std::vector<float> x = boundary_inputs();
  int64_t n = int64_t(x.size());
  std::vector<uint16_t> h(x.size());
  std::vector<float> hf(x.size());  // the f16 inputs' values
  for (size_t i = 0; i < x.size(); ++i) {
    h[i] = to_f16(x[i]);
    hf[i] = from_f16(h[i]);
  }
  size_t un = x.size();
  Buffer X(un * 4), H(un * 2), E4(un), E5(un), H4(un), H5(un);
  X.put(x);
  H.put(h);
  for (const Buffer* b : {&E4, &E5, &H4, &H5}) poison(*b);
  CHECK_CU(encode(nullptr, X.p, H.p, E4.p, E5.p, H4.p, H5.p, n));
  CHECK_CU(cuCtxSynchronize());
  std::vector<uint8_t> w4(x.size()), w5(x.size()), wh4(x.size()), wh5(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    w4[i] = f8_round(x[i], false);
    w5[i] = f8_round(x[i], true);
    wh4[i] = f8_round(hf[i], false);
    wh5[i] = f8_round(hf[i], true);
  }
  expect_bytes("encode f32 -> f8e4m3 (boundaries)", E4.get<uint8_t>(size_t(n)), w4, false, x);
  expect_bytes("encode f32 -> f8e5m2 (boundaries)", E5.get<uint8_t>(size_t(n)), w5, true, x);
  expect_bytes("encode f16 -> f8e4m3 (boundaries)", H4.get<uint8_t>(size_t(n)), wh4, false, hf);
  expect_bytes("encode f16 -> f8e5m2 (boundaries)", H5.get<uint8_t>(size_t(n)), wh5, true, hf);
}

void check_recode() {
  const int64_t n = 256;
  std::vector<uint8_t> x(n), w5(n), w4(n);
  std::vector<float> v4(n), v5(n);
  for (int i = 0; i < n; ++i) {
    x[size_t(i)] = uint8_t(i);
    v4[size_t(i)] = float(f8_value(uint8_t(i), false));
    v5[size_t(i)] = float(f8_value(uint8_t(i), true));
    w5[size_t(i)] = f8_round(v4[size_t(i)], true);
    w4[size_t(i)] = f8_round(v5[size_t(i)], false);
  }
  Buffer X(n), Y5(n), Y4(n);
  X.put(x);
  poison(Y5);
  poison(Y4);
  CHECK_CU(recode(nullptr, X.p, X.p, Y5.p, Y4.p, n));
  CHECK_CU(cuCtxSynchronize());
  expect_bytes("f8e4m3 -> f8e5m2 (all bytes)", Y5.get<uint8_t>(n), w5, true, v4);
  expect_bytes("f8e5m2 -> f8e4m3 (all bytes)", Y4.get<uint8_t>(n), w4, false, v5);
}

// A launch of the vectorized portable entry (<kernel>_config<i>_v16) of configuration `config`
// of a matmul_f8 header by name, with that configuration's grid and shared memory (metadata
// `md`). On the H200 the header's launcher takes the tma_wgmma entry wherever every row is
// 16-byte aligned and the general entry elsewhere, so the _v16 entry runs only this way.
// Contiguous arrays; PTX parameters as in the header's launcher (per array its base and element
// strides, then M, K, N).
Launch portable_entry(const tilec_kernel_metadata& md, int config) {
  std::string entry = "matmul_f8_config" + std::to_string(config) + "_v16";
  return [&md, config, entry](CUstream s, CUdeviceptr A, CUdeviceptr B, CUdeviceptr SA, CUdeviceptr SB,
                              CUdeviceptr C, int64_t M, int64_t K, int64_t N) -> CUresult {
    static std::map<std::string, CUkernel> kernels;  // the headers' kernels share a name
    const tilec_config_info& cfg = md.configs[config];
    if (!cfg.label) return CUDA_ERROR_INVALID_VALUE;  // left out of this build
    const tilec_path_info& path = cfg.paths[cfg.num_paths - 1];
    CUkernel& k = kernels[std::to_string(reinterpret_cast<uintptr_t>(&md)) + "/" + entry];  // per header
    if (!k) {
      CUlibrary lib;
      CUresult r = cuLibraryLoadData(&lib, md.image, nullptr, nullptr, 0, nullptr, nullptr, 0);
      if (r == CUDA_SUCCESS) r = cuLibraryGetKernel(&k, lib, entry.c_str());
      CUdevice dev;
      if (r == CUDA_SUCCESS) r = cuCtxGetDevice(&dev);
      if (r == CUDA_SUCCESS)
        r = cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, path.dynamic_shared_bytes, k, dev);
      if (r != CUDA_SUCCESS) return r;
    }
    long bm = 0, bn = 0;  // the label is "BM=128, BN=256" (the sample's configs=)
    if (std::sscanf(cfg.label, "BM=%ld, BN=%ld", &bm, &bn) != 2) return CUDA_ERROR_INVALID_VALUE;
    int64_t sa0 = K, sa1 = 1, sb0 = K, sb1 = 1, sc0 = N, sc1 = 1;
    void* args[] = {&A, &sa0, &sa1, &B, &sb0, &sb1, &SA, &SB, &C, &sc0, &sc1, &M, &K, &N};
    g_last_entry = entry.c_str();
    return cuLaunchKernel(reinterpret_cast<CUfunction>(k), unsigned(cdiv(M, bm) * cdiv(N, bn)), 1, 1,
                          unsigned(path.threads_per_cta), 1, 1, unsigned(path.dynamic_shared_bytes), s, args, nullptr);
  };
}

// tf32 on wgmma (matmul_bt.tile -D T=tf32): C = A @ B^T in f32 from f32 bits read as tf32, A
// [M, K] and B [N, K] uniform in [-1, 1]. The tensor cores keep 11 significant bits of each
// input (a relative change of at most 2^-10 each, truncated or rounded) and add in f32, so
// |c - ref| <= 2^-9 mag + K 2^-23 mag per element, mag = sum_k |a_ik b_jk|; the relative error
// of the samples must also stay under 2^-8 (a wrong kernel cannot hide in the bound).
void check_tf32(int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  std::vector<float> a(size_t(M * K)), b(size_t(N * K));
  fill(a, rng, -1, 1);
  fill(b, rng, -1, 1);
  Buffer A(a.size() * 4), B(b.size() * 4), C(size_t(M * N * 4));
  A.put(a);
  B.put(b);
  poison(C);
  CHECK_CU(tf_matmul_bt(nullptr, A.p, B.p, C.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  char what[96];
  std::snprintf(what, sizeof what, "matmul_bt tf32 %ldx%ldx%ld", long(M), long(N), long(K));
  if (g_device_cc == 90) expect_path(what, K * 4 % 16 == 0 && N * 4 % 16 == 0);
  std::vector<float> c = C.get<float>(size_t(M * N));
  std::uniform_int_distribution<int64_t> row(0, M - 1), col(0, N - 1);
  double worst = 0, num = 0, den = 0;
  size_t bad = 0;
  for (int t = 0; t < 2000; ++t) {
    int64_t i = row(rng), j = col(rng);
    double ref = 0, mag = 0;
    for (int64_t k = 0; k < K; ++k) {
      double p = double(a[size_t(i * K + k)]) * double(b[size_t(j * K + k)]);
      ref += p;
      mag += std::fabs(p);
    }
    double err = std::fabs(double(c[size_t(i * N + j)]) - ref), bound = (0x1p-9 + double(K) * 0x1p-23) * mag;
    if (!(err <= bound)) ++bad;
    worst = std::max(worst, std::isnan(err) ? INFINITY : err / bound);
    num += err * err;
    den += ref * ref;
  }
  double rel = std::sqrt(num / (den ? den : 1));
  bool ok = !bad && rel < 0x1p-8;
  std::printf("%-34s n=%-11d %s  worst err/bound %.3f, rel err %.2e\n", what, 2000, ok ? "ok  " : "FAIL", worst, rel);
  if (!ok) ++failures;
}

// i8 on wgmma (tests/gpu/i8.tile: IGMMA .s32.s8.s8 on the _wgmma entry, mma.sync .s32 on the
// portable ones): C = A @ B^T in i32, A [M, K] and B [N, K] uniform in [-128, 127]. Integer
// products and sums are exact (|C| <= 128^2 K < 2^31 for K <= 2^17), so every element must
// equal the int64 reference.
void check_i8(int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> byte(-128, 127);
  std::vector<int8_t> a(size_t(M * K)), b(size_t(N * K));
  for (int8_t& x : a) x = int8_t(byte(rng));
  for (int8_t& x : b) x = int8_t(byte(rng));
  Buffer A(a.size()), B(b.size()), C(size_t(M * N * 4));
  A.put(a);
  B.put(b);
  poison(C);
  CHECK_CU(matmul_i8(nullptr, A.p, B.p, C.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  char what[96];
  std::snprintf(what, sizeof what, "matmul_i8 %ldx%ldx%ld", long(M), long(N), long(K));
  if (g_device_cc == 90) expect_path(what, K % 16 == 0 && N * 4 % 16 == 0);  // 16-byte rows of A, B and C
  std::vector<int32_t> c = C.get<int32_t>(size_t(M * N));
  size_t bad = 0, first = 0, n = 0;
  std::uniform_int_distribution<int64_t> row(0, M - 1), col(0, N - 1);
  int64_t samples = std::min<int64_t>(M * N, 20000);
  for (int64_t t = 0; t < samples; ++t, ++n) {
    int64_t i = M * N <= 20000 ? t / N : row(rng), j = M * N <= 20000 ? t % N : col(rng);
    int64_t ref = 0;
    for (int64_t k = 0; k < K; ++k) ref += int64_t(a[size_t(i * K + k)]) * int64_t(b[size_t(j * K + k)]);
    if (int64_t(c[size_t(i * N + j)]) != ref && bad++ == 0) first = size_t(i * N + j);
  }
  report(what, n, bad, 0, first);
}

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::string(argv[1]) == "--small";
  use_device_0_with_cc();
  std::mt19937_64 rng(std::random_device{}());
  check_decode(false);
  check_decode(true);
  check_encode();
  check_recode();
  struct Shape {
    int64_t M, N, K;
  };
  std::vector<Shape> shapes = {{128, 256, 128}, {300, 500, 512}, {200, 136, 200}, {1024, 1024, 4096}};
  if (!small) shapes.push_back({4096, 4096, 8192});
  for (const Shape& s : shapes) check_matmul("matmul_f8 e4m3*e4m3", matmul_f8, s.M, s.N, s.K, false, 0, rng);
  // e5m2 A beside e4m3 B: on wgmma (aligned rows) and on the portable path (the others).
  for (const Shape& s : std::vector<Shape>{{256, 512, 1024}, {300, 500, 512}, {200, 136, 200}})
    check_matmul("matmul_f8 e5m2*e4m3", e5_matmul_f8, s.M, s.N, s.K, true, 0, rng);
  // -D PROMOTE=True -D BN=128: each 128-deep block (4 k32 steps) is summed into f32 registers.
  for (const Shape& s : shapes) check_matmul("matmul_f8 PROMOTE", pr_matmul_f8, s.M, s.N, s.K, false, 4, rng);
  // The vectorized portable entries, launched by name (16-byte rows; M not a multiple of 128).
  std::vector<Shape> v16 = {{128, 256, 128}, {300, 512, 256}};
  if (!small) v16.push_back({1000, 1024, 2048});
  for (const Shape& s : v16) {
    // (--prefix names the C functions; the entries keep the kernel's name.) Configuration 0
    // (128x256) of the default builds; -D BN=128 leaves configuration 1 (128x128) first.
    check_matmul("matmul_f8", portable_entry(matmul_f8_metadata, 0), s.M, s.N, s.K, false, 0, rng, true);
    check_matmul("matmul_f8 e5m2*e4m3", portable_entry(e5_matmul_f8_metadata, 0), s.M, s.N, s.K, true, 0, rng, true);
    check_matmul("matmul_f8 PROMOTE", portable_entry(pr_matmul_f8_metadata, 1), s.M, s.N, s.K, false, 4, rng, true);
  }
  for (const Shape& s : std::vector<Shape>{{128, 256, 32}, {300, 500, 256}, {200, 136, 99}, {1024, 1024, 4096}})
    check_tf32(s.M, s.N, s.K, rng);
  for (const Shape& s : std::vector<Shape>{{128, 128, 128}, {300, 500, 256}, {200, 136, 99}, {1000, 1032, 4096}})
    check_i8(s.M, s.N, s.K, rng);
  std::printf(failures ? "FAILED: %d\n" : "PASSED\n", failures);
  return failures ? 1 : 0;
}
