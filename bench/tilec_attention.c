/* Exports the attention headers' launch functions from one shared library, so that
   bench/attention.py can call them through ctypes beside PyTorch's scaled_dot_product_attention.
   The headers, one per variant of samples/attention.tile (dtype, head dimension, causal, arch,
   told apart by --prefix), and the list of them, attention_variants.h, are made by
   tests/gpu/make_attention_headers.sh. attention_variants.h defines
     ATTENTION_VARIANTS(X)   X(prefix) once per header, the prefix ending in '_'
   and includes the headers. Build (bench/attention.py does it):
     gcc -O2 -shared -fPIC -I HEADERDIR -I $CUDA/include bench/tilec_attention.c \
         -L $CUDA/lib64/stubs -lcuda -o libtilec_attention.so */
#include <stdio.h>
#include <string.h>

#include "attention_variants.h"

/* The strided forms of the sample's two kernels: per array its base, extents and strides (in
   elements, outermost first): Q, O [B, H, S, D]; K, V [B, HK, S, D]; LSE [B, H, S]. */
typedef CUresult (*attention_launch_fn)(CUstream stream, CUdeviceptr Q, const int64_t* Q_shape,
                                        const int64_t* Q_strides, CUdeviceptr K, const int64_t* K_shape,
                                        const int64_t* K_strides, CUdeviceptr V, const int64_t* V_shape,
                                        const int64_t* V_strides, CUdeviceptr O, const int64_t* O_shape,
                                        const int64_t* O_strides, float sm_scale);
typedef CUresult (*attention_lse_launch_fn)(CUstream stream, CUdeviceptr Q, const int64_t* Q_shape,
                                            const int64_t* Q_strides, CUdeviceptr K, const int64_t* K_shape,
                                            const int64_t* K_strides, CUdeviceptr V, const int64_t* V_shape,
                                            const int64_t* V_strides, CUdeviceptr O, const int64_t* O_shape,
                                            const int64_t* O_strides, CUdeviceptr LSE, const int64_t* LSE_shape,
                                            const int64_t* LSE_strides, float sm_scale);

typedef struct attention_variant {
  const char* prefix;
  attention_launch_fn launch;
  attention_lse_launch_fn launch_lse;
  CUresult (*load)(void);
  CUresult (*load_lse)(void);
  const tilec_kernel_metadata* metadata;
} attention_variant;

#define ATTENTION_ENTRY(p) \
  {#p, p##attention_strided, p##attention_lse_strided, p##attention_load, p##attention_lse_load, &p##attention_metadata},
static const attention_variant variants[] = {ATTENTION_VARIANTS(ATTENTION_ENTRY)};
#define NUM_VARIANTS ((int)(sizeof variants / sizeof variants[0]))

/* Number of variants in the library. */
int att_count(void) { return NUM_VARIANTS; }

/* The header's --prefix (with its trailing '_'), or NULL for an index out of range. */
const char* att_prefix(int i) { return i >= 0 && i < NUM_VARIANTS ? variants[i].prefix : NULL; }

/* One line of "key=value" words describing variant i from its header's metadata: the module
   constants (T, D, BM, BN, CAUSAL, ...), the archs with SASS, the PTX arch, and per code path
   "path=NAME:WARPS:STAGES:SHARED_BYTES[:ARCH]" in the order a launch considers them. */
const char* att_describe(int i) {
  static __thread char buf[2048];
  if (i < 0 || i >= NUM_VARIANTS) return NULL;
  const tilec_kernel_metadata* m = variants[i].metadata;
  size_t n = 0;
  buf[0] = '\0';
#define APPEND(...) \
  do { \
    if (n < sizeof buf) { \
      int w = snprintf(buf + n, sizeof buf - n, __VA_ARGS__); \
      if (w > 0) n += (size_t)w; \
    } \
  } while (0)
  for (int c = 0; c < m->num_constants; ++c) APPEND("%s=%s ", m->constants[c].name, m->constants[c].value);
  for (int a = 0; a < m->num_archs; ++a) APPEND("sass=%s ", m->archs[a]);
  APPEND("ptx=%s", m->ptx_arch ? m->ptx_arch : "-");
  for (int p = 0; p < m->num_paths; ++p) {
    const tilec_path_info* path = &m->paths[p];
    APPEND(" path=%s:%d:%d:%d", path->name, path->num_warps, path->num_stages, path->dynamic_shared_bytes);
    if (path->arch) APPEND(":%s", path->arch);
  }
#undef APPEND
  return buf;
}

/* Loads variant i's kernels in the current context (the driver compiles PTX-only images here). */
int att_load(int i) {
  CUresult r;
  if (i < 0 || i >= NUM_VARIANTS) return (int)CUDA_ERROR_INVALID_VALUE;
  r = variants[i].load();
  return (int)(r != CUDA_SUCCESS ? r : variants[i].load_lse());
}

/* Launches variant i's `attention` on `stream` (the strided form): q, k, v, o are device arrays
   of the variant's dtype, each with 4 extents and 4 strides in elements, [B, H, S, D] for q and
   o, [B, HK, S, D] for k and v (D the variant's head dimension). Returns the header's CUresult. */
int att_launch(int i, void* stream, uint64_t q, const int64_t* q_shape, const int64_t* q_strides, uint64_t k,
               const int64_t* k_shape, const int64_t* k_strides, uint64_t v, const int64_t* v_shape,
               const int64_t* v_strides, uint64_t o, const int64_t* o_shape, const int64_t* o_strides, float sm_scale) {
  if (i < 0 || i >= NUM_VARIANTS) return (int)CUDA_ERROR_INVALID_VALUE;
  return (int)variants[i].launch((CUstream)stream, (CUdeviceptr)q, q_shape, q_strides, (CUdeviceptr)k, k_shape,
                                 k_strides, (CUdeviceptr)v, v_shape, v_strides, (CUdeviceptr)o, o_shape, o_strides,
                                 sm_scale);
}

/* The same for `attention_lse`, which also writes lse: f32 [B, H, S] (3 extents and strides). */
int att_launch_lse(int i, void* stream, uint64_t q, const int64_t* q_shape, const int64_t* q_strides, uint64_t k,
                   const int64_t* k_shape, const int64_t* k_strides, uint64_t v, const int64_t* v_shape,
                   const int64_t* v_strides, uint64_t o, const int64_t* o_shape, const int64_t* o_strides,
                   uint64_t lse, const int64_t* lse_shape, const int64_t* lse_strides, float sm_scale) {
  if (i < 0 || i >= NUM_VARIANTS) return (int)CUDA_ERROR_INVALID_VALUE;
  return (int)variants[i].launch_lse((CUstream)stream, (CUdeviceptr)q, q_shape, q_strides, (CUdeviceptr)k, k_shape,
                                     k_strides, (CUdeviceptr)v, v_shape, v_strides, (CUdeviceptr)o, o_shape,
                                     o_strides, (CUdeviceptr)lse, lse_shape, lse_strides, sm_scale);
}
