/* Issue 38: the host time of a launch that chooses its configuration (through the embedded tuning
   table, or the estimate without one) against a forced launch of the same configuration
   (k_launch_config). Both enqueue the same kernel; the stream is drained between batches.
   Median over 15 batches of 2000 calls of the wall time per call, in microseconds.
   Build: gcc -O2 -I<header dir> -I/usr/local/cuda/include launch_overhead.c -lcuda */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "matmul_bt.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { printf("%s: error %d\n", #x, (int)r_); exit(1); } } while (0)

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr a, b, c;
  const int64_t M = 128, N = 1024, K = 4096;
  double t[2][15];
  int v, i, rep, chosen;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuMemAlloc(&a, (size_t)(M * K * 2)));
  CHECK(cuMemAlloc(&b, (size_t)(N * K * 2)));
  CHECK(cuMemAlloc(&c, (size_t)(M * N * 2)));
  chosen = matmul_bt_config(NULL, M, K, N);
  printf("M=%lld N=%lld K=%lld: configuration %d (%s)\n", (long long)M, (long long)N, (long long)K, chosen,
         matmul_bt_metadata.configs[chosen].label);
  CHECK(matmul_bt(NULL, a, b, c, M, K, N));
  CHECK(cuCtxSynchronize());
  for (rep = 0; rep < 15; ++rep)
    for (v = 0; v < 2; ++v) {
      double t0 = now_us();
      for (i = 0; i < 2000; ++i)
        CHECK(v ? matmul_bt_launch_config(chosen, NULL, a, b, c, M, K, N) : matmul_bt(NULL, a, b, c, M, K, N));
      t[v][rep] = (now_us() - t0) / 2000;
      CHECK(cuCtxSynchronize());
    }
  for (v = 0; v < 2; ++v) qsort(t[v], 15, sizeof(double), cmp);
  printf("host time per launch: chosen %.3f us, forced %.3f us, difference %.3f us (medians of 15 x 2000)\n",
         t[0][7], t[1][7], t[0][7] - t[1][7]);
  return 0;
}
