// The TmaWgmma path's plan (lower.h): which pipelined mmas run on wgmma, the warpgroups, and the
// TMA stages with their mbarriers. The loads themselves are found by plan_pipelines
// (pipeline.cpp), as for cp.async; this file checks them against what TMA and wgmma take and
// places the stages. The PTX is written by ptx/tma.cpp and ptx/wgmma.cpp.
#include <algorithm>

#include <fmt/format.h>

#include "codegen/lower.h"

namespace tilec::codegen {
namespace {

constexpr int64_t kAlign = 1024;    // the 128-byte swizzle repeats every 8 lines of 128 bytes
constexpr int kMaxStages = 8;
constexpr int64_t kBarrierBytes = 16;  // per stage: the full and the empty mbarrier

bool is_16bit_float(DType d) { return d == DType::F16 || d == DType::BF16; }

}  // namespace

bool wgmma_plan_ok(const LoweredKernel& k, int& warpgroups, std::string& why) {
  warpgroups = 0;
  if (k.pipelines.empty()) {
    why = "no loop has a pipeline for its mma operands (language.md §7.9: a for loop with a positive constant "
          "step, no break, continue or return, num_stages other than 1, and an mma at the top of its body whose "
          "operands are loads with zero padding, indexed by the loop variable or values from before the loop, used "
          "by nothing else)";
    return false;
  }
  bool ok = true;
  auto fail = [&](const std::string& text) {
    if (ok) why = text;
    ok = false;
  };
  for (const Pipeline& p : k.pipelines)
    for (const AsyncLoad& al : p.loads) {
      const ir::Op& mma = *al.mma;
      if (!k.async_load(mma.operands[0]) || !k.async_load(mma.operands[1])) {
        fail("an mma of the loop reads an operand that is not a pipelined load (computed in registers, or a load "
             "with nonzero padding, an index computed in the loop or another use)");
        continue;
      }
      if (mma.parent != p.loop->regions[0].get()) fail("an mma of the loop runs conditionally");
      DType t = mma.operands[0]->type.tile.dtype, acc = mma.operands[2]->type.tile.dtype;
      if (!is_16bit_float(t) || mma.operands[1]->type.tile.dtype != t || acc != DType::F32)
        fail(fmt::format("the tma_wgmma path takes f16 or bf16 operands with f32 accumulators, not {} with {}",
                         dtype_name(t), dtype_name(acc)));
      const std::vector<int64_t>& c = mma.operands[2]->type.tile.shape;
      int64_t K = mma.operands[0]->type.tile.shape[1];
      if (c[0] % 64 || c[0] > 256 || c[1] % 8 || c[1] > 256 || K % 16)
        fail(fmt::format("the accumulator is {}x{} with k {}: wgmma needs rows in multiples of 64 (at most 256), "
                         "columns in multiples of 8 (at most 256) and k in multiples of 16",
                         c[0], c[1], K));
      if (al.pitch() % 128 || al.lines % 8 || al.lines > 256 || al.load->operands[0]->type.array->dims.size() > 5)
        fail(fmt::format("a {}x{} tile: TMA boxes of the 128-byte swizzle need lines of a multiple of 128 bytes "
                         "and a multiple of 8 lines, at most 256",
                         al.lines, al.line_elems));
      int wg = int(c[0] / 64);
      // Registers: N/2 accumulators per thread plus about 40 for addresses, descriptors and the
      // epilogue, within 64 Ki per SM shared by 128 threads per warpgroup (255 at most).
      int64_t budget = std::min<int64_t>(255, 65536 / (128 * std::max(wg, 1)));
      if (c[1] / 2 + 40 > budget)
        fail(fmt::format("a {}x{} f32 accumulator needs {} registers per thread in {} warpgroups ({} threads); "
                         "at most {} fit: use fewer rows or columns per tile",
                         c[0], c[1], c[1] / 2 + 40, wg, 128 * wg, budget));
      if (warpgroups && wg != warpgroups) fail("the wgmma accumulators need different numbers of warpgroups");
      warpgroups = std::max(warpgroups, wg);
    }
  if (ok && warpgroups == 0) fail("no loop feeds an mma from tile loads");
  return ok;
}

void finish_tma_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit) {
  k.pipeline_offset = (k.conversion_smem_vectorized + kAlign - 1) / kAlign * kAlign;
  // The stages start at the next 1024-byte boundary of the shared address, found at run time
  // (ptx/tma.cpp): up to 1024 bytes more.
  int64_t room = smem_limit - k.pipeline_offset - kAlign;
  for (Pipeline& p : k.pipelines) {
    int64_t per_stage = p.stage_bytes + kBarrierBytes;
    int fit = int(std::min<int64_t>(room / per_stage, kMaxStages));
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
    p.barriers = s * p.stage_bytes;
  }
}

bool LoweredKernel::is_wgmma(const ir::Op& mma) const {
  return path == CodePath::TmaWgmma && async_load(mma.operands[0]) && async_load(mma.operands[1]);
}

std::vector<const AsyncLoad*> LoweredKernel::tensor_maps() const {
  std::vector<const AsyncLoad*> out;
  if (path != CodePath::TmaWgmma) return out;
  for (const Pipeline& p : pipelines)
    for (const AsyncLoad& al : p.loads) out.push_back(&al);
  return out;
}

Layout LoweredKernel::accumulator_layout(const ir::Op& mma) const {
  const ir::Value* acc = mma.operands[2];
  if (is_wgmma(mma)) return wgmma_layout(acc->type.tile.shape, num_warps);
  return mma_layout(acc->type.tile.shape, acc->type.tile.dtype == DType::F64 ? 8 : 16, num_warps);
}

}  // namespace tilec::codegen
