// Whether the pipelined mmas of a kernel fit wgmma with their operands by TMA (wgmma_fit.cpp):
// what the tma_wgmma path's steps `tma-wgmma-plan` (tma_wgmma_plan.h, on a probe lowering) and
// `tma-wgmma-check` (tma_wgmma_check.h, after layouts) both ask.
#pragma once

#include <string>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// Decides whether the pipelines of `k` (planned, layouts not yet assigned) fit wgmma and TMA
/// (every mma fed by a pipelined loop must read both operands by TMA: f16 or bf16 with f32
/// accumulators, or f16 with f16 accumulators, f8 or tf32 with f32, i8 with i32, PTX ISA
/// §9.7.15.5; M a multiple of 64 up to 256, N a multiple of 8 up to 256, K a multiple of the
/// instruction's k; lines of a multiple of 128 bytes and at most 256 of them); `warpgroups` is
/// then the number the accumulators need. Reads k.pipelines (and k.unaligned_loads and the
/// function, for the reason none fits); else false with `why`.
bool wgmma_plan_ok(const LoweredKernel& k, int& warpgroups, std::string& why);

}  // namespace tilec::codegen::tma_wgmma
