// The tma_wgmma path's lowering steps `tma-wgmma-plan`, `tma-wgmma-check`, `tma-stages` and
// `specialize` (tma_pipeline.cpp; their wrappers with the step table's signature are in
// steps.cpp): which pipelined mmas run on wgmma with their operands by TMA, in how many
// warpgroups and stages, and whether a producer warpgroup issues the copies.
#pragma once

#include <cstdint>
#include <string>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// The steps `tma-wgmma-plan` (on a probe lowering of a copy, to find the warpgroups) and
/// `tma-wgmma-check` (after layouts, that the loads were planned alike). Decides whether the
/// pipelines of `k` (planned, layouts not yet assigned) fit wgmma and TMA (every
/// mma fed by a pipelined loop must read both operands by TMA: f16 or bf16 with f32
/// accumulators, or f16 with f16 accumulators, f8 or tf32 with f32, i8 with i32, PTX ISA
/// §9.7.15.5; M a multiple of 64 up to 256, N a multiple of 8 up to 256, K a multiple of the
/// instruction's k; lines of a multiple of 128 bytes and at most 256 of them); `warpgroups` is
/// then the number the accumulators need. Reads k.pipelines; the step `tma-wgmma-plan` records
/// Plan::warpgroups, Plan::pingpong_layout and the warps the shared steps lower with (and
/// -Wconsumers or -Wpingpong when the options cannot be honoured).
bool wgmma_plan_ok(const LoweredKernel& k, int& warpgroups, std::string& why);

/// After wgmma_plan_ok: whether each accumulator tile of `k`'s pipelined loop can be
/// held by `tile_warpgroups` warpgroups (rows split evenly, a multiple of 64 each) in a CTA of
/// `consumers` consumer warpgroups beside a producer. A warpgroup holding more than 64 rows
/// issues one m64 wgmma per 64 of them at each k step, reading rows 8-line group by 8-line
/// group apart (wgmma.cpp), so A must come by TMA with K along its lines; the accumulators
/// must fit the registers setmaxnreg gives the consumers. Else false with `why`.
bool consumers_fit(const LoweredKernel& k, int tile_warpgroups, int consumers, std::string& why);

/// The step `specialize`, after `tma-stages`. Decides the Specialized schedule (a producer
/// warpgroup issues the TMA copies; a persistent grid, clusters and ping-pong consumers where
/// they fit) when the kernel has
/// one pipelined loop at the top level of its body, nothing before it that can return, loop
/// bounds and fixed TMA indices computed by scalar arithmetic the producer can repeat, and
/// consumer accumulators that fit the registers setmaxnreg gives them; else Inline, with the
/// reason in Specialization::why_inline. Reads k.pipelines, the options and the plan's
/// warpgroups. Records Plan::spec (and -Wpingpong when pingpong=True cannot be honoured).
void plan_specialization(LoweredKernel& k);

/// The step `tma-stages`, after layouts. Decides where the TMA stages go (1024-byte aligned,
/// after the conversion buffer) and how many: `num_stages` when given, else as many as fit (up
/// to 8) in `smem_limit` (bytes per CTA: the tma_wgmma CTA has the SM to itself); when two do
/// not fit, nothing is pipelined. Reads k.pipelines and k.conversion_smem_vectorized. Records
/// k.pipeline_offset, each Pipeline's stages, the plan's mbarrier offsets (Plan::barriers),
/// and -Wnum-stages when fewer than `num_stages` fit.
void finish_tma_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit);

}  // namespace tilec::codegen::tma_wgmma
