// The tma_wgmma path's lowering step `tma-wgmma-check` (tma_wgmma_check.cpp), after layouts:
// the loads the shared steps planned still fit TMA and wgmma as `tma-wgmma-plan` found.
#pragma once

#include <string>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// The step `tma-wgmma-check`, after layouts. Checks that the pipelines of `k`, planned with
/// `num_warps` warps, fit wgmma and TMA (wgmma_fit.h) with the warpgroups that
/// `tma-wgmma-plan` recorded (Plan::warpgroups). Reads k.pipelines and the plan; records
/// nothing. False, with `why`, when they do not.
bool check_wgmma_plan(const LoweredKernel& k, int num_warps, std::string& why);

}  // namespace tilec::codegen::tma_wgmma
