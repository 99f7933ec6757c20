/* The fake CUDA driver of mock_cuda.h. Linked into the run test instead of libcuda; cuda.h's
   macros give each function the exported name the real library has (cuCtxPushCurrent_v2 ...). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "mock_cuda.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

mock_state mock;

static size_t param_sizes[MOCK_MAX_PARAMS];
static int num_params;
static int current_device;   /* -1: none */
static int device_cc[4] = {90, 80, 90, 86};  /* compute capability of devices 0..3 */
static char missing_entry[64];               /* an entry the "image" does not have */
static int ctx_stack[8];
static int ctx_depth;

/* Contexts and streams are fake pointers that encode their device. */
#define CTX_OF(dev) ((CUcontext)(uintptr_t)(0x1000 + 16 * (dev)))
#define DEV_OF_CTX(ctx) ((int)(((uintptr_t)(ctx) - 0x1000) / 16))

struct CUkern_st { char entry[64]; };
struct CUlib_st { int id; };
static struct CUkern_st kernels[64];
static int num_kernels;
static struct CUlib_st libraries[64];
static int num_libraries;

void mock_reset(void) {
  memset(&mock, 0, sizeof mock);
  mock.init_result = CUDA_SUCCESS;
  current_device = 0;
  ctx_depth = 0;
}

void mock_param_sizes(const size_t* sizes, int n) {
  int i;
  num_params = n;
  for (i = 0; i < n; ++i) param_sizes[i] = sizes[i];
}

void mock_set_compute_capability(int device, int cc) { device_cc[device] = cc; }
void mock_set_missing_entry(const char* name) {
  memset(missing_entry, 0, sizeof missing_entry);
  if (name) strncpy(missing_entry, name, sizeof missing_entry - 1);
}

CUstream mock_stream(int device) { return (CUstream)(uintptr_t)(0x2000 + 16 * device); }
void mock_set_current(int device) { current_device = device; }

CUresult CUDAAPI cuInit(unsigned int flags) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  (void)flags;
  __atomic_fetch_add(&mock.init_calls, 1, __ATOMIC_SEQ_CST);
  return mock.init_result;
}

CUresult CUDAAPI cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jit_options,
                                   void** jit_values, unsigned int num_jit, CUlibraryOption* options,
                                   void** option_values, unsigned int num_options) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  (void)jit_options; (void)jit_values; (void)num_jit; (void)options; (void)option_values; (void)num_options;
  if (mock.load_delay_ms) {
    struct timespec ts;
    ts.tv_sec = 0;
    ts.tv_nsec = (long)mock.load_delay_ms * 1000000L;
    nanosleep(&ts, NULL);
  }
  __atomic_fetch_add(&mock.load_calls, 1, __ATOMIC_SEQ_CST);
  mock.last_image = code;
  *library = &libraries[num_libraries++ % 64];
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryUnload(CUlibrary library) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  (void)library;
  mock.unload_calls++;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  struct CUkern_st* k;
  (void)library;
  if (missing_entry[0] && strcmp(name, missing_entry) == 0) return CUDA_ERROR_NOT_FOUND;
  k = &kernels[num_kernels++ % 64];
  strncpy(k->entry, name, sizeof k->entry - 1);
  *kernel = k;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction* function, CUkernel kernel) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  mock.get_function_calls++;
  *function = (CUfunction)(void*)kernel;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int value, CUkernel kernel, CUdevice dev) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  (void)kernel;
  if (attrib != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) return CUDA_ERROR_INVALID_VALUE;
  mock.set_attribute_calls++;
  mock.last_attribute_value = value;
  mock.last_attribute_device = dev;
  return CUDA_SUCCESS;
}

static int top_device(void) { return ctx_depth > 0 ? ctx_stack[ctx_depth - 1] : current_device; }

