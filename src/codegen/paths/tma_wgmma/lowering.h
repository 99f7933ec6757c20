// The tma_wgmma path's lowering: its own steps (steps.cpp: tma-wgmma-plan, tma-wgmma-check,
// tma-stages, specialize, tma-stores) and the planning they run (tma_pipeline.cpp,
// tma_store.cpp), and the layout of wgmma's fragments.
#pragma once

#include <string>
#include <vector>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// The accumulator layout of wgmma m64nNk16 (PTX ISA §9.7.15.5.1, "Register fragments"): warp w
/// of the CTA holds rows 16w .. 16w+15 (warp w % 4 of warpgroup w / 4, which owns rows
/// 64 (w / 4) ..), and for each 8-column chunk j, lane l holds row l/4 (and l/4 + 8), columns
/// 8j + 2(l%4) + {0, 1}, in registers 4j .. 4j+3: the mma.sync m16n8 fragment repeated N/8
/// times, so it is an Mma layout with every warp along the rows. `shape[0]` must be
/// 16 * num_warps.
Layout wgmma_layout(const std::vector<int64_t>& shape, int num_warps);

/// The k of one wgmma instruction for operands of dtype `t` (PTX ISA §9.7.15.5.1): 32 bytes
/// of each row, so 16 for f16 and bf16, 32 for f8e4m3 and f8e5m2, 8 for tf32.
int64_t wgmma_k(DType t);

/// TMA boxes of the 128-byte swizzle fit `al`: whole 128-byte spans of each line, 8 to 256
/// lines in multiples of 8 (one swizzle pattern), arrays of at most 5 dimensions (PTX ISA
/// §9.7.9.25.5.1, cp.async.bulk.tensor; tma_pipeline.cpp).
bool tma_box_ok(const AsyncLoad& al);

/// The mmas of `k` that stay on mma.sync (not at the top of a pipelined loop's body
/// with that pipeline's loads as operands), in program order, and why one does, for messages:
/// "it runs under the if at line 13" (lowered_text.cpp; --emit=tir-lowered and -Wwgmma).
std::vector<const ir::Op*> sync_mmas(const LoweredKernel& k);
std::string why_mma_sync(const LoweredKernel& k, const ir::Op& mma);

/// Whether the pipelines of `k` (planned, layouts not yet assigned) fit wgmma and TMA (every
/// mma fed by a pipelined loop must read both operands by TMA: f16 or bf16 with f32
/// accumulators, or f16 with f16 accumulators, f8 or tf32 with f32, i8 with i32, PTX ISA
/// §9.7.15.5; M a multiple of 64 up to 256, N a multiple of 8 up to 256, K a multiple of the
/// instruction's k; lines of a multiple of 128 bytes and at most 256 of them); `warpgroups` is
/// then the number the accumulators need.
bool wgmma_plan_ok(const LoweredKernel& k, int& warpgroups, std::string& why);

/// After wgmma_plan_ok: whether each accumulator tile of `k`'s pipelined loop can be
/// held by `tile_warpgroups` warpgroups (rows split evenly, a multiple of 64 each) in a CTA of
/// `consumers` consumer warpgroups beside a producer. A warpgroup holding more than 64 rows
/// issues one m64 wgmma per 64 of them at each k step, reading rows 8-line group by 8-line
/// group apart (wgmma.cpp), so A must come by TMA with K along its lines; the accumulators
/// must fit the registers setmaxnreg gives the consumers. Else false with `why`.
bool consumers_fit(const LoweredKernel& k, int tile_warpgroups, int consumers, std::string& why);

/// After the stages are placed, chooses the Specialized schedule when the kernel has
/// one pipelined loop at the top level of its body, nothing before it that can return, loop
/// bounds and fixed TMA indices computed by scalar arithmetic the producer can repeat, and
/// consumer accumulators that fit the registers setmaxnreg gives them; else Inline, with the
/// reason in Specialization::why_inline (tma_pipeline.cpp).
void plan_specialization(LoweredKernel& k);

/// After layouts, places the stages (1024-byte aligned) and their mbarriers after the
/// conversion buffer and picks their number (tma_pipeline.cpp).
void finish_tma_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit);

/// After the specialization, the tile stores that can go through TMA (TmaStore): at the
/// top level of the body after every pipelined loop, at tile indices in the array's own order,
/// an f16, bf16 or f32 tile whose lines are whole 128-byte spans and a multiple of 8 lines (at
/// most 256) of an array of at most 5 dimensions that nothing later accesses, in a layout without
/// copies whose swizzled addresses split into a per-thread and a per-register part; their
/// staging buffers, one after the other, must fit in the stages. On a persistent grid (whose
/// producer refills the stages meanwhile) they get shared memory of their own after the
/// mbarriers, within `smem_limit` (bytes per CTA), and the ring gives up stages for them, down to
/// two. Others stay st.global stores.
void plan_tma_stores(LoweredKernel& k, int64_t smem_limit);

}  // namespace tilec::codegen::tma_wgmma
