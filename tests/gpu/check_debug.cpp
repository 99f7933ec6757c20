// Device print and assert through a generated header (tests/gpu/debug.tile).
//   check_debug pass   prints and returns 0 (the assert holds)
//   check_debug fail   the assert fails: the launch reports CUDA_ERROR_ASSERT (exit 0 if so)
//   check_debug extent an assert on extents (checked by the launch stub, left out of the
//                      vectorized variant) fails: the launch returns CUDA_ERROR_INVALID_VALUE and
//                      runs nothing, and a following good launch in the same context is
//                      correct; `pass` also runs that kernel with the assert holding
//   check_debug heads  samples/attention.tile (attention_bf16.h) with H = 3 query heads on HK = 2
//                      K/V heads: its `assert H % HK == 0` fails on the host, so the launch returns
//                      CUDA_ERROR_INVALID_VALUE and runs nothing; B = 0 returns CUDA_SUCCESS and
//                      runs nothing; then H = 4, HK = 2 in the same context gives O = 1 (V = 1,
//                      Q = K = 0: uniform weights) over a NaN-poisoned O
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
                *g_last_entry ? g_last_entry : "none");
    bool ok = e == CUDA_ERROR_INVALID_VALUE && *g_last_entry == 0;
    // B = 0: nothing to do, nothing launched.
    e = attbf_attention(nullptr, q, kv, kv, o, 0, H + 1, S, HK, 0.125f);
    cuGetErrorName(e, &ename);
    std::printf("check_debug attention B=0: %s (entry %s)\n", ename, *g_last_entry ? g_last_entry : "none");
    ok = ok && e == CUDA_SUCCESS && *g_last_entry == 0;
    // The context still works: H = 4 on HK = 2 with V = 1 gives O = 1 (bf16 0x3F80) everywhere.
    const int64_t H2 = 4;
    CUdeviceptr v, o2;
    const size_t n_o = size_t(B * H2 * S * D), n_kv = size_t(B * HK * S * D);
    if (cuMemAlloc(&v, n_kv * 2) || cuMemsetD16(v, 0x3F80, n_kv) || cuMemAlloc(&o2, n_o * 2) ||
        cuMemsetD16(o2, 0xFFFF, n_o))
      return 2;
    CUdeviceptr q2;
    if (cuMemAlloc(&q2, n_o * 2) || cuMemsetD8(q2, 0, n_o * 2)) return 2;
    e = attbf_attention(nullptr, q2, kv, v, o2, B, H2, S, HK, 0.125f);
    if (e == CUDA_SUCCESS) e = cuCtxSynchronize();
    std::vector<uint16_t> out(n_o);
    if (e == CUDA_SUCCESS) e = cuMemcpyDtoH(out.data(), o2, n_o * 2);
    size_t bad = 0;
    for (uint16_t x : out) bad += x != 0x3F80;
    cuGetErrorName(e, &ename);
    std::printf("check_debug attention H=%lld HK=%lld after the refused launch: %s (entry %s), %zu of %zu outputs "
                "not 1.0\n", (long long)H2, (long long)HK, ename, g_last_entry, bad, n_o);
    return ok && e == CUDA_SUCCESS && bad == 0 ? 0 : 1;
  }
  std::vector<float> x(200);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  CUdeviceptr d;
  if (cuMemAlloc(&d, x.size() * 4) || cuMemcpyHtoD(d, x.data(), x.size() * 4)) return 2;
  if (extent) {
    // n = 1000: the assert fails on the host; nothing runs and the context stays usable.
    CUdeviceptr dx, dy;
    if (cuMemAlloc(&dx, 1000 * 4) || cuMemAlloc(&dy, 1000 * 4)) return 2;
    CUresult e = bounded(nullptr, dx, dy, 1000);
    if (e == CUDA_SUCCESS) e = cuCtxSynchronize();
    const char* ename = "?";
    cuGetErrorName(e, &ename);
    std::printf("check_debug bounded n=1000: %s (entry %s)\n", ename, *g_last_entry ? g_last_entry : "none");
    if (e != CUDA_ERROR_INVALID_VALUE || *g_last_entry) return 1;
  }
  if (!fail) {
    // n = 200 (whole 16-byte vectors, the assert holds), after the refused launch with `extent`.
    int64_t n = 200;
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
    if (e != CUDA_SUCCESS || cuMemcpyDtoH(out.data(), dy, size_t(n) * 4)) return 1;
    for (float v : out)
      if (v != 3.f) return 1;
    if (extent) return 0;
  }
  CUresult r = shout(nullptr, d, int64_t(x.size()), fail ? 100.f : 1000.f);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  const char* name = "?";
  cuGetErrorName(r, &name);
  std::printf("check_debug %s: %s\n", fail ? "fail" : "pass", name);
  if (fail) return r == CUDA_ERROR_ASSERT ? 0 : 1;
  return r == CUDA_SUCCESS ? 0 : 1;
}
