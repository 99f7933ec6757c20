/* A fake CUDA driver for the tilec-tune tests (built as libcuda.so.1 and found through
   LD_LIBRARY_PATH): device memory is host memory, kernels run on the host (scale.h), and time
   is a clock that only fake_cuda_advance_us moves, so that every median is known in advance.
   At exit it prints what the benchmark protocol asks for: the launches, the L2 flushes and the
   shortest sleep. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double clock_us;
static long launches, flushes, sleeps, events_recorded;
static uint64_t shortest_sleep_ns = UINT64_MAX;
static int module_loaded;

void fake_cuda_advance_us(double us) {
  clock_us += us;
  ++launches;
}

static void report(void) {
  fprintf(stderr, "fake_cuda: %ld kernel launches, %ld sleeps (shortest %llu ns), %ld flushes, %ld events\n",
          launches, sleeps, (unsigned long long)shortest_sleep_ns, flushes, events_recorded);
}

CUresult cuInit(unsigned int flags) {
  (void)flags;
  static int once;
  if (!once++) atexit(report);
  return CUDA_SUCCESS;
}
CUresult cuDriverGetVersion(int* v) { *v = 13000; return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice* d, int ordinal) { *d = ordinal; return CUDA_SUCCESS; }
CUresult cuDeviceGetName(char* name, int len, CUdevice d) {
  (void)d;
  snprintf(name, (size_t)len, "Fake \"GPU\" 80GB");
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int* v, CUdevice_attribute a, CUdevice d) {
  (void)d;
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}
CUresult cuGetErrorName(CUresult r, const char** s) {
  *s = r == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : r == CUDA_ERROR_LAUNCH_FAILED ? "CUDA_ERROR_LAUNCH_FAILED" : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext* c, CUdevice d) { (void)d; *c = (CUcontext)1; return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
CUresult cuStreamCreate(CUstream* s, unsigned int flags) { (void)flags; *s = (CUstream)2; return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream s) { (void)s; return CUDA_SUCCESS; }

CUresult cuMemAlloc(CUdeviceptr* p, size_t n) {
  void* m = malloc(n);
  if (!m) return CUDA_ERROR_OUT_OF_MEMORY;
  *p = (CUdeviceptr)(uintptr_t)m;
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr p) { free((void*)(uintptr_t)p); return CUDA_SUCCESS; }
CUresult cuMemcpyHtoD(CUdeviceptr d, const void* s, size_t n) { memcpy((void*)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
CUresult cuMemcpyDtoH(void* d, CUdeviceptr s, size_t n) { memcpy(d, (void*)(uintptr_t)s, n); return CUDA_SUCCESS; }
CUresult cuMemsetD8(CUdeviceptr d, unsigned char v, size_t n) { memset((void*)(uintptr_t)d, v, n); return CUDA_SUCCESS; }
/* The asynchronous memset is only the L2 flush: counted, not done (256 MiB each time). */
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
  (void)d, (void)v, (void)s;
  if (n >= (size_t)256 << 20) ++flushes;
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent* e, unsigned int flags) {
  (void)flags;
  *e = (CUevent)malloc(sizeof(double));
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent e, CUstream s) {
  (void)s;
  *(double*)e = clock_us;
  ++events_recorded;
  return CUDA_SUCCESS;
}
CUresult cuEventElapsedTime(float* ms, CUevent a, CUevent b) {
  *ms = (float)((*(double*)b - *(double*)a) / 1000.0);
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent e) { free(e); return CUDA_SUCCESS; }

CUresult cuModuleLoadData(CUmodule* m, const void* image) {
  if (strncmp((const char*)image, ".version", 8) != 0) return CUDA_ERROR_INVALID_IMAGE;
  module_loaded = 1;
  *m = (CUmodule)3;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name) {
  (void)m;
  if (!module_loaded || strcmp(name, "tilec_tune_sleep") != 0) return CUDA_ERROR_NOT_FOUND;
  *f = (CUfunction)4;
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream s, void** params, void** extra) {
  (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)s, (void)extra;
  if (f != (CUfunction)4) return CUDA_ERROR_INVALID_HANDLE;
  uint64_t ns = *(uint64_t*)params[0];
  if (ns < shortest_sleep_ns) shortest_sleep_ns = ns;
  ++sleeps;
  return CUDA_SUCCESS;
}
