// Times matmul_f8's portable entries before (base_, the main branch's tilec) and after (new_,
// this branch) on the H200: the general entry through the launcher (N = 4100: C rows of 8200
// bytes, not 16-byte aligned) and the _v16 entry launched by name (N = 4096). Fresh random f8
// inputs, both builds' outputs compared elementwise (bf16 bits may differ by the f32
// accumulation order of the two lowerings: ptxas's emulation sums a k32 step's two f16
// products first), CUDA event timings, median of 15 after 3 warm-ups, builds interleaved.
//   bench_portable  (headers base_matmul_f8.h, new_matmul_f8.h in the include path)
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CHECK_CU(x)                                                             \
  do {                                                                          \
    CUresult r_ = (x);                                                          \
    if (r_ != CUDA_SUCCESS) {                                                   \
      const char* s_ = nullptr;                                                 \
      cuGetErrorString(r_, &s_);                                                \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?");    \
      std::exit(2);                                                             \
    }                                                                           \
  } while (0)

static const char* g_last_entry = "";
#define TILEC_TRACE_LAUNCH(entry) (g_last_entry = (entry))
#include "base_matmul_f8.h"
#include "new_matmul_f8.h"

static float bf16f(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct Entry {
  CUkernel k = nullptr;
  const tilec_kernel_metadata* md;
};

static CUkernel get(const tilec_kernel_metadata& md, const char* name) {
  CUlibrary lib;
  CUkernel k;
  CUdevice dev;
  CHECK_CU(cuLibraryLoadData(&lib, md.image, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CHECK_CU(cuLibraryGetKernel(&k, lib, name));
  CHECK_CU(cuCtxGetDevice(&dev));
  CHECK_CU(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                md.paths[md.num_paths - 1].dynamic_shared_bytes, k, dev));
  return k;
}

int main() {
  CHECK_CU(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CHECK_CU(cuDeviceGet(&dev, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  const int64_t M = 4096, K = 4096;
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_int_distribution<int> byte(0, 255);
  auto finite = [&] {
    int b;
    do b = byte(rng); while ((b & 0x7f) == 0x7f || (b & 0x78) == 0x78);  // |x| < 256, no NaN
    return uint8_t(b);
  };
  for (int which = 0; which < 2; ++which) {
    bool v16 = which == 1;
    int64_t N = v16 ? 4096 : 4100;
    std::vector<uint8_t> a(size_t(M * K)), b(size_t(N * K));
    for (auto& x : a) x = finite();
    for (auto& x : b) x = finite();
    float sa = 0.25f, sb = 0.5f;
    CUdeviceptr A, B, SA, SB, C[2];
    CHECK_CU(cuMemAlloc(&A, a.size()));
    CHECK_CU(cuMemAlloc(&B, b.size()));
    CHECK_CU(cuMemAlloc(&SA, 4));
    CHECK_CU(cuMemAlloc(&SB, 4));
    for (auto& c : C) CHECK_CU(cuMemAlloc(&c, size_t(M * N * 2)));
    CHECK_CU(cuMemcpyHtoD(A, a.data(), a.size()));
    CHECK_CU(cuMemcpyHtoD(B, b.data(), b.size()));
    CHECK_CU(cuMemcpyHtoD(SA, &sa, 4));
    CHECK_CU(cuMemcpyHtoD(SB, &sb, 4));
    const tilec_kernel_metadata* md[2] = {&base_matmul_f8_metadata, &new_matmul_f8_metadata};
    CUkernel k[2] = {nullptr, nullptr};
    if (v16) {
      k[0] = get(base_matmul_f8_metadata, "matmul_f8_v16");  // --prefix leaves entry names alone
      k[1] = get(new_matmul_f8_metadata, "matmul_f8_v16");
    }
    auto launch = [&](int i) {
      if (!v16) {
        CHECK_CU((i ? new_matmul_f8 : base_matmul_f8)(nullptr, A, B, SA, SB, C[i], M, K, N));
        return;
      }
      int64_t sa0 = K, one = 1, sc0 = N, m = M, kk = K, n = N;
      CUdeviceptr a_ = A, b_ = B, sa_ = SA, sb_ = SB, c_ = C[i];
      void* args[] = {&a_, &sa0, &one, &b_, &sa0, &one, &sa_, &sb_, &c_, &sc0, &one, &m, &kk, &n};
      const tilec_path_info& p = md[i]->paths[md[i]->num_paths - 1];
      g_last_entry = i ? "new_matmul_f8_v16" : "base_matmul_f8_v16";
      CHECK_CU(cuLaunchKernel((CUfunction)k[i], unsigned((M / 128) * (N / 256)), 1, 1, unsigned(p.threads_per_cta), 1,
                              1, unsigned(p.dynamic_shared_bytes), nullptr, args, nullptr));
    };
    for (int i = 0; i < 2; ++i) CHECK_CU(cuMemsetD8(C[i], 0xff, size_t(M * N * 2)));
    const char* names[2];
    for (int i = 0; i < 2; ++i) {
      launch(i);
      CHECK_CU(cuCtxSynchronize());
      names[i] = g_last_entry;
    }
    std::vector<uint16_t> c0(size_t(M * N)), c1(size_t(M * N));
    CHECK_CU(cuMemcpyDtoH(c0.data(), C[0], c0.size() * 2));
    CHECK_CU(cuMemcpyDtoH(c1.data(), C[1], c1.size() * 2));
    size_t differ = 0, nan = 0;
    double worst = 0;
    for (size_t i = 0; i < c0.size(); ++i) {
      float x = bf16f(c0[i]), y = bf16f(c1[i]);
      if (std::isnan(x) || std::isnan(y)) ++nan;
      if (c0[i] != c1[i]) ++differ;
      worst = std::max(worst, double(std::fabs(x - y)) / std::max(1e-30, double(std::fabs(x))));
    }
    std::printf("%s vs %s, %ldx%ldx%ld: %zu of %zu bf16 outputs differ (largest relative difference %.2e), %zu NaN\n",
                names[0], names[1], long(M), long(N), long(K), differ, c0.size(), worst, nan);
    CUevent e0, e1;
    CHECK_CU(cuEventCreate(&e0, 0));
    CHECK_CU(cuEventCreate(&e1, 0));
    std::vector<float> t[2];
    for (int r = 0; r < 18; ++r)
      for (int i = 0; i < 2; ++i) {
        int j = r % 2 ? 1 - i : i;  // alternate which build goes first
        CHECK_CU(cuEventRecord(e0, nullptr));
        launch(j);
        CHECK_CU(cuEventRecord(e1, nullptr));
        CHECK_CU(cuEventSynchronize(e1));
        float ms;
        CHECK_CU(cuEventElapsedTime(&ms, e0, e1));
        if (r >= 3) t[j].push_back(ms);
      }
    for (int i = 0; i < 2; ++i) {
      std::sort(t[i].begin(), t[i].end());
      double med = t[i][t[i].size() / 2];
      std::printf("  %-22s median %.3f ms (min %.3f, max %.3f, n=%zu): %.1f TFLOP/s\n", names[i], med, t[i].front(),
                  t[i].back(), t[i].size(), 2.0 * M * N * K / (med * 1e-3) / 1e12);
    }
    CHECK_CU(cuMemFree(A));
    CHECK_CU(cuMemFree(B));
    for (auto& c : C) CHECK_CU(cuMemFree(c));
  }
  return 0;
}
