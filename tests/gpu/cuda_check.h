// The GPU programs' driver-API helpers (tests/gpu/check_*.cpp, bench/f16acc/timing.cpp):
// CHECK_CU(call) exits with status 2 and the failing call, file, line and CUDA's message on an
// error; use_device_0() makes device 0's primary context current and returns the device.
#pragma once

#include <cuda.h>

#include <cstdio>
#include <cstdlib>

#define CHECK_CU(call)                                                               \
  do {                                                                               \
    CUresult r_ = (call);                                                            \
    if (r_ != CUDA_SUCCESS) {                                                        \
      const char* s_ = nullptr;                                                      \
      cuGetErrorString(r_, &s_);                                                     \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, s_); \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

inline CUdevice use_device_0() {
  CUdevice dev;
  CUcontext ctx;
  CHECK_CU(cuInit(0));
  CHECK_CU(cuDeviceGet(&dev, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  return dev;
}
