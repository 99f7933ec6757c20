// Device print and assert through a generated header (tests/gpu/debug.tile).
//   check_debug pass   prints and returns 0 (the assert holds)
//   check_debug fail   the assert fails: the launch reports CUDA_ERROR_ASSERT (exit 0 if so)
//   check_debug extent an assert on extents (checked by the launch stub, left out of the
//                      vectorized variant) fails: CUDA_ERROR_ASSERT too; `pass` also runs that
//                      kernel with the assert holding and checks its output
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "debug.h"

int main(int argc, char** argv) {
  bool fail = argc > 1 && std::strcmp(argv[1], "fail") == 0;
  bool extent = argc > 1 && std::strcmp(argv[1], "extent") == 0;
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) return 2;
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
