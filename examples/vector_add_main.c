/* The README's example: c = a + b on the GPU through the header tilec generates.
     tilec samples/vector_add.tile -o vector_add.h
     cc -std=c99 vector_add_main.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda */
#include <stdio.h>
#include <stdlib.h>

#include "vector_add.h"

int main(void) {
  const int64_t n = 1000000;
  float* host = malloc((size_t)n * 3 * sizeof(float));
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr a, b, c;
  int64_t i, wrong = 0;
  if (!host || cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) {
    fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  for (i = 0; i < n; ++i) {
    host[i] = (float)i;
    host[n + i] = 0.5f * (float)i;
  }
  if (cuMemAlloc(&a, n * 4) || cuMemAlloc(&b, n * 4) || cuMemAlloc(&c, n * 4)) return 1;
  cuMemcpyHtoD(a, host, n * 4);
  cuMemcpyHtoD(b, host + n, n * 4);
  /* One call: checks the arguments, computes the grid, launches on the stream (0 = default). */
  if (vector_add(NULL, a, b, c, n) != CUDA_SUCCESS) {
    fprintf(stderr, "launch failed\n");
    return 1;
  }
  cuMemcpyDtoH(host + 2 * n, c, n * 4);
  for (i = 0; i < n; ++i) wrong += host[2 * n + i] != 1.5f * (float)i;
  printf("vector_add: %lld of %lld elements wrong\n", (long long)wrong, (long long)n);
  cuMemFree(a);
  cuMemFree(b);
  cuMemFree(c);
  free(host);
  return wrong != 0;
}
