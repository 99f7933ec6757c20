/* First of three translation units that include the same header and call it: they must link
   into one program (weak definitions, no duplicate symbols). */
#include "vector_add.h"

CUresult launch_from_b(CUstream stream, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t n);
CUresult launch_from_c(CUstream stream, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t n);

int main(void) {
  uint32_t grid[3];
  CUresult r = vector_add_grid(4096, grid);
  if (r == CUDA_SUCCESS) r = vector_add_load();
  if (r == CUDA_SUCCESS) r = vector_add(NULL, 0, 0, 0, 0);
  if (r == CUDA_SUCCESS) r = launch_from_b(NULL, 0, 0, 0, 0);
  if (r == CUDA_SUCCESS) r = launch_from_c(NULL, 0, 0, 0, 0);
  if (r == CUDA_SUCCESS) r = vector_add_unload();
  return r == CUDA_SUCCESS && vector_add_metadata.num_params == 3 ? 0 : 1;
}
