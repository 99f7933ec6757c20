// Device print and assert through a generated header (tests/gpu/debug.tile).
//   check_debug pass   prints and returns 0 (the assert holds)
//   check_debug fail   the assert fails: the launch reports CUDA_ERROR_ASSERT (exit 0 if so)
//   check_debug extent an assert on extents (checked by the launch stub, left out of the
//                      vectorized variant) fails: CUDA_ERROR_ASSERT too; `pass` also runs that
//                      kernel with the assert holding and checks its output
//   check_debug heads  samples/attention.tile (attention_bf16.h) with H = 3 query heads on HK = 2
//                      K/V heads: its `assert H % HK == 0` fails on the host, so the launch takes
//                      the portable path's general variant, whose device assert stops it with
//                      CUDA_ERROR_ASSERT (exit 0 if so, and if that entry ran)
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <vector>

static const char* g_last_entry = "";
#define TILEC_TRACE_LAUNCH(entry) (g_last_entry = (entry))

#include "attention_bf16.h"
#include "debug.h"

int main(int argc, char** argv) {
  bool fail = argc > 1 && std::strcmp(argv[1], "fail") == 0;
  bool extent = argc > 1 && std::strcmp(argv[1], "extent") == 0;
  bool heads = argc > 1 && std::strcmp(argv[1], "heads") == 0;
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) return 2;
  if (heads) {
    const int64_t B = 1, H = 3, HK = 2, S = 64, D = 64;
    CUdeviceptr q, kv, o;
    if (cuMemAlloc(&q, size_t(B * H * S * D) * 2) || cuMemAlloc(&kv, size_t(B * HK * S * D) * 2) ||
        cuMemAlloc(&o, size_t(B * H * S * D) * 2) || cuMemsetD8(q, 0, size_t(B * H * S * D) * 2) ||
        cuMemsetD8(kv, 0, size_t(B * HK * S * D) * 2))
      return 2;
    CUresult e = attbf_attention(nullptr, q, kv, kv, o, B, H, S, HK, 0.125f);
    if (e == CUDA_SUCCESS) e = cuCtxSynchronize();
    const char* ename = "?";
    cuGetErrorName(e, &ename);
    std::printf("check_debug attention H=%lld HK=%lld: %s (entry %s)\n", (long long)H, (long long)HK, ename,
                g_last_entry);
    return e == CUDA_ERROR_ASSERT && std::strcmp(g_last_entry, "attention") == 0 ? 0 : 1;
  }
  std::vector<float> x(200);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  CUdeviceptr d;
  if (cuMemAlloc(&d, x.size() * 4) || cuMemcpyHtoD(d, x.data(), x.size() * 4)) return 2;
  if (extent || !fail) {
    // n = 200 (whole 16-byte vectors, the assert holds) or 1000 (it fails).
    int64_t n = extent ? 1000 : 200;
    CUdeviceptr dx, dy;
    std::vector<float> in(size_t(n), 2.f), out(size_t(n), 0.f);
    if (cuMemAlloc(&dx, size_t(n) * 4) || cuMemAlloc(&dy, size_t(n) * 4) ||
        cuMemcpyHtoD(dx, in.data(), size_t(n) * 4))
      return 2;
    CUresult e = bounded(nullptr, dx, dy, n);
    if (e == CUDA_SUCCESS) e = cuCtxSynchronize();
    const char* ename = "?";
    cuGetErrorName(e, &ename);
    std::printf("check_debug bounded n=%lld: %s\n", (long long)n, ename);
    if (extent) return e == CUDA_ERROR_ASSERT ? 0 : 1;
    if (e != CUDA_SUCCESS || cuMemcpyDtoH(out.data(), dy, size_t(n) * 4)) return 1;
    for (float v : out)
      if (v != 3.f) return 1;
  }
  CUresult r = shout(nullptr, d, int64_t(x.size()), fail ? 100.f : 1000.f);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  const char* name = "?";
  cuGetErrorName(r, &name);
  std::printf("check_debug %s: %s\n", fail ? "fail" : "pass", name);
  if (fail) return r == CUDA_ERROR_ASSERT ? 0 : 1;
  return r == CUDA_SUCCESS ? 0 : 1;
}
