// Times matmul variants of samples/matmul.tile (f16 inputs and output, 128x256 tiles, the
// tma_wgmma entry on an H200) that differ in their accumulator: f32, or f16 (wgmma's
// .f16.f16.f16 form). The variants come from variants.h, written by make.sh beside this file:
// one VARIANT(label, launch function) line per header. Interleaved rounds, CUDA events, the
// median and the spread (min-max) of the per-launch time over the rounds.
//   timing [SIZE ...]     (default 4096 8192; M = N = K = SIZE)
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static const char* g_last_entry = "";
#define TILEC_TRACE_LAUNCH(entry) (g_last_entry = (entry))
#include "variants_headers.h"
#include "../../tests/gpu/cuda_check.h"

using Launch = CUresult (*)(CUstream, CUdeviceptr, CUdeviceptr, CUdeviceptr, int64_t, int64_t, int64_t);
struct Variant {
  const char* label;
  Launch launch;
};
static const Variant kVariants[] = {
#define VARIANT(label, fn) {label, fn},
#include "variants.h"
#undef VARIANT
};

// Uniform f16 values in [-1, 1) (random data: zeros run faster, METHOD.md).
static void fill_f16(std::vector<uint16_t>& v, uint64_t seed) {
  uint64_t s = seed | 1;
  for (uint16_t& x : v) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    _Float16 h = (_Float16)(float((s >> 40) * (1.0 / 8388608.0)) - 1.0f);
    std::memcpy(&x, &h, 2);
  }
}

int main(int argc, char** argv) {
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
  if (sizes.empty()) sizes = {4096, 8192};
  use_device_0();
  const int rounds = 15, per_round = 5;
  std::printf("| variant | size | entry | median ms | TFLOP/s (median) | spread ms (min-max) |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (int64_t n : sizes) {
    size_t elems = size_t(n * n);
    std::vector<uint16_t> ha(elems), hb(elems);
    fill_f16(ha, 1 + uint64_t(n));
    fill_f16(hb, 2 + uint64_t(n));
    CUdeviceptr a, b, c;
    CHECK_CU(cuMemAlloc(&a, elems * 2));
    CHECK_CU(cuMemAlloc(&b, elems * 2));
    CHECK_CU(cuMemAlloc(&c, elems * 2));
    CHECK_CU(cuMemcpyHtoD(a, ha.data(), elems * 2));
    CHECK_CU(cuMemcpyHtoD(b, hb.data(), elems * 2));
    size_t nv = sizeof kVariants / sizeof kVariants[0];
    std::vector<std::vector<float>> ms(nv);
    std::vector<std::string> entry(nv);
    CUevent start, stop;
    CHECK_CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK_CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    for (size_t v = 0; v < nv; ++v) {  // warm-up: module load, first launches
      for (int i = 0; i < 3; ++i) CHECK_CU(kVariants[v].launch(nullptr, a, b, c, n, n, n));
      entry[v] = g_last_entry;
    }
    CHECK_CU(cuCtxSynchronize());
    for (int r = 0; r < rounds; ++r)
      for (size_t v = 0; v < nv; ++v) {
        CHECK_CU(cuEventRecord(start, nullptr));
        for (int i = 0; i < per_round; ++i) CHECK_CU(kVariants[v].launch(nullptr, a, b, c, n, n, n));
        CHECK_CU(cuEventRecord(stop, nullptr));
        CHECK_CU(cuEventSynchronize(stop));
        float t = 0;
        CHECK_CU(cuEventElapsedTime(&t, start, stop));
        ms[v].push_back(t / per_round);
      }
    for (size_t v = 0; v < nv; ++v) {
      std::vector<float> t = ms[v];
      std::sort(t.begin(), t.end());
      double med = t[t.size() / 2];
      std::printf("| %s | %lld | %s | %.4f | %.0f | %.4f-%.4f |\n", kVariants[v].label, (long long)n, entry[v].c_str(),
                  med, 2.0 * double(n) * double(n) * double(n) / (med * 1e-3) / 1e12, t.front(), t.back());
    }
    cuMemFree(a);
    cuMemFree(b);
    cuMemFree(c);
  }
  return 0;
}
