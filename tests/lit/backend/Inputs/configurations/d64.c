/* Configuration D = 64 of attention.tile (att64.h). */
#include "att64.h"
const tilec_kernel_metadata* meta_64(void) { return &attention_metadata; }
CUresult grid_64(uint32_t grid[3]) { return attention_grid(2, 8, 1000, 8, 0.1f, grid); }
