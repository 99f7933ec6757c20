// The tma_wgmma path's lowering step `tma-stages` (tma_stages.cpp), after layouts: where the TMA
// stages and their mbarriers go, and how many there are.
#pragma once

#include <cstdint>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// The step `tma-stages`, after layouts. Decides where the TMA stages go (1024-byte aligned,
/// after the conversion buffer) and how many: `num_stages` when given, else as many as fit (up
/// to 8) in `smem_limit` (bytes per CTA: the tma_wgmma CTA has the SM to itself); when two do
/// not fit, nothing is pipelined. Reads k.pipelines and k.conversion_smem_vectorized. Records
/// k.pipeline_offset, each Pipeline's stages, the plan's mbarrier offsets (Plan::barriers),
/// and -Wnum-stages when fewer than `num_stages` fit.
void finish_tma_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit);

}  // namespace tilec::codegen::tma_wgmma
