// The lowering step `stages` (stages.cpp), after layouts, on the portable path: where the
// cp.async stages of the loops `pipelines` found (pipelines.h) go, and how many there are (the
// conversion buffer the stages follow is sized by then).
#pragma once

#include <cstdint>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// The step `stages`, after layouts, on the portable path. Decides where the cp.async stages
/// start (after the vectorized variant's conversion buffer, 1024-byte aligned), each loop's
/// late-sync mma (Pipeline::sync_mma) and the number of stages: `num_stages` (2-8) when given,
/// else as many as fit (2 to 4) in half of `smem_limit` (bytes per CTA), so that two CTAs can
/// share an SM, or in all of it when the accumulator alone takes more than 64 registers per
/// thread (then registers allow one CTA per SM anyway); when two stages do not fit, nothing is
/// pipelined. Reads k.pipelines, k.conversion_smem_vectorized and k.num_warps. Records
/// k.pipeline_offset and each Pipeline's stages and sync_mma (or clears k.pipelines), and a
/// -Wnum-stages warning in k.warnings for a `num_stages` that does not fit.
void finish_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit);

}  // namespace tilec::codegen
