// The tma_wgmma path's lowering step `tma-wgmma-plan` (tma_wgmma_plan.cpp), first of the path's
// steps: whether the kernel's mma loops fit TMA and wgmma, and in how many warpgroups a tile
// runs, which the shared steps after it lower with.
#pragma once

#include <string>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// The step `tma-wgmma-plan`, before every shared step. Plans the pipelines (with `num_stages`,
/// 0: the steps choose) on a probe lowering of a copy of `k.fn` and checks they fit wgmma and
/// TMA (wgmma_fit.h); the warpgroups of a tile are then one per 64 accumulator rows, or as
/// consumers= and pingpong=True ask when the accumulators can be held so (rows split evenly in
/// multiples of 64, a from TMA with K along its lines beyond 64 rows a warpgroup, registers
/// within what setmaxnreg gives the consumers). Reads `k.fn`, the target and the options.
/// Records Plan::warpgroups, Plan::pingpong_layout, `num_warps` (4 per warpgroup of a tile,
/// what the shared steps lower with) and -Wconsumers or -Wpingpong when the options cannot be
/// honoured. False, with `why_not`, when the kernel does not fit the path.
bool plan_tma_wgmma(LoweredKernel& k, int num_stages, int& num_warps, std::string& why_not);

}  // namespace tilec::codegen::tma_wgmma
