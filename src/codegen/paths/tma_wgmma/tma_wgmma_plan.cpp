// The tma_wgmma path's lowering step `tma-wgmma-plan` (tma_wgmma_plan.h): whether the mma loops
// fit TMA and wgmma, planned on a probe lowering of a copy, and the warpgroups of a tile, from
// the accumulators or as consumers= and pingpong= ask.
#include "codegen/paths/tma_wgmma/tma_wgmma_plan.h"

#include <memory>
#include <set>

#include <fmt/format.h>

#include "codegen/lowering/mma_shape.h"
#include "codegen/lowering/pipelines.h"
#include "codegen/paths/tma_wgmma/path.h"
#include "codegen/paths/tma_wgmma/wgmma_fit.h"
#include "codegen/paths/tma_wgmma/wgmma_registers.h"

namespace tilec::codegen::tma_wgmma {
namespace {

// After wgmma_plan_ok: whether each accumulator tile of `k`'s pipelined loop can be
// held by `tile_warpgroups` warpgroups (rows split evenly, a multiple of 64 each) in a CTA of
// `consumers` consumer warpgroups beside a producer. A warpgroup holding more than 64 rows
// issues one m64 wgmma per 64 of them at each k step, reading rows 8-line group by 8-line
// group apart (wgmma.cpp), so A must come by TMA with K along its lines; the accumulators
// must fit the registers setmaxnreg gives the consumers. Else false with `why`.
bool consumers_fit(const LoweredKernel& k, int tile_warpgroups, int consumers, std::string& why) {
  for (const Pipeline& p : k.pipelines) {
    std::set<const ir::Op*> mmas;
    for (const AsyncLoad& al : p.loads) mmas.insert(al.mma);
    for (const ir::Op* mma : mmas) {
      int64_t rows = mma->operands[2]->type.tile.shape[0];
      if (rows % (64 * tile_warpgroups)) {
        why = fmt::format("the {}-row accumulator does not split into {} warpgroups of a multiple of 64 rows", rows,
                          tile_warpgroups);
        return false;
      }
      const AsyncLoad* la = k.async_load(mma->operands[0]);
      if (rows > 64 * tile_warpgroups && !(la && la->contiguous_dim == 1)) {
        why = fmt::format("a warpgroup would hold {} rows of the accumulator, and the a operand is not a tile load "
                          "with K along its lines (an [M, K] array): its wgmma takes 64 rows per warpgroup",
                          rows / tile_warpgroups);
        return false;
      }
    }
    int entry = 0, consumer = 0;
    consumer_register_counts(consumers, entry, consumer);
    int64_t need = loop_registers(k, p, tile_warpgroups), have = std::max(entry, consumer);
    if (need > have) {
      why = fmt::format("the loop's wgmma accumulators need about {} registers per thread when {} warpgroup(s) hold "
                        "a tile; {} consumer warpgroup(s) get {}",
                        need, tile_warpgroups, consumers, have);
      return false;
    }
  }
  return true;
}

}  // namespace

bool plan_tma_wgmma(LoweredKernel& k, int num_stages, int& num_warps, std::string& why_not) {
  const Target& target = k.target;
  if (!target.has_wgmma() || !target.has_tma()) {
    why_not = target.arch + " has no wgmma";
    return false;
  }
  // The warpgroups come from the accumulators of the pipelined mmas (one per 64 rows), so plan
  // once on a copy to find them; the steps after it then lower with that many warps.
  std::unique_ptr<ir::Function> scratch = ir::clone(*k.fn);
  LoweredKernel probe;
  probe.fn = scratch.get();
  probe.target = target;
  probe.path = k.path;
  probe.plan = new_plan();
  pad_mma_operands(*scratch, target);
  plan_pipelines(probe, num_stages);
  Plan& pl = plan_of(k);
  if (!wgmma_plan_ok(probe, pl.warpgroups, why_not)) return false;
  // The tile's warpgroups: one per 64 rows, or as consumers= and pingpong=True ask (issue 15:
  // the options override the compiler's choice; -Wconsumers and -Wpingpong say when they
  // cannot). Ping-pong lowers the tile for one warpgroup; plan_specialization adds the second
  // consumer.
  const ir::LaunchOptions& opt = k.fn->sig.options;
  int tile_wg = pl.warpgroups;
  std::string why;
  if (opt.pingpong == 1) {
    if (opt.consumers && opt.consumers != 2)
      why = fmt::format("consumers={}: ping-pong runs two consumer warpgroups", opt.consumers);
    if (why.empty() && consumers_fit(probe, 1, 2, why)) {
      tile_wg = 1;
      pl.pingpong_layout = true;
    } else {
      k.warnings.push_back({Warning::Pingpong, k.fn->sig.range,
                               fmt::format("pingpong=True: the kernel runs {} cooperative consumer warpgroup(s) on "
                                           "{}: {}",
                                           pl.warpgroups, target.arch, why)});
    }
  } else if (opt.consumers && opt.consumers != pl.warpgroups) {
    if (consumers_fit(probe, opt.consumers, opt.consumers, why))
      tile_wg = opt.consumers;
    else
      k.warnings.push_back({Warning::Consumers, k.fn->sig.range,
                               fmt::format("consumers={}: the kernel runs {} consumer warpgroup(s) on {}: {}",
                                           opt.consumers, pl.warpgroups, target.arch, why)});
  }
  num_warps = 4 * tile_wg;
  return true;
}

}  // namespace tilec::codegen::tma_wgmma
