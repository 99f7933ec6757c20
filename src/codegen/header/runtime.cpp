// The shared section of every generated header, as C text. It is C99 and C++17, compiles clean
// under -Wall -Wextra -Wpedantic with gcc and clang, and uses only the CUDA driver API (CUDA 12.0
// or newer), <string.h>, <pthread.h> and the GCC/Clang __atomic builtins.
#include "codegen/header/runtime.h"

namespace tilec {

std::string_view header_runtime_section() {
  return R"C(/* ---- Shared by every tilec header of ABI version 6 (defined once per translation unit) ---- */
#ifndef TILEC_ABI6_RUNTIME
#define TILEC_ABI6_RUNTIME

/* Definitions in headers are weak, so every translation unit may include them and the linker
   keeps one copy (docs/header.md "Several translation units"). */
#define TILEC_ABI6_WEAK __attribute__((weak))
/* A zero initializer that is warning-free in C and C++ (-Wmissing-field-initializers). */
#ifdef __cplusplus
#define TILEC_ABI6_ZERO {}
#else
#define TILEC_ABI6_ZERO {0}
#endif

/* Kinds of kernel parameters in tilec_param_info. */
#define TILEC_PARAM_ARRAY 0
#define TILEC_PARAM_SCALAR 1

/* One parameter of a kernel, as written in the source. */
typedef struct tilec_param_info {
  const char* name;
  const char* dtype;        /* "f32", "bf16", "bool", ... */
  int kind;                 /* TILEC_PARAM_ARRAY or TILEC_PARAM_SCALAR */
  int elem_bytes;           /* arrays: bytes per element (bool: 1); scalars: bytes in the PTX */
  int rank;                 /* arrays: number of dimensions; scalars: 0 */
  const char* const* dims;  /* arrays: rank entries, a dimension symbol or a decimal constant */
  int may_write;            /* arrays: the kernel may store to it */
} tilec_param_info;

/* A module-level constant of the source (name and printed value). */
typedef struct tilec_constant_info {
  const char* name;
  const char* value;
} tilec_constant_info;

/* A tensor map a TMA path takes (before its other parameters): the array parameter it covers
   and its box in elements, innermost dimension first; 128-byte swizzle, zero fill. */
typedef struct tilec_tensor_map_info {
  int param;                          /* index into the kernel's params */
  int rank;
  uint32_t box[5];
} tilec_tensor_map_info;

/* One code path of a kernel: the entries of one lowering and how they launch. */
typedef struct tilec_path_info {
  const char* name;                   /* "portable", ... */
  const char* arch;                   /* NULL for the portable path (every arch in the image);
                                         else the only -arch whose code has these entries */
  int num_warps;
  int num_stages;                     /* pipeline stages the code runs with (1: none) */
  int threads_per_cta;
  int dynamic_shared_bytes;           /* per CTA */
  int cluster_dims[3];
  int num_variants;
  const char* const* variant_entries; /* PTX entry names; the vectorized one first, if any */
  int num_tensor_maps;
  const tilec_tensor_map_info* tensor_maps;
  int persistent;                     /* 1: min(CTAs, SMs) CTAs loop over the logical grid, which
                                         they take as three uint32_t parameters after the others;
                                         in clusters (cluster_dims[0] > 1), as many CTAs as
                                         clusters fit, a multiple of the cluster size */
  int num_divisors;                   /* launch divisors: each a parameter after those (int32_t,
                                         uint32_t, int64_t or uint64_t as divisor_dtypes says),
                                         then three uint32_t from tilec_divisor_magic */
  const char* const* divisors;        /* their values, C expressions over the symbols */
  const char* const* divisor_dtypes;  /* "u32", "i32", "u64", "i64" */
} tilec_path_info;

/* One configuration of a kernel (configs= in the source; a kernel without has one, label ""). */
typedef struct tilec_config_info {
  const char* label;                  /* its keywords as written, "BM=128, BN=256"; NULL: left out
                                         of this build (-Wconfig) */
  const char* grid[3];                /* its grid, C expressions over the symbols */
  int num_paths;
  const tilec_path_info* paths;       /* as tilec_kernel_metadata.paths */
} tilec_config_info;

/* Everything the header knows about one kernel. */
typedef struct tilec_kernel_metadata {
  int abi_version;                    /* the header's ABI version */
  const char* name;                   /* the kernel's name in the source */
  const char* source;                 /* the source file's name, without its folder */
  const char* tilec_version;
  const char* cuda_version;           /* the ptxas release that made the SASS */
  int num_params;
  const tilec_param_info* params;     /* in source order */
  int num_dim_symbols;
  const char* const* dim_symbols;     /* in order of first appearance */
  int num_constants;
  const tilec_constant_info* constants;
  const char* grid[3];                /* the grid as C expressions over the symbols */
  int num_paths;
  const tilec_path_info* paths;       /* in the order a launch considers them; the last is the
                                         portable path */
  int num_archs;
  const char* const* archs;           /* SASS in the image, "sm_90a" */
  const char* ptx_arch;               /* the arch whose PTX is in the image, or NULL */
  const void* image;                  /* the fatbin, as cuLibraryLoadData takes it */
  size_t image_bytes;
  int num_configs;                    /* configurations declared (configs=; 1 without): grid and
                                         paths above are the first built one's */
  const tilec_config_info* configs;   /* by index, as declared */
  const char* config_space;           /* 16 hex digits: the hash of the signature and the
                                         configurations that a tuning table must match */
  int num_tuning_sections;            /* GPUs of the embedded tuning table (0: none) */
} tilec_kernel_metadata;

/* Python's a // b as the kernels compute it, for values of the kernel's code the launch
   function computes (asserts on extents, launch divisors): INT64_MIN // -1 wraps to INT64_MIN;
   a zero divisor, unspecified in the kernels, gives INT64_MIN. */
static inline int64_t tilec_floordiv_wrap(int64_t a, int64_t b) {
  int64_t q;
  if (b == 0) return INT64_MIN;
  if (b == -1) return (int64_t)(0 - (uint64_t)a);
  q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;
  return q;
}
/* Grid helpers, 64-bit, with Python's floor semantics. A zero divisor gives INT64_MIN, which
   tilec_min and tilec_max pass on and the launch rejects as a negative grid. */
static inline int64_t tilec_floordiv(int64_t a, int64_t b) {
  if (a == INT64_MIN || b == INT64_MIN) return INT64_MIN;
  return tilec_floordiv_wrap(a, b);
}
static inline int64_t tilec_cdiv(int64_t a, int64_t b) {
  int64_t q;
  if (b == 0 || a == INT64_MIN || b == INT64_MIN) return INT64_MIN;
  q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0))) q += 1;
  return q;
}
/* The magic number and shifts of a launch divisor d (a kernel's parameters after d itself): a
   quotient n / d for 0 <= n < 2^32 is q = (t + ((n - t) >> s1)) >> s2 with t = (n * m) >> 32,
   m = out[0], s1 = out[1], s2 = out[2] (Granlund and Montgomery, "Division by invariant integers
   using multiplication", PLDI 1994, Fig. 4.1, N = 32). For d >= 2^32 (64-bit divisors) q is 0;
   d = 0, whose quotient is unspecified, gives q = n. */
