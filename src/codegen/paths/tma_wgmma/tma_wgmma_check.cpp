// The tma_wgmma path's lowering step `tma-wgmma-check` (tma_wgmma_check.h): the loads planned
// for the warps that `tma-wgmma-plan` chose still fit TMA and wgmma after layouts.
#include "codegen/paths/tma_wgmma/tma_wgmma_check.h"

#include "codegen/paths/tma_wgmma/wgmma_fit.h"

namespace tilec::codegen::tma_wgmma {

bool check_wgmma_plan(const LoweredKernel& k, int num_warps, std::string& why) {
  int again = 0;
  if (!wgmma_plan_ok(k, again, why) || again != plan_of(k).warpgroups) {
    if (why.empty()) why = "the loads were planned differently with " + std::to_string(num_warps) + " warps";
    return false;
  }
  return true;
}

}  // namespace tilec::codegen::tma_wgmma
