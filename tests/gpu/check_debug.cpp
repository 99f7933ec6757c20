// Device print and assert through a generated header (tests/gpu/debug.tile).
//   check_debug pass   prints and returns 0 (the assert holds)
//   check_debug fail   the assert fails: the launch reports CUDA_ERROR_ASSERT (exit 0 if so)
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "debug.h"

int main(int argc, char** argv) {
  bool fail = argc > 1 && std::strcmp(argv[1], "fail") == 0;
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) return 2;
  std::vector<float> x(200);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  CUdeviceptr d;
  if (cuMemAlloc(&d, x.size() * 4) || cuMemcpyHtoD(d, x.data(), x.size() * 4)) return 2;
  CUresult r = shout(nullptr, d, int64_t(x.size()), fail ? 100.f : 1000.f);
  if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
  const char* name = "?";
  cuGetErrorName(r, &name);
  std::printf("check_debug %s: %s\n", fail ? "fail" : "pass", name);
  if (fail) return r == CUDA_ERROR_ASSERT ? 0 : 1;
  return r == CUDA_SUCCESS ? 0 : 1;
}