static inline void tilec_divisor_magic(uint64_t d, uint32_t out[3]) {
  unsigned l = 0;
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  if (d == 0) return;
  if (d >= ((uint64_t)1 << 32)) {
    out[2] = 32; /* the kernel's shr.u32 by 32 gives 0 */
    return;
  }
  while (((uint64_t)1 << l) < d) ++l; /* l = ceil(log2 d), 0 .. 32 */
  out[0] = (uint32_t)((((uint64_t)1 << l) - d) * ((uint64_t)1 << 32) / d + 1);
  out[1] = l < 1 ? l : 1;
  out[2] = l > 1 ? l - 1 : 0;
}
static inline int64_t tilec_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t tilec_max(int64_t a, int64_t b) {
  if (a == INT64_MIN || b == INT64_MIN) return INT64_MIN;
  return a > b ? a : b;
}

/* f32 -> f16 bits, rounding to nearest even (IEEE 754-2008 binary16); NaN stays a quiet NaN. */
static inline uint16_t tilec_f32_to_f16(float value) {
  uint32_t x, sign, e, mant, q, rem, half;
  unsigned shift;
  memcpy(&x, &value, sizeof x);
  sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  if (x > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);   /* NaN */
  if (x >= 0x47800000u) return (uint16_t)(sign | 0x7c00u);  /* >= 65536 and inf: inf */
  if (x < 0x38800000u) {                                    /* below 2^-14: subnormal or zero */
    e = x >> 23;
    if (e < 102) return (uint16_t)sign;                      /* below 2^-25: rounds to zero */
    mant = (x & 0x7fffffu) | 0x800000u;
    shift = 126u - e;                                       /* 14 .. 24 */
    q = mant >> shift;
    rem = mant & ((1u << shift) - 1u);
    half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u))) q += 1u;
    return (uint16_t)(sign | q);
  }
  /* Normal: rebias the exponent, round the 13 dropped bits to nearest even; a carry into the
     exponent is the right result, up to inf for 65520 and above. */
  x += 0xc8000fffu + ((x >> 13) & 1u);
  return (uint16_t)(sign | (x >> 13));
}

