// The lowering steps' registry: one table (name, one-line summary, function) from which each
// code path's lowering runs its steps in order, and which drives --list-passes, the
// --print-after-all trace and the -v timings of lowering, like the optimizer's table
// (ir/passes/passes.h).
#pragma once

#include <string>
#include <vector>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// What the lowering steps of one kernel share.
struct LoweringContext {
  LoweringContext(LoweredKernel& kernel, int warps, int stages, int64_t smem)
      : k(kernel), num_warps(warps), num_stages(stages), smem_limit(smem) {}

  LoweredKernel& k;            ///< fn, target and path set; the steps fill in the rest
  int num_warps;               ///< warps per CTA asked for; 0: the warps step chooses
  int num_stages;              ///< pipeline stages asked for; 0: the pipeline steps choose, 1: none
  int64_t smem_limit;          ///< bytes of shared memory per CTA the stages may use
  std::string why;             ///< why the code path does not fit, from the step that found it
};

/// One lowering step: a free function over the kernel being lowered. It returns false when the
/// kernel does not fit the code path (only an arch-specific path's own steps do), with `why` set.
struct LoweringStep {
  const char* name;
  const char* summary;
  bool (*run)(LoweringContext&);
};

/// Every lowering step: the shared ones, each path's own (path_table.h), launch-divisors last.
const std::vector<LoweringStep>& all_lowering_steps();

}  // namespace tilec::codegen
