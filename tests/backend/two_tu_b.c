/* Second translation unit: the whole header again. */
#include "vector_add.h"

CUresult launch_from_b(CUstream stream, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t n);

CUresult launch_from_b(CUstream stream, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t n) {
  const int64_t shape[1] = {n}, strides[1] = {1};
  return vector_add_strided(stream, a, shape, strides, b, shape, strides, c, shape, strides);
}
