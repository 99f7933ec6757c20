/* Configuration D = 128, BN = 64 of attention.tile (att128.h), with the same names. */
#include "att128.h"
const tilec_kernel_metadata* meta_128(void) { return &attention_metadata; }
CUresult grid_128(uint32_t grid[3]) { return attention_grid(2, 8, 1000, 8, 0.1f, grid); }
