// The lowering step `stages` (stages.h): where the cp.async stages of the portable path go, how
// many fit, and the mma that holds each loop's late sync.
#include "codegen/lowering/stages.h"

#include <algorithm>

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

// The last mma of a pipelined loop's body when it is the body's last reader of the stage and
// sits at the top level of the body; null otherwise (Pipeline::sync_mma).
const ir::Op* late_sync_mma(const ir::Op& loop, const LoweredKernel& k) {
  auto reads_stage = [&](const ir::Op& op) {
    for (const ir::Value* v : op.operands)
      if (k.async_load(v)) return true;
    return false;
  };
  const ir::Op* last = nullptr;
  bool nested = false;
  for (const auto& op : loop.regions[0]->ops) {
    if (reads_stage(*op)) last = op.get();
    for (const auto& r : op->regions)
      ir::walk(*r, [&](ir::Op& inner) { nested = nested || reads_stage(inner); });
  }
  return !nested && last && last->kind == ir::OpKind::Mma ? last : nullptr;
}

}  // namespace

void finish_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit) {
  // Stages: as asked, else as many as fit (2 to 4) beside the conversion buffer in half the
  // limit. If some loop's two stages do not fit, nothing is pipelined (the vectorized variant
  // then stages every mma operand, like the general one).
  k.pipeline_offset = stage_aligned(k.conversion_smem_vectorized);
  int64_t room = smem_limit - k.pipeline_offset;
  for (Pipeline& p : k.pipelines) {
    // Accumulators of more than 64 registers per thread leave room for one CTA per SM (of
    // 65536 registers): its stages may take all of the shared memory.
    int64_t acc_regs = 0;
    for (const AsyncLoad& al : p.loads) {
      const ir::Value* acc = al.mma->operands[2];
      acc_regs = std::max<int64_t>(acc_regs, acc->type.tile.numel() * std::max(4, dtype_bytes(acc->type.tile.dtype)) / 4 / k.threads());
    }
    int64_t budget = acc_regs > 64 ? smem_limit : smem_limit / 2;
    int s = num_stages;
    if (s == 0) s = int(std::clamp<int64_t>((budget - k.pipeline_offset) / p.stage_bytes, 2, 4));
    while (s > 2 && s * p.stage_bytes > room) --s;
    if (s * p.stage_bytes > room) {
      if (num_stages)
        k.warnings.push_back({Warning::NumStages, p.loop->loc,
                              fmt::format("num_stages={}: two stages of {} bytes do not fit in the {} bytes of shared "
                                          "memory per CTA left beside {} bytes for layout conversions; this loop's "
                                          "loads are not pipelined",
                                          num_stages, p.stage_bytes, room, k.pipeline_offset)});
      k.pipelines.clear();
      k.async_values.clear();
      k.conversion_smem_vectorized = k.conversion_smem;
      k.pipeline_offset = 0;
      return;
    }
    if (num_stages && s < num_stages)
      k.warnings.push_back({Warning::NumStages, p.loop->loc,
                            fmt::format("num_stages={}: only {} stages of {} bytes fit in the {} bytes of shared "
                                        "memory per CTA left beside {} bytes for layout conversions; this loop runs {}",
                                        num_stages, s, p.stage_bytes, room, k.pipeline_offset, s)});
    p.stages = s;
    p.sync_mma = late_sync_mma(*p.loop, k);
  }
}

}  // namespace tilec::codegen
