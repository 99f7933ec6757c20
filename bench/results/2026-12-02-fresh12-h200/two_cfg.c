/* Two configurations of samples/attention.tile (T=bf16; D=64 and D=128 with BN=64), both
   without --prefix, one per translation unit (TU_H names the header, TU_D its D). Each unit
   launches `attention` with its own D over Q = K = 0, V = 1 and a NaN-poisoned O: uniform
   weights give O = 1 (bf16 0x3F80) everywhere. Before the configuration hash, the weak
   definitions merged and one unit ran the other's kernel (half of O stays NaN for D = 128). */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
static const char* last_entry = "none";
#define TILEC_TRACE_LAUNCH(entry) (last_entry = (entry))
#include TU_H

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
int CAT(run_d, TU_D)(void) {
  const int64_t B = 2, H = 4, HK = 2, S = 300, D = TU_D;
  size_t n_o = (size_t)(B * H * S * D), n_kv = (size_t)(B * HK * S * D), bad = 0, i;
  CUdeviceptr q, k, v, o;
  uint16_t* out = (uint16_t*)malloc(n_o * 2);
  CUresult e;
  const char* name = "?";
  if (cuMemAlloc(&q, n_o * 2) || cuMemAlloc(&k, n_kv * 2) || cuMemAlloc(&v, n_kv * 2) || cuMemAlloc(&o, n_o * 2) ||
      cuMemsetD16(q, 0, n_o) || cuMemsetD16(k, 0, n_kv) || cuMemsetD16(v, 0x3F80, n_kv) || cuMemsetD16(o, 0xFFFF, n_o))
    return 2;
  e = attention(NULL, q, k, v, o, B, H, S, HK, 0.125f);
  if (e == CUDA_SUCCESS) e = cuCtxSynchronize();
  if (e == CUDA_SUCCESS) e = cuMemcpyDtoH(out, o, n_o * 2);
  for (i = 0; i < n_o; ++i) bad += out[i] != 0x3F80;
  cuGetErrorName(e, &name);
  printf("two_cfg D=%d (metadata D=%s): %s, entry %s, %zu of %zu outputs not 1.0\n", TU_D,
         attention_metadata.constants[3].value, name, last_entry, bad, n_o);
  cuMemFree(q); cuMemFree(k); cuMemFree(v); cuMemFree(o); free(out);
  return e == CUDA_SUCCESS && bad == 0 ? 0 : 1;
}
