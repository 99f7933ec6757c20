// The lowering step `pipelines` (pipelines.cpp), before layouts: which loads of a loop go
// through shared memory ahead of the mma that reads them. The step `stages` (stages.h) places
// them after layouts.
#pragma once

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// The step `pipelines`. Decides the loops of `k.fn` whose loads go through a pipeline of
/// shared memory (none when `num_stages` is 1) and which loads: a loop qualifies when its step
/// is a positive constant, it has no break, continue or return, and an mma in its body reads a
/// load whose indices are the induction variable or values defined before the loop, with zero
/// padding and a power-of-two line of 16 to 1024 bytes (pipeline_loads.h; on an arch-specific
/// path, also what its plan adds, PathPlan::plan_loop). Reads `k.fn` and `k.path`'s copy engine
/// rules. Records k.pipelines (loads and one stage's bytes), k.async_values and
/// k.unaligned_loads.
void plan_pipelines(LoweredKernel& k, int num_stages);

}  // namespace tilec::codegen
