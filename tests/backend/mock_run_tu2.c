/* A second translation unit that sees only the declarations: the image and definitions come
   from the others (mock_run_test.c). */
#define MOCK_SCALE_ROWS_TILEC_DECLARATIONS_ONLY
#include "mock_kernels.h"

const tilec_kernel_metadata* tu2_metadata(void);
CUresult tu2_fill(CUdeviceptr out, int64_t value);

const tilec_kernel_metadata* tu2_metadata(void) { return &mock_fill_one_metadata; }
CUresult tu2_fill(CUdeviceptr out, int64_t value) { return mock_fill_one(NULL, out, value); }
