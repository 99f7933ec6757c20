// The tma_wgmma path's own lowering steps (path.h path_steps): the wrappers with the step
// table's signature around its planning (tma_pipeline.cpp, tma_store.cpp). The path's order of
// steps, shared ones included, is its row of the paths table (paths.cpp).
#include <memory>

#include <fmt/format.h>

#include "codegen/lowering/mma_shape.h"
#include "codegen/lowering/pipeline.h"
#include "codegen/paths/tma_wgmma/path.h"
#include "codegen/paths/tma_wgmma/tma_pipeline.h"
#include "codegen/paths/tma_wgmma/tma_store.h"

namespace tilec::codegen::tma_wgmma {
namespace {

bool tma_wgmma_plan(LoweringContext& cx) {
  const Target& target = cx.k.target;
  if (!target.has_wgmma() || !target.has_tma()) {
    cx.why = target.arch + " has no wgmma";
    return false;
  }
  // The warpgroups come from the accumulators of the pipelined mmas (one per 64 rows), so plan
  // once on a copy to find them; the steps after it then lower with that many warps.
  std::unique_ptr<ir::Function> scratch = ir::clone(*cx.k.fn);
  LoweredKernel probe;
  probe.fn = scratch.get();
  probe.target = target;
  probe.path = cx.k.path;
  probe.plan = new_plan();
  pad_mma_operands(*scratch, target);
  plan_pipelines(probe, cx.num_stages);
  Plan& pl = plan_of(cx.k);
  if (!wgmma_plan_ok(probe, pl.warpgroups, cx.why)) return false;
  // The tile's warpgroups: one per 64 rows, or as consumers= and pingpong=True ask (issue 15:
  // the options override the compiler's choice; -Wconsumers and -Wpingpong say when they
  // cannot). Ping-pong lowers the tile for one warpgroup; plan_specialization adds the second
  // consumer.
  const ir::LaunchOptions& opt = cx.k.fn->sig.options;
  int tile_wg = pl.warpgroups;
  std::string why;
  if (opt.pingpong == 1) {
    if (opt.consumers && opt.consumers != 2)
      why = fmt::format("consumers={}: ping-pong runs two consumer warpgroups", opt.consumers);
    if (why.empty() && consumers_fit(probe, 1, 2, why)) {
      tile_wg = 1;
      pl.pingpong_layout = true;
    } else {
      cx.k.warnings.push_back({Warning::Pingpong, cx.k.fn->sig.range,
                               fmt::format("pingpong=True: the kernel runs {} cooperative consumer warpgroup(s) on "
                                           "{}: {}",
                                           pl.warpgroups, target.arch, why)});
    }
  } else if (opt.consumers && opt.consumers != pl.warpgroups) {
    if (consumers_fit(probe, opt.consumers, opt.consumers, why))
      tile_wg = opt.consumers;
    else
      cx.k.warnings.push_back({Warning::Consumers, cx.k.fn->sig.range,
                               fmt::format("consumers={}: the kernel runs {} consumer warpgroup(s) on {}: {}",
                                           opt.consumers, pl.warpgroups, target.arch, why)});
  }
  cx.num_warps = 4 * tile_wg;
  return true;
}

bool tma_wgmma_check(LoweringContext& cx) {
  int again = 0;
  if (!wgmma_plan_ok(cx.k, again, cx.why) || again != plan_of(cx.k).warpgroups) {
    if (cx.why.empty()) cx.why = "the loads were planned differently with " + std::to_string(cx.num_warps) + " warps";
    return false;
  }
  return true;
}

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