CUresult CUDAAPI cuCtxGetCurrent(CUcontext* ctx) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  *ctx = top_device() < 0 ? NULL : CTX_OF(top_device());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice* dev) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  if (top_device() < 0) return CUDA_ERROR_INVALID_CONTEXT;
  *dev = top_device();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  mock.push_calls++;
  ctx_stack[ctx_depth++] = DEV_OF_CTX(ctx);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext* ctx) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  mock.pop_calls++;
  if (ctx_depth == 0) return CUDA_ERROR_INVALID_CONTEXT;
  *ctx = CTX_OF(ctx_stack[--ctx_depth]);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamGetCtx(CUstream stream, CUcontext* ctx) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  if (stream == NULL) return cuCtxGetCurrent(ctx);
  *ctx = CTX_OF(((uintptr_t)stream - 0x2000) / 16);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* address,
                                        const cuuint64_t* dim, const cuuint64_t* strides, const cuuint32_t* box,
                                        const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                                        CUtensorMapSwizzle swizzle, CUtensorMapL2promotion promotion,
                                        CUtensorMapFloatOOBfill fill) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  /* The rules of cuda.h's documentation that a launch stub can break: 16-byte aligned address
     and strides, extents 1 .. 2^32, boxes 1 .. 256, swizzle 128B needs box[0] * 2 <= 128. */
  cuuint32_t i;
  uint64_t tag;
  (void)element_strides; (void)interleave; (void)promotion; (void)fill;
  mock.encode_calls++;
  if (rank < 1 || rank > 5 || (uintptr_t)address % 16) return CUDA_ERROR_INVALID_VALUE;
  for (i = 0; i < rank; ++i) {
    if (dim[i] < 1 || dim[i] > ((uint64_t)1 << 32) || box[i] < 1 || box[i] > 256) return CUDA_ERROR_INVALID_VALUE;
    mock.last_map.dim[i] = dim[i];
    mock.last_map.box[i] = box[i];
    if (i + 1 < rank) {
      if (strides[i] % 16) return CUDA_ERROR_INVALID_VALUE;
      mock.last_map.stride[i] = strides[i];
    }
  }
  if (swizzle == CU_TENSOR_MAP_SWIZZLE_128B && box[0] * 2 > 128) return CUDA_ERROR_INVALID_VALUE;
  mock.last_map.rank = (int)rank;
  mock.last_map.bf16 = type == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  mock.last_map.address = (uint64_t)(uintptr_t)address;
  tag = 0x7A9000000000ull + (uint64_t)mock.encode_calls;  /* what the launch's parameter must hold */
  memcpy(map, &tag, sizeof tag);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int* value, CUdevice_attribute attrib, CUdevice dev) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  if (attrib == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR || attrib == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) {
    mock.cc_queries++;
    *value = attrib == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? device_cc[dev] / 10 : device_cc[dev] % 10;
    return CUDA_SUCCESS;
  }
  /* What a launch's choice among configurations reads (tilec_device): an H100's limits. */
  if (attrib == CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) *value = 2048;
  else if (attrib == CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR) *value = 32;
  else if (attrib == CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) *value = 228 * 1024;
  else if (attrib == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) *value = 132 / (dev + 1);  /* device 0: 132 SMs, device 1: 66 */
  else return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char* name, int len, CUdevice dev) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  if (len < 1) return CUDA_ERROR_INVALID_VALUE;
  snprintf(name, (size_t)len, "mock device %d", dev);
  return CUDA_SUCCESS;
}

static void record(const char* entry, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, CUstream stream, void** params) {
  int i;
  memset(&mock.last, 0, sizeof mock.last);
  strncpy(mock.last.entry, entry, sizeof mock.last.entry - 1);
  mock.last.grid[0] = gx; mock.last.grid[1] = gy; mock.last.grid[2] = gz;
  mock.last.block[0] = bx; mock.last.block[1] = by; mock.last.block[2] = bz;
  mock.last.shared_bytes = shared;
  mock.last.stream = stream;
  for (i = 0; i < num_params; ++i) memcpy(mock.last.params[i], params[i], param_sizes[i]);
  mock.launches++;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                unsigned by, unsigned bz, unsigned shared, CUstream stream,
                                void** params, void** extra) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  if (extra != NULL) return CUDA_ERROR_INVALID_VALUE;
  record(((struct CUkern_st*)(void*)f)->entry, gx, gy, gz, bx, by, bz, shared, stream, params);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) {
  __atomic_fetch_add(&mock.driver_calls, 1, __ATOMIC_SEQ_CST);
  unsigned i;
  if (extra != NULL) return CUDA_ERROR_INVALID_VALUE;
  record(((struct CUkern_st*)(void*)f)->entry, config->gridDimX, config->gridDimY, config->gridDimZ,
         config->blockDimX, config->blockDimY, config->blockDimZ, config->sharedMemBytes, config->hStream,
         params);
  mock.last.via_ex = 1;
  for (i = 0; i < config->numAttrs; ++i) {
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      mock.last.pdl = config->attrs[i].value.programmaticStreamSerializationAllowed == 1;
    if (config->attrs[i].id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) continue;
    mock.last.cluster[0] = config->attrs[i].value.clusterDim.x;
    mock.last.cluster[1] = config->attrs[i].value.clusterDim.y;
    mock.last.cluster[2] = config->attrs[i].value.clusterDim.z;
  }
  return CUDA_SUCCESS;
}
