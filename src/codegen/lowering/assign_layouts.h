// The lowering step `layouts` (assign_layouts.cpp, then plan_staged_stores of staging.h): the
// register layout of every tile value.
#pragma once

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// Decides a layout for every tile value of `k.fn`, forward in program order (the rules are at
/// the top of assign_layouts.cpp), and inserts a convert_layout op where two uses disagree.
/// Reads k.vec, k.num_warps, the pipelines' async loads (which mma reads from shared memory)
/// and, on an arch-specific path, its plan (the accumulator and register-A layouts of its own
/// mmas, PathPlan). Records k.layouts and the conversion buffer both variants need for
/// conversions and staged mma operands (k.conversion_smem, conversion_smem_vectorized,
/// conversion_smem_loc); changes `k.fn` (conversions inserted, dead ops removed).
void assign_layouts(LoweredKernel& k);

}  // namespace tilec::codegen
