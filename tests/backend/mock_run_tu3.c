/* A third translation unit with its own copy of every definition: the linker keeps one. */
#include "mock_kernels.h"

const tilec_kernel_metadata* tu3_metadata(void);

const tilec_kernel_metadata* tu3_metadata(void) { return &mock_fill_one_metadata; }
