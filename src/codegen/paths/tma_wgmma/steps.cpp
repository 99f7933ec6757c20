// The tma_wgmma path's own lowering steps (path.h path_steps): the wrappers with the step
// table's signature around its planning, each step declared in a header of its own
// (tma_wgmma_plan.h, tma_wgmma_check.h, tma_stages.h, specialize.h, tma_store.h). The path's
// order of steps, shared ones included, is its row of the paths table (paths.cpp).
#include <memory>

#include "codegen/paths/tma_wgmma/path.h"
#include "codegen/paths/tma_wgmma/specialize.h"
#include "codegen/paths/tma_wgmma/tma_stages.h"
#include "codegen/paths/tma_wgmma/tma_store.h"
#include "codegen/paths/tma_wgmma/tma_wgmma_check.h"
#include "codegen/paths/tma_wgmma/tma_wgmma_plan.h"

namespace tilec::codegen::tma_wgmma {
namespace {

bool tma_wgmma_plan(LoweringContext& cx) { return plan_tma_wgmma(cx.k, cx.num_stages, cx.num_warps, cx.why); }

bool tma_wgmma_check(LoweringContext& cx) { return check_wgmma_plan(cx.k, cx.num_warps, cx.why); }

bool tma_stages(LoweringContext& cx) {
  // The tma_wgmma CTA has the SM's shared memory to itself and takes as many stages as fit, or
  // num_stages= when given (issue 15: the option overrides the compiler's choice on both paths;
  // -Wnum-stages when it does not fit).
  finish_tma_pipelines(cx.k, cx.k.fn->sig.options.num_stages, cx.smem_limit);
  if (cx.k.pipelines.empty()) {
    cx.why = "two stages of the loop's tiles do not fit in shared memory";
    return false;
  }
  return true;
}

bool specialize(LoweringContext& cx) {
  plan_specialization(cx.k);
  return true;
}

bool tma_stores(LoweringContext& cx) {
  plan_tma_stores(cx.k, cx.smem_limit);
  return true;
}

}  // namespace

const std::vector<LoweringStep>& path_steps() {
  static const std::vector<LoweringStep> kSteps = {
      {"tma-wgmma-plan", "check the mma loops fit TMA and wgmma; warpgroups from the accumulators", tma_wgmma_plan},
      {"tma-wgmma-check", "the planned loads still fit TMA and wgmma after layouts", tma_wgmma_check},
      {"tma-stages", "place the TMA stages and their mbarriers; as many stages as fit", tma_stages},
      {"specialize", "a producer warpgroup issues the TMA copies, where the kernel allows it", specialize},
      {"tma-stores", "tile stores after the last pipelined loop go through the dead stages and TMA", tma_stores},
  };
  return kSteps;
}

std::unique_ptr<PathPlan> new_plan() { return std::make_unique<Plan>(); }

}  // namespace tilec::codegen::tma_wgmma
