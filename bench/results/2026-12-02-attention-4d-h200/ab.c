/* A/B on the H200: main's 3-D attention (old_, [B*H, S, D]) against the 4-D sample (new_,
   [B, H, S, D]: attention and attention_lse), bf16 D=128 full, B4 H32 S4096; interleaved
   rounds, CUDA events around each launch, medians. Inputs: random bf16 (not zeros). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "old.h"
#include "new.h"
#define CK(x) do { CUresult r_ = (x); if (r_) { printf("%s:%d: %s -> %d\n", __FILE__, __LINE__, #x, (int)r_); exit(1); } } while (0)
static int cmp(const void* a, const void* b) { float x = *(const float*)a, y = *(const float*)b; return x < y ? -1 : x > y; }
int main(void) {
  const int64_t B = 4, H = 32, S = 4096, D = 128, n = B * H * S * D;
  CUdevice dev; CUcontext ctx;
  CK(cuInit(0)); CK(cuDeviceGet(&dev, 0)); CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  uint16_t* h = malloc((size_t)n * 2);
  uint64_t s = 88172645463325252ull;
  for (int64_t i = 0; i < n; ++i) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    float f = (float)((s >> 40) * (1.0 / 16777216.0)) * 2.f - 1.f;
    uint32_t u; memcpy(&u, &f, 4); h[i] = (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
  }
  CUdeviceptr q, k, v, o, lse;
  CK(cuMemAlloc(&q, n * 2)); CK(cuMemAlloc(&k, n * 2)); CK(cuMemAlloc(&v, n * 2)); CK(cuMemAlloc(&o, n * 2));
  CK(cuMemAlloc(&lse, B * H * S * 4));
  CK(cuMemcpyHtoD(q, h, n * 2)); CK(cuMemcpyHtoD(k, h + 1, (n - 1) * 2)); CK(cuMemcpyHtoD(v, h + 2, (n - 2) * 2));
  float scale = 0.08838834764f;
  const char* names[3] = {"old [B*H,S,D] attention", "new [B,H,S,D] attention", "new attention_lse"};
  enum { R = 40 };
  float t[3][R];
  CUevent e0, e1; CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
  for (int r = -3; r < R; ++r)
    for (int j0 = 0; j0 < 3; ++j0) {
      int j = (j0 + r + 3) % 3;
      CK(cuEventRecord(e0, NULL));
      if (j == 0) CK(old_attention(NULL, q, k, v, o, B * H, S, scale));
      if (j == 1) CK(new_attention(NULL, q, k, v, o, B, H, S, H, scale));
      if (j == 2) CK(new_attention_lse(NULL, q, k, v, o, lse, B, H, S, H, scale));
      CK(cuEventRecord(e1, NULL)); CK(cuEventSynchronize(e1));
      if (r >= 0) CK(cuEventElapsedTime(&t[j][r], e0, e1));
    }
  double flops = 4.0 * B * H * S * S * D;
  for (int j = 0; j < 3; ++j) {
    qsort(t[j], R, sizeof(float), cmp);
    printf("ab %-26s median %.3f ms  %.0f TFLOP/s  (p10 %.3f p90 %.3f)\n", names[j], t[j][R / 2],
           flops / (t[j][R / 2] * 1e-3) / 1e12, t[j][R / 10], t[j][R * 9 / 10]);
  }
  return 0;
}
