// The tma_wgmma path's lowering step `tma-stages` (tma_stages.h): where the TMA stages and their
// mbarriers go, and how many fit.
#include "codegen/paths/tma_wgmma/tma_stages.h"

#include <algorithm>

#include <fmt/format.h>

namespace tilec::codegen::tma_wgmma {
namespace {

constexpr int64_t kAlign = 1024;    // the 128-byte swizzle repeats every 8 lines of 128 bytes
constexpr int kMaxStages = 8;
constexpr int64_t kBarrierBytes = 16;  // per stage: the full and the empty mbarrier

}  // namespace

void finish_tma_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit) {
  k.pipeline_offset = (k.conversion_smem_vectorized + kAlign - 1) / kAlign * kAlign;
  // The stages start at the next 1024-byte boundary of the shared address, found at run time
  // (TmaRing::setup): up to 1024 bytes more.
  int64_t room = smem_limit - k.pipeline_offset - kAlign;
  for (Pipeline& p : k.pipelines) {
    int64_t per_stage = p.stage_bytes + kBarrierBytes;
    int64_t resident = p.resident_bytes() + Plan::mbarrier_bytes(p, 0);
    int fit = int(std::min<int64_t>((room - resident) / per_stage, kMaxStages));
    int s = num_stages ? std::min(num_stages, fit) : fit;
    if (s < 2) {
      k.pipelines.clear();
      k.async_values.clear();
      return;
    }
    if (num_stages && s < num_stages)
      k.warnings.push_back({Warning::NumStages, p.loop->loc,
                            fmt::format("num_stages={}: only {} TMA stages of {} bytes fit in the {} bytes of shared "
                                        "memory per CTA on {} left beside {} bytes for layout conversions; this "
                                        "loop runs {} on the tma_wgmma path",
                                        num_stages, s, p.stage_bytes, room, k.target.arch, k.pipeline_offset, s)});
    p.stages = s;
    plan_of(k).barriers[p.loop] = s * p.stage_bytes + p.resident_bytes();
  }
}

}  // namespace tilec::codegen::tma_wgmma
