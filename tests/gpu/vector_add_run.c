/* GPU check of a generated header (architecture.md "Tests", layer 4; needs an NVIDIA GPU):
   vector_add through the dense and strided launch functions, the vectorized and general
   variants, in-place aliasing, a non-default stream, CUDA graph capture after an explicit load,
   unload and reload, all compared with the CPU. Build: see tests/gpu/run.sh. */
#include "vector_add.h"

#include <stdio.h>
#include <stdlib.h>

static int failures;

#define CU(call)                                                                      \
  do {                                                                                \
    CUresult r_ = (call);                                                             \
    if (r_ != CUDA_SUCCESS) {                                                         \
      const char* s_ = "?";                                                           \
      cuGetErrorName(r_, &s_);                                                        \
      fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", __FILE__, __LINE__, #call, s_, (int)r_); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

/* Checks dev[i * stride] == want[i] for i < n and that the rest of the buffer still holds the
   poison (-7), so a wrong variant or stride shows. */
static void expect(CUdeviceptr dev, size_t total, int64_t stride, const float* want, int64_t n, const char* what) {
  float* host = (float*)malloc(total * sizeof(float));
  int64_t i, bad = 0;
  CU(cuMemcpyDtoH(host, dev, total * sizeof(float)));
  for (i = 0; i < (int64_t)total; ++i) {
    int in_view = i % stride == 0 && i / stride < n;
    float w = in_view ? want[i / stride] : -7.0f;
    if (host[i] != w && bad++ < 3) fprintf(stderr, "%s: [%ld] = %g, want %g\n", what, (long)i, host[i], w);
  }
  if (bad) ++failures;
  else printf("ok: %s\n", what);
  free(host);
}

static void poison(CUdeviceptr dev, size_t total) { CU(cuMemsetD32(dev, 0xc0e00000u /* -7.0f */, total)); }

int main(void) {
  const int64_t n = 1000003; /* ragged: not a multiple of the 1024-element tile */
  const size_t total = 2 * (size_t)n + 64;
  float *ha = (float*)malloc(total * sizeof(float)), *hb = (float*)malloc(total * sizeof(float));
  float *sum = (float*)malloc(n * sizeof(float)), *sum2 = (float*)malloc(n * sizeof(float));
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr a, b, c;
  CUstream stream;
  CUgraph graph;
  CUgraphExec exec;
  uint32_t grid[3];
  int64_t i;
  size_t k;

  for (k = 0; k < total; ++k) {
    ha[k] = (float)(k % 1000) * 0.5f;
    hb[k] = (float)(k % 777) - 100.0f;
  }
  for (i = 0; i < n; ++i) {
    sum[i] = ha[i] + hb[i];
    sum2[i] = ha[2 * i] + hb[2 * i];
  }

  CU(cuInit(0));
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CU(cuMemAlloc(&a, total * sizeof(float)));
  CU(cuMemAlloc(&b, total * sizeof(float)));
  CU(cuMemAlloc(&c, total * sizeof(float)));
  CU(cuMemcpyHtoD(a, ha, total * sizeof(float)));
  CU(cuMemcpyHtoD(b, hb, total * sizeof(float)));

  CU(vector_add_grid(n, grid));
  printf("grid (%u, %u, %u); SASS for", grid[0], grid[1], grid[2]);
  for (k = 0; k < (size_t)vector_add_metadata.num_archs; ++k) printf(" %s", vector_add_metadata.archs[k]);
  printf(", PTX for %s\n", vector_add_metadata.ptx_arch ? vector_add_metadata.ptx_arch : "none");

  /* Dense, aligned: the vectorized variant, lazily loaded on the NULL stream. */
  poison(c, total);
  CU(vector_add(NULL, a, b, c, n));
  CU(cuCtxSynchronize());
  expect(c, total, 1, sum, n, "dense launch");

  /* Strided views (every other element): the general variant. */
  {
    const int64_t shape[1] = {n}, strides[1] = {2};
    poison(c, total);
    CU(vector_add_strided(NULL, a, shape, strides, b, shape, strides, c, shape, strides));
    CU(cuCtxSynchronize());
    expect(c, total, 2, sum2, n, "strided launch (general variant)");
  }

  /* Bases not 16-byte aligned: the general variant, one element in. */
  poison(c, total);
  CU(vector_add(NULL, a + 4, b + 4, c, n));
  CU(cuCtxSynchronize());
  {
    float* shifted = (float*)malloc(n * sizeof(float));
    for (i = 0; i < n; ++i) shifted[i] = ha[i + 1] + hb[i + 1];
    expect(c, total, 1, shifted, n, "unaligned bases");
    free(shifted);
  }

  /* In place: c = a, then a += b. */
  CU(cuMemcpyHtoD(c, ha, total * sizeof(float)));
  CU(vector_add(NULL, c, b, c, n));
  CU(cuCtxSynchronize());
  {
    float* host = (float*)malloc(n * sizeof(float));
    CU(cuMemcpyDtoH(host, c, n * sizeof(float)));
    for (i = 0; i < n && host[i] == sum[i]; ++i) {}
    if (i == n) printf("ok: in-place aliasing\n");
    else { ++failures; fprintf(stderr, "in place: [%ld] = %g\n", (long)i, host[i]); }
    free(host);
  }

  /* A partial overlap is refused before anything is launched. */
  if (vector_add(NULL, a, b, a + 4, n) != CUDA_ERROR_INVALID_VALUE) { ++failures; fprintf(stderr, "overlap accepted\n"); }
  else printf("ok: partial overlap refused\n");

  /* A stream and a CUDA graph: load first, then capture. */
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CU(vector_add_load());
  poison(c, total);
  CU(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CU(vector_add(stream, a, b, c, n));
  CU(cuStreamEndCapture(stream, &graph));
  CU(cuGraphInstantiate(&exec, graph, 0));
  CU(cuGraphLaunch(exec, stream));
  CU(cuStreamSynchronize(stream));
  expect(c, total, 1, sum, n, "graph capture on a stream");

  /* Unload, then the next launch loads again. */
  CU(vector_add_unload());
  poison(c, total);
  CU(vector_add(stream, a, b, c, n));
  CU(cuStreamSynchronize(stream));
  expect(c, total, 1, sum, n, "launch after unload");

  /* An empty launch does nothing and succeeds. */
  CU(vector_add(stream, 0, 0, 0, 0));

  CU(cuGraphExecDestroy(exec));
  CU(cuGraphDestroy(graph));
  CU(cuStreamDestroy(stream));
  CU(vector_add_unload());
  CU(cuMemFree(a));
  CU(cuMemFree(b));
  CU(cuMemFree(c));
  CU(cuDevicePrimaryCtxRelease(dev));
  free(ha); free(hb); free(sum); free(sum2);
  if (failures) printf("%d FAILED\n", failures);
  else printf("all GPU checks passed\n");
  return failures ? 1 : 0;
}
