// The lowering step `warps`: how many warps hold a kernel's tile values.
#pragma once

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// Decides the warps per CTA of `k` (the consumers, on a warp-specialized kernel): `num_warps`
/// when it is not 0 (the kernel's option, or what an arch-specific path's own step chose for its
/// warpgroups), else enough that each thread holds about 16 elements of the largest tile value
/// (32 from 4096 elements up), a power of two between 1 and 16. Reads the tile types of
/// `k.fn`'s op results; records k.num_warps.
void choose_warps(LoweredKernel& k, int num_warps);

}  // namespace tilec::codegen