/* f32 -> bf16 bits, rounding to nearest even; NaN stays a quiet NaN. */
static inline uint16_t tilec_f32_to_bf16(float value) {
  uint32_t x;
  memcpy(&x, &value, sizeof x);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

/* What a kernel declares about one array parameter. */
typedef struct tilec_array_desc {
  int rank;
  int elem_bytes;
  int may_write;
  int vector_bytes;          /* vectorized variant: the innermost extent in bytes is a multiple */
  const int* dim_symbol;     /* per dimension: index of its dimension symbol, or -1 */
  const int64_t* dim_const;  /* per dimension: the constant extent where dim_symbol is -1 */
} tilec_array_desc;

/* The byte range [lo, hi) an array view touches; 0 when it is empty, -1 on overflow. */
static inline int tilec_array_span(const tilec_array_desc* d, CUdeviceptr base, const int64_t* shape,
                                   const int64_t* strides, uint64_t* lo, uint64_t* hi) {
  int64_t first = 0, last = 0, off;
  int k;
  for (k = 0; k < d->rank; ++k) {
    if (shape[k] == 0) return 0;
    if (__builtin_mul_overflow(shape[k] - 1, strides[k], &off)) return -1;
    if (off < 0 ? __builtin_add_overflow(first, off, &first) : __builtin_add_overflow(last, off, &last))
      return -1;
  }
  if (__builtin_mul_overflow(first, (int64_t)d->elem_bytes, &first)) return -1;
  if (__builtin_add_overflow(last, (int64_t)1, &last)) return -1;
  if (__builtin_mul_overflow(last, (int64_t)d->elem_bytes, &last)) return -1;
  if (first < 0 && (uint64_t)(-(first + 1)) >= (uint64_t)base) return -1; /* below address 0 */
  *lo = (uint64_t)base + (uint64_t)first;
  *hi = (uint64_t)base + (uint64_t)last;
  if (*hi < (uint64_t)base) return -1;
  return 1;
}

/* Checks the arrays of one launch and fills symbols[num_symbols] with the dimension symbols'
   extents. CUDA_ERROR_INVALID_VALUE for a negative extent, a constant dimension or a shared
   symbol that disagrees, a null base with elements, a view past the address space, a written
   array with a stride-0 dimension of extent > 1, or two arrays whose byte ranges overlap when at
   least one may be written, unless the two are the same view (same base, element size, rank,
   extents and strides). *vectorizable tells whether every non-empty array has a 16-byte aligned
   base, stride 1 in the innermost dimension, strides that are multiples of 16 bytes in the
   others (dimensions of extent 1 are never stepped, so their strides do not count) and an
   innermost extent whose size in bytes is a multiple of its vector_bytes. */
static inline CUresult tilec_check_arrays(int num_arrays, const tilec_array_desc* desc,
                                          const CUdeviceptr* base, const int64_t* const* shape,
                                          const int64_t* const* strides, int64_t* symbols,
                                          int num_symbols, uint64_t* lo, uint64_t* hi,
                                          int* nonempty, int* vectorizable) {
  int i, j, k;
  *vectorizable = 1;
  for (i = 0; i < num_symbols; ++i) symbols[i] = -1;
  for (i = 0; i < num_arrays; ++i) {
    const tilec_array_desc* d = &desc[i];
    for (k = 0; k < d->rank; ++k) {
      int64_t e = shape[i][k];
      int s = d->dim_symbol[k];
      if (e < 0) return CUDA_ERROR_INVALID_VALUE;
      if (s < 0) {
        if (e != d->dim_const[k]) return CUDA_ERROR_INVALID_VALUE;
      } else if (symbols[s] < 0) {
        symbols[s] = e;
      } else if (symbols[s] != e) {
        return CUDA_ERROR_INVALID_VALUE;
      }
      if (d->may_write && e > 1 && strides[i][k] == 0) return CUDA_ERROR_INVALID_VALUE;
    }
    nonempty[i] = tilec_array_span(d, base[i], shape[i], strides[i], &lo[i], &hi[i]);
    if (nonempty[i] < 0) return CUDA_ERROR_INVALID_VALUE;
    if (!nonempty[i]) continue;
    if (base[i] == 0) return CUDA_ERROR_INVALID_VALUE;
    if (base[i] % 16 != 0) *vectorizable = 0;
    for (k = 0; k < d->rank; ++k) {
      if (shape[i][k] <= 1) continue;
      if (k == d->rank - 1 ? strides[i][k] != 1 : (strides[i][k] * d->elem_bytes) % 16 != 0)
        *vectorizable = 0;
    }
    if (d->rank > 0 && (shape[i][d->rank - 1] * d->elem_bytes) % d->vector_bytes != 0) *vectorizable = 0;
  }
  for (i = 0; i < num_arrays; ++i) {
    for (j = i + 1; j < num_arrays; ++j) {
      int same = 1;
      if (!nonempty[i] || !nonempty[j] || !(desc[i].may_write || desc[j].may_write)) continue;
      if (lo[i] >= hi[j] || lo[j] >= hi[i]) continue;
      same = base[i] == base[j] && desc[i].elem_bytes == desc[j].elem_bytes &&
             desc[i].rank == desc[j].rank;
      for (k = 0; same && k < desc[i].rank; ++k)
        same = shape[i][k] == shape[j][k] && strides[i][k] == strides[j][k];
      if (!same) return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return CUDA_SUCCESS;
}

/* Row-major strides in elements for `shape` (extents 0 and 1 do not scale the outer strides,
   as in PyTorch); 0 when a stride would overflow. */
static inline int tilec_row_major(int rank, const int64_t* shape, int64_t* strides) {
  int64_t s = 1;
  int k;
  for (k = rank - 1; k >= 0; --k) {
    strides[k] = s;
    if (shape[k] > 1 && __builtin_mul_overflow(s, shape[k], &s)) return 0;
  }
  return 1;
}

/* Grid limits of compute capability 5.0 and later (CUDA C++ Programming Guide, "Features and
   Technical Specifications"): x up to 2^31 - 1, y and z up to 65535. */
static inline CUresult tilec_grid_to_u32(const int64_t g[3], uint32_t out[3]) {
  static const int64_t limit[3] = {2147483647, 65535, 65535};
  int i;
  for (i = 0; i < 3; ++i) {
    if (g[i] < 0 || g[i] > limit[i]) return CUDA_ERROR_INVALID_VALUE;
    out[i] = (uint32_t)g[i];
  }
  return CUDA_SUCCESS;
}

/* The device a launch on `stream` runs on: cuLaunchKernel takes the context from the stream, or
   the current one for the NULL and per-thread/legacy streams (cuda.h, cuLaunchKernel). */
static inline CUresult tilec_stream_device(CUstream stream, CUdevice* dev) {
  CUcontext stream_ctx = NULL, current = NULL, popped = NULL;
  CUresult r = cuStreamGetCtx(stream, &stream_ctx), r2;
  if (r != CUDA_SUCCESS) return r;
  r = cuCtxGetCurrent(&current);
  if (r != CUDA_SUCCESS) return r;
  if (stream_ctx == current) return cuCtxGetDevice(dev);
  r = cuCtxPushCurrent(stream_ctx);
  if (r != CUDA_SUCCESS) return r;
  r = cuCtxGetDevice(dev);
  r2 = cuCtxPopCurrent(&popped);
  return r != CUDA_SUCCESS ? r : r2;
}

/* The multiprocessor count of `dev`, for grids that use num_sms(). */
static inline CUresult tilec_num_sms(CUdevice dev, int64_t* num_sms) {
  int v = 0;
  CUresult r = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  *num_sms = v;
  return r;
}

/* A launch configuration of `grid` CTAs of `threads` threads in clusters of cluster[0..2] CTAs
   (cuLaunchKernelEx and cuOccupancyMaxActiveClusters take it; cuda.h), its one attribute in *attr. */
static inline void tilec_cluster_config(CUlaunchConfig* config, CUlaunchAttribute* attr, const uint32_t grid[3],
                                        int threads, int shared_bytes, const int cluster[3], CUstream stream) {
  memset(config, 0, sizeof *config);
  memset(attr, 0, sizeof *attr);
  attr->id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr->value.clusterDim.x = (unsigned)cluster[0];
  attr->value.clusterDim.y = (unsigned)cluster[1];
  attr->value.clusterDim.z = (unsigned)cluster[2];
  config->gridDimX = grid[0];
  config->gridDimY = grid[1];
  config->gridDimZ = grid[2];
  config->blockDimX = (unsigned)threads;
  config->blockDimY = 1;
  config->blockDimZ = 1;
  config->sharedMemBytes = (unsigned)shared_bytes;
  config->hStream = stream;
  config->attrs = attr;
  config->numAttrs = 1;
}

/* How many CTAs of `kernel` in clusters of cluster[0] x cluster[1] x cluster[2] can be resident at
   once on the stream's device `dev`, for a persistent grid: the cluster size times
   cuOccupancyMaxActiveClusters (cuda.h; a CUkernel passed as CUfunction, the context taken from
   the stream) for blocks of `threads` and `shared_bytes` of dynamic shared memory (the limit must
   have been raised first). Devices 0..255 are remembered in cache[dev] (0: not asked yet). */
static inline CUresult tilec_cluster_ctas(int64_t* cache, CUkernel kernel, CUdevice dev, int threads,
                                          int shared_bytes, const int cluster[3], CUstream stream,
                                          int64_t* ctas) {
  CUlaunchConfig config;
  CUlaunchAttribute attr;
  uint32_t grid[3];
  int clusters = 0, size = cluster[0] * cluster[1] * cluster[2];
  int known = dev >= 0 && dev < 256;
  CUresult r;
  if (known && (*ctas = __atomic_load_n(&cache[dev], __ATOMIC_RELAXED)) != 0) return CUDA_SUCCESS;
  grid[0] = (uint32_t)cluster[0];
  grid[1] = (uint32_t)cluster[1];
  grid[2] = (uint32_t)cluster[2];
  tilec_cluster_config(&config, &attr, grid, threads, shared_bytes, cluster, stream);
  r = cuOccupancyMaxActiveClusters(&clusters, (CUfunction)kernel, &config);
  if (r != CUDA_SUCCESS) return r;
  if (clusters < 1) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  *ctas = (int64_t)clusters * size;
  if (known) __atomic_store_n(&cache[dev], *ctas, __ATOMIC_RELAXED);
  return CUDA_SUCCESS;
}

/* Raises the kernel's dynamic shared memory limit on `dev` once (devices 0..255 are remembered
   in `done`, a 256-bit set; others are set on every launch). Needed above 48 KiB: CUDA C++
   Programming Guide, "Shared Memory", and cuKernelSetAttribute in cuda.h. */
static inline CUresult tilec_raise_shared_limit(uint64_t* done, CUkernel kernel, CUdevice dev, int bytes) {
  uint64_t bit = 0;
  CUresult r;
  int known = dev >= 0 && dev < 256;
  if (known) {
    bit = (uint64_t)1 << (dev % 64);
    if (__atomic_load_n(&done[dev / 64], __ATOMIC_ACQUIRE) & bit) return CUDA_SUCCESS;
  }
  r = cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes, kernel, dev);
  if (r == CUDA_SUCCESS && known) __atomic_fetch_or(&done[dev / 64], bit, __ATOMIC_RELEASE);
  return r;
}

/* Encodes the tensor map of an array view of `type` with elements of `esz` bytes (rank 1..5,
   extents and strides in elements, outermost first) with boxes of box[] elements, innermost
   first, in the 128-byte swizzle, for a TMA path (cuTensorMapEncodeTiled, cuda.h; the rules are
   in its documentation: 16-byte aligned base, strides multiples of 16 bytes below 2^40, extents
   1 .. 2^32). Extents stop at 2^31 - 1 here: the copies' coordinates are signed 32-bit, and the
   kernels clamp a tile's origin to that range (a tile that far out stays outside). A dimension of
   extent 1 is never stepped, so its stride is replaced by a valid one. Fails (the stub then takes
   another path) for arrays that break a rule. */
static inline CUresult tilec_encode_tensor_map(CUtensorMap* map, CUtensorMapDataType type, int esz, int rank,
                                               CUdeviceptr base,
                                               const int64_t* shape, const int64_t* strides,
                                               const uint32_t* box) {
  cuuint64_t dim[5], stride[4];
  cuuint32_t box32[5], step[5];
  int i;
  if (rank < 1 || rank > 5) return CUDA_ERROR_INVALID_VALUE;
  for (i = 0; i < rank; ++i) {
    int64_t e = shape[rank - 1 - i];
    if (e < 1 || e > INT32_MAX) return CUDA_ERROR_INVALID_VALUE;
    dim[i] = (cuuint64_t)e;
    box32[i] = box[i];
    step[i] = 1;
  }
  if (shape[rank - 1] > 1 && strides[rank - 1] != 1) return CUDA_ERROR_INVALID_VALUE;
  for (i = 1; i < rank; ++i) {
    int a = rank - 1 - i;  /* the array dimension of tensor-map dimension i */
    int64_t bytes;
    if (shape[a] > 1) {
      if (strides[a] <= 0 || __builtin_mul_overflow(strides[a], (int64_t)esz, &bytes)) return CUDA_ERROR_INVALID_VALUE;
    } else {
      /* dense over the inner dimensions, rounded up to 16 bytes */
      bytes = i == 1 ? (int64_t)dim[0] * esz : (int64_t)(stride[i - 2] * dim[i - 1]);
      bytes = (bytes + 15) / 16 * 16;
    }
    stride[i - 1] = (cuuint64_t)bytes;
  }
  return cuTensorMapEncodeTiled(map, type, (cuuint32_t)rank, (void*)base, dim, stride, box32, step,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

/* Launches `kernel` (a CUkernel passed as CUfunction, which cuLaunchKernel and cuLaunchKernelEx
   accept: cuda.h) in the stream's context; clusters go through cuLaunchKernelEx, and every grid
   dimension must be a multiple of the cluster's. `pdl`: the code on this device opens with
   griddepcontrol.launch_dependents and griddepcontrol.wait (sm_90 and newer), so the launch
   carries CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION: its CTAs may start once every CTA
   of the kernel before it on the stream has (programmatic dependent launch), and wait there for
   that grid's end and memory. A program that defines TILEC_TRACE_LAUNCH(entry) before including
   the header has it called with the PTX entry's name before each launch (the GPU tests use it to
   tell which code path ran). */
static inline CUresult tilec_launch(CUkernel kernel, const char* entry, const uint32_t grid[3], int threads,
                                    int shared_bytes, const int cluster[3], int pdl, CUstream stream,
                                    void** args) {
  CUlaunchConfig config;
  CUlaunchAttribute attrs[2];
  int i, clustered = cluster[0] != 1 || cluster[1] != 1 || cluster[2] != 1;
#ifdef TILEC_TRACE_LAUNCH
  TILEC_TRACE_LAUNCH(entry);
#else
  (void)entry;
#endif
  if (!clustered && !pdl)
    return cuLaunchKernel((CUfunction)kernel, grid[0], grid[1], grid[2], (unsigned)threads, 1, 1,
                          (unsigned)shared_bytes, stream, args, NULL);
  for (i = 0; i < 3; ++i)
    if (grid[i] % (uint32_t)cluster[i] != 0) return CUDA_ERROR_INVALID_VALUE;
  tilec_cluster_config(&config, attrs, grid, threads, shared_bytes, cluster, stream);
  config.numAttrs = (unsigned)clustered;  /* attrs[0]: the cluster's, when there is one */
  if (pdl) {
    memset(&attrs[config.numAttrs], 0, sizeof attrs[0]);
    attrs[config.numAttrs].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attrs[config.numAttrs++].value.programmaticStreamSerializationAllowed = 1;
  }
  return cuLaunchKernelEx(&config, (CUfunction)kernel, args, NULL);
}

/* One PTX entry of a kernel, as the loader and the launch see it. */
typedef struct tilec_entry_desc {
  const char* name;
  int compute_capability;  /* 0: in the code of every arch; else (major * 10 + minor) the only
                              devices whose code has it (an arch-specific path, "sm_90a": 90) */
  int shared_bytes;        /* dynamic shared memory it launches with */
} tilec_entry_desc;

/* The loaded state of one kernel: its own CUlibrary (context-independent, CUDA 12.0), one
   CUkernel per entry (NULL for an arch-specific entry the image's code does not have), per
   entry the devices whose shared memory limit is raised, and per device its compute
   capability (0 until asked). */
typedef struct tilec_kernel_state {
  int loaded;  /* read with __atomic acquire; set under the lock after the handles */
  CUlibrary library;
  CUkernel kernels[64];
  uint64_t shared_limit_done[64][4];
  int compute_capability[256];
} tilec_kernel_state;

/* Loads `image` once for the process and looks up the entries. The first call wins the lock
   and loads; others wait for it; a failed load is retried by the next call. An arch-specific
   entry that cannot be found is left NULL (its path is then never taken). cuInit(0) is called
   first (it is idempotent and cheap once done). */
static inline CUresult tilec_load(tilec_kernel_state* state, pthread_mutex_t* lock, const void* image,
                                  int num_entries, const tilec_entry_desc* entries) {
  CUresult r = CUDA_SUCCESS;
  CUlibrary library = NULL;
  int i;
  if (__atomic_load_n(&state->loaded, __ATOMIC_ACQUIRE)) return CUDA_SUCCESS;
  if (pthread_mutex_lock(lock) != 0) return CUDA_ERROR_UNKNOWN;
  if (!__atomic_load_n(&state->loaded, __ATOMIC_ACQUIRE)) {
    r = cuInit(0);
    if (r == CUDA_SUCCESS) r = cuLibraryLoadData(&library, image, NULL, NULL, 0, NULL, NULL, 0);
    for (i = 0; r == CUDA_SUCCESS && i < num_entries; ++i) {
      r = cuLibraryGetKernel(&state->kernels[i], library, entries[i].name);
      if (r != CUDA_SUCCESS && entries[i].compute_capability != 0) {
        state->kernels[i] = NULL;
        r = CUDA_SUCCESS;
      }
    }
    if (r == CUDA_SUCCESS) {
      state->library = library;
      memset(state->shared_limit_done, 0, sizeof state->shared_limit_done);
      __atomic_store_n(&state->loaded, 1, __ATOMIC_RELEASE);
    } else if (library != NULL) {
      cuLibraryUnload(library);
    }
  }
  pthread_mutex_unlock(lock);
  return r;
}

/* The compute capability of `dev` (major * 10 + minor), remembered per device 0..255. */
static inline CUresult tilec_compute_capability(tilec_kernel_state* state, CUdevice dev, int* cc) {
  int major = 0, minor = 0;
  CUresult r;
  int known = dev >= 0 && dev < 256;
  if (known && (*cc = __atomic_load_n(&state->compute_capability[dev], __ATOMIC_RELAXED)) != 0)
    return CUDA_SUCCESS;
  r = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  if (r == CUDA_SUCCESS) r = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  if (r != CUDA_SUCCESS) return r;
  *cc = major * 10 + minor;
  if (known) __atomic_store_n(&state->compute_capability[dev], *cc, __ATOMIC_RELAXED);
  return CUDA_SUCCESS;
}

/* Whether entry `i` can run on a device of compute capability `cc`. */
static inline int tilec_entry_runs(const tilec_kernel_state* state, const tilec_entry_desc* entries, int i, int cc) {
  return state->kernels[i] != NULL && (entries[i].compute_capability == 0 || entries[i].compute_capability == cc);
}

/* Unloads what tilec_load loaded; the next launch loads again. Must not run while another
   thread launches the kernel or has work of it queued that is not finished. */
static inline CUresult tilec_unload(tilec_kernel_state* state, pthread_mutex_t* lock) {
  CUresult r = CUDA_SUCCESS;
  if (pthread_mutex_lock(lock) != 0) return CUDA_ERROR_UNKNOWN;
  if (__atomic_load_n(&state->loaded, __ATOMIC_ACQUIRE)) {
    __atomic_store_n(&state->loaded, 0, __ATOMIC_RELEASE);
    r = cuLibraryUnload(state->library);
    state->library = NULL;
  }
  pthread_mutex_unlock(lock);
  return r;
}

/* For an explicit load: loads each entry this context's device can run into the current
   context, if there is one, and raises its shared memory limit on that device, so that later
   launches (inside a CUDA graph capture, say) do no loading. */
static inline CUresult tilec_load_into_current(tilec_kernel_state* state, int num_entries,
                                               const tilec_entry_desc* entries) {
  CUcontext ctx = NULL;
  CUfunction function;
  CUdevice dev = 0;
  int i, cc = 0;
  CUresult r = cuCtxGetCurrent(&ctx);
  if (r != CUDA_SUCCESS || ctx == NULL) return r;
  if ((r = cuCtxGetDevice(&dev)) != CUDA_SUCCESS) return r;
  if ((r = tilec_compute_capability(state, dev, &cc)) != CUDA_SUCCESS) return r;
  for (i = 0; i < num_entries; ++i) {
    if (!tilec_entry_runs(state, entries, i, cc)) continue;
    r = cuKernelGetFunction(&function, state->kernels[i]);
    if (r == CUDA_SUCCESS && entries[i].shared_bytes > 48 * 1024)
      r = tilec_raise_shared_limit(state->shared_limit_done[i], state->kernels[i], dev, entries[i].shared_bytes);
    if (r != CUDA_SUCCESS) return r;
  }
  return CUDA_SUCCESS;
}

/* ---- Configurations: which one a launch takes (docs/tuning.md) ---- */
/* What a launch's choice reads of a device, once per device (tilec_device). */
typedef struct tilec_device_desc {
  int ready;                          /* read with __atomic acquire; set after the fields */
  int compute_capability;             /* major * 10 + minor */
  int sms;                            /* multiprocessors */
  int threads_per_sm, ctas_per_sm, shared_per_sm;  /* their limits (shared: bytes) */
  char name[256];                     /* cuDeviceGetName */
} tilec_device_desc;
TILEC_ABI6_WEAK extern tilec_device_desc tilec_abi6_devices[256];
tilec_device_desc tilec_abi6_devices[256];
TILEC_ABI6_WEAK extern pthread_mutex_t tilec_abi6_devices_lock;
pthread_mutex_t tilec_abi6_devices_lock = PTHREAD_MUTEX_INITIALIZER;
/* The description of `dev` (devices 0..255, read from the driver once), or NULL with *r set. */
static inline const tilec_device_desc* tilec_device(CUdevice dev, CUresult* r) {
  tilec_device_desc* d;
  CUresult e = CUDA_SUCCESS;
  int major = 0, minor = 0;
  *r = CUDA_ERROR_INVALID_DEVICE;
  if (dev < 0 || dev >= 256) return NULL;
  d = &tilec_abi6_devices[dev];
  *r = CUDA_SUCCESS;
  if (__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE)) return d;
  if (pthread_mutex_lock(&tilec_abi6_devices_lock) != 0) {
    *r = CUDA_ERROR_UNKNOWN;
    return NULL;
  }
  if (!__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE)) {
    e = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    if (e == CUDA_SUCCESS) e = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    if (e == CUDA_SUCCESS) e = cuDeviceGetAttribute(&d->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    if (e == CUDA_SUCCESS)
      e = cuDeviceGetAttribute(&d->threads_per_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev);
    if (e == CUDA_SUCCESS)
      e = cuDeviceGetAttribute(&d->ctas_per_sm, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, dev);
    if (e == CUDA_SUCCESS)
      e = cuDeviceGetAttribute(&d->shared_per_sm, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, dev);
    if (e == CUDA_SUCCESS) e = cuDeviceGetName(d->name, (int)sizeof d->name, dev);
    if (e == CUDA_SUCCESS) {
      d->compute_capability = major * 10 + minor;
      __atomic_store_n(&d->ready, 1, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&tilec_abi6_devices_lock);
  *r = e;
  return e == CUDA_SUCCESS ? d : NULL;
}
/* The configuration the environment variable `name` forces (TILEC_CONFIG_<kernel>=<index>), read
   once into *cache (-2: not read yet); -1 when it is not set or not a number. */
static inline int tilec_forced_config(int* cache, const char* name) {
  int v = __atomic_load_n(cache, __ATOMIC_RELAXED);
  const char* s;
  if (v != -2) return v;
  s = getenv(name);
  v = -1;
  if (s != NULL && *s >= '0' && *s <= '9') {
    v = 0;
    while (*s >= '0' && *s <= '9' && v < 1000000) v = v * 10 + (*s++ - '0');
    if (*s != 0) v = -1;
  }
  __atomic_store_n(cache, v, __ATOMIC_RELAXED);
  return v;
}
/* One GPU's section of an embedded tuning table: per row, the extents of the kernel's dimension
   symbols (num_symbols each) and the configuration tuned best for them. */
typedef struct tilec_tuning_section {
  const char* gpu;                    /* cuDeviceGetName's */
  int compute_capability;             /* major * 10 + minor */
  int sms;
  int num_rows;
  const int64_t* extents;             /* num_rows * num_symbols */
  const int* configs;
} tilec_tuning_section;
/* 256 * log2(x) for x >= 1 (x < 1 counts as 1), from the leading bit and the next eight. */
static inline int64_t tilec_log2_q8(int64_t x) {
  int lead;
  uint64_t u = x < 1 ? 1 : (uint64_t)x;
  lead = 63 - __builtin_clzll(u);
  return (int64_t)lead * 256 + (int64_t)(lead >= 8 ? (u >> (lead - 8)) & 255 : (u << (8 - lead)) & 255);
}
/* The configuration a tuning table gives extents `sym` on device `d`: its section for the device
   (the same name, else the same compute capability and multiprocessor count), the row with the
   same extents, else the nearest row in log2 space (the sum of squared differences of 256 log2 x
   per symbol); only rows whose configuration is eligible (ok[config] != 0, config < num_configs)
   count. -1 when there is no section or no such row. */
static inline int tilec_tuned_config(const tilec_tuning_section* sections, int num_sections,
                                     const tilec_device_desc* d, const int64_t* sym, int num_symbols,
                                     const int* ok, int num_configs) {
  const tilec_tuning_section* s = NULL;
  int i, j, best = -1;
  int64_t best_distance = 0;
  for (i = 0; i < num_sections && s == NULL; ++i)
    if (strcmp(sections[i].gpu, d->name) == 0) s = &sections[i];
  for (i = 0; i < num_sections && s == NULL; ++i)
    if (sections[i].compute_capability == d->compute_capability && sections[i].sms == d->sms) s = &sections[i];
  if (s == NULL) return -1;
  for (i = 0; i < s->num_rows; ++i) {
    const int64_t* row = &s->extents[(size_t)i * (size_t)num_symbols];
    int64_t distance = 0;
    int c = s->configs[i];
    if (c < 0 || c >= num_configs || !ok[c]) continue;
    for (j = 0; j < num_symbols; ++j) {
      int64_t diff = tilec_log2_q8(row[j]) - tilec_log2_q8(sym[j]);
      distance += diff * diff;
    }
    if (best < 0 || distance < best_distance) {
      best = c;
      best_distance = distance;
    }
  }
  return best;
}
/* The estimated time of a launch of `ctas` CTAs of `threads` threads and `shared_bytes` of dynamic
   shared memory, each doing `work` units, on device `d` (docs/tuning.md "Without a table"): the
   CTAs resident on one multiprocessor at once (its limits on threads, CTAs and shared memory,
   1 KiB reserved per CTA) make a wave of sms * resident CTAs; a multiprocessor runs
   min(resident, its share of the CTAs) at a time, and the launch takes
   waves * (CTAs a multiprocessor runs at once) * work. A persistent grid has one CTA per
   multiprocessor looping over the others: resident is 1. */
static inline int64_t tilec_estimate(const tilec_device_desc* d, int64_t ctas, int threads, int shared_bytes,
                                     int persistent, int64_t work) {
  int64_t resident = d->ctas_per_sm > 0 ? d->ctas_per_sm : 1, slots, waves, at_once, per_sm;
  if (threads > 0 && d->threads_per_sm / threads < resident) resident = d->threads_per_sm / threads;
  if (d->shared_per_sm / (shared_bytes + 1024) < resident) resident = d->shared_per_sm / (shared_bytes + 1024);
  if (persistent || resident < 1) resident = 1;
  if (ctas <= 0 || d->sms <= 0) return 0;
  slots = (int64_t)d->sms * resident;
  waves = (ctas + slots - 1) / slots;
  per_sm = (ctas + d->sms - 1) / d->sms;
  at_once = per_sm < resident ? per_sm : resident;
  return waves * at_once * work;
}
/* Whether an array's innermost extent in bytes is a multiple of `vector_bytes`, or it is empty: a
   configuration's own condition for its vectorized variant (tilec_check_arrays checks the rest). */
static inline int tilec_vector_extent(int rank, const int64_t* shape, int elem_bytes, int vector_bytes) {
  int k;
  for (k = 0; k < rank; ++k)
    if (shape[k] == 0) return 1;
  return rank == 0 || (shape[rank - 1] * elem_bytes) % vector_bytes == 0;
}

#endif /* TILEC_ABI6_RUNTIME */
)C";
}

}  // namespace tilec
