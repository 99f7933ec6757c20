/* A hand-written stand-in for a tilec header of ABI 6 (src/codegen/header/runtime.cpp has the
   structures; docs/header.md, docs/tuning.md) for the tilec-tune tests that run without a GPU: kernel scale(x: f32[m, n], y: f32[m, n], alpha: f32), y = alpha * x, with
   five configurations that run on the host through the fake driver (fake_cuda.c: device
   pointers are host pointers, time moves only by fake_cuda_advance_us):
     0 "B=256"      correct, 10 us per 1000 elements
     1 "B=512"      correct,  5 us per 1000 elements
     2 "B=64"       wrong: y = alpha * x + 1
     3 "B=1024"     correct, 4 us per 1000 elements; not eligible for m * n > 1000
     4 (dropped)    no label: not in this build */
#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tilec_param_info {
  const char* name;
  const char* dtype;
  int kind;
  int elem_bytes;
  int rank;
  const char* const* dims;
  int may_write;
} tilec_param_info;
typedef struct tilec_constant_info { const char* name; const char* value; } tilec_constant_info;
typedef struct tilec_tensor_map_info { int param; int rank; uint32_t box[5]; } tilec_tensor_map_info;
typedef struct tilec_path_info {
  const char* name; const char* arch; int num_warps; int num_stages; int threads_per_cta;
  int dynamic_shared_bytes; int cluster_dims[3]; int num_variants; const char* const* variant_entries;
  int num_tensor_maps; const tilec_tensor_map_info* tensor_maps; int persistent; int num_divisors;
  const char* const* divisors; const char* const* divisor_dtypes;
} tilec_path_info;
typedef struct tilec_config_info {
  const char* label; const char* grid[3]; int num_paths; const tilec_path_info* paths;
} tilec_config_info;
typedef struct tilec_kernel_metadata {
  int abi_version; const char* name; const char* source; const char* tilec_version; const char* cuda_version;
  int num_params; const tilec_param_info* params; int num_dim_symbols; const char* const* dim_symbols;
  int num_constants; const tilec_constant_info* constants; const char* grid[3]; int num_paths;
  const tilec_path_info* paths; int num_archs; const char* const* archs; const char* ptx_arch;
  const void* image; size_t image_bytes;
  int num_configs; const tilec_config_info* configs; const char* config_space; int num_tuning_sections;
} tilec_kernel_metadata;

void fake_cuda_advance_us(double us);

static const char* const scale_dims[2] = {"m", "n"};
static const tilec_param_info scale_params[3] = {
    {"x", "f32", 0, 4, 2, scale_dims, 0}, {"y", "f32", 0, 4, 2, scale_dims, 1}, {"alpha", "f32", 1, 4, 0, NULL, 0}};
static const char* const scale_symbols[2] = {"m", "n"};
static const tilec_config_info scale_configs[5] = {
    {"B=256", {NULL, NULL, NULL}, 0, NULL}, {"B=512", {NULL, NULL, NULL}, 0, NULL},
    {"B=64", {NULL, NULL, NULL}, 0, NULL},  {"B=1024", {NULL, NULL, NULL}, 0, NULL},
    {NULL, {NULL, NULL, NULL}, 0, NULL}};

extern const tilec_kernel_metadata scale_metadata;
const tilec_kernel_metadata scale_metadata = {
    6, "scale", "scale.tile", "0.1.0", "13.0", 3, scale_params, 2, scale_symbols, 0, NULL,
    {"1", "1", "1"}, 0, NULL, 0, NULL, NULL, NULL, 0,
    5, scale_configs, "00c0ffee00c0ffee", 0};

CUresult scale_launch_config(int config, CUstream stream, CUdeviceptr x, CUdeviceptr y, int64_t m, int64_t n,
                             float alpha) {
  static const double us_per_1000[4] = {10, 5, 1, 4};
  const float* in = (const float*)(uintptr_t)x;
  float* out = (float*)(uintptr_t)y;
  (void)stream;
  if (config < 0 || config > 3 || m < 0 || n < 0 || (config == 3 && m * n > 1000)) return CUDA_ERROR_INVALID_VALUE;
  for (int64_t i = 0; i < m * n; ++i) out[i] = alpha * in[i] + (config == 2 ? 1.0f : 0.0f);
  fake_cuda_advance_us(us_per_1000[config] * (double)(m * n) / 1000.0);
  return CUDA_SUCCESS;
}
