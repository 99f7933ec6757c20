// The registers per thread of the tma_wgmma path's pipelined loops (wgmma_registers.cpp): what
// the wgmma ops of a loop need, and what setmaxnreg gives the consumer warpgroups. The steps
// `tma-wgmma-plan` (wgmma_fit.h, tma_wgmma_plan.h) and `specialize` (specialize.h) weigh both.
#pragma once

#include <cstdint>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// Registers per thread the wgmma ops of pipelined loop `p` need: each accumulator of N columns
/// N / 2 for f32 and N / 4 for f16 (packed pairs; PTX ISA §9.7.15.5.1, m64nN: N/2 .f32 or N/4
/// .f16x2 registers of D per thread), each A operand of K 16-bit columns in registers K / 4
/// (RS form), plus about 40 for addresses, descriptors and the epilogue.
/// `warpgroups` hold each accumulator (0: one per 64 rows), so each holds rows / 64 / warpgroups
/// m64 fragments.
int64_t loop_registers(const LoweredKernel& k, const Pipeline& p, int warpgroups = 0);

/// setmaxnreg counts for a CTA of `consumers` consumer warpgroups and a producer one: ptxas gives
/// each thread 64 Ki / threads at entry (multiples of 8, .minnctapersm 1); the producer keeps 40
/// (its one thread counts and issues copies), the consumers share the rest, at most 240 (fast.cu
/// and CUTLASS use 40 / 232-240 for two consumer warpgroups). setmaxnreg.inc takes registers only
/// from the CTA's own pool (what its threads got at entry, less what the producer gave back):
/// asking for more waits forever (a 640-thread CTA hung on the H200 with 96 at entry, 112 asked).
/// Sets `entry` and `consumer`, registers per thread.
void consumer_register_counts(int consumers, int& entry, int& consumer);

}  // namespace tilec::codegen::tma_wgmma
