/* Third translation unit: declarations only, so the image is not compiled a third time. */
#define VECTOR_ADD_TILEC_DECLARATIONS_ONLY
#include "vector_add.h"

CUresult launch_from_c(CUstream stream, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t n);

CUresult launch_from_c(CUstream stream, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, int64_t n) {
  return vector_add(stream, a, b, c, n);
}
