// The tma_wgmma path's lowering step `specialize` (specialize.cpp), after `tma-stages`: whether a
// producer warpgroup issues the TMA copies, and with it a persistent grid, clusters and
// ping-pong consumers.
#pragma once

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// The step `specialize`, after `tma-stages`. Decides the Specialized schedule (a producer
/// warpgroup issues the TMA copies; a persistent grid, clusters and ping-pong consumers where
/// they fit) when the kernel has
/// one pipelined loop at the top level of its body, nothing before it that can return, loop
/// bounds and fixed TMA indices computed by scalar arithmetic the producer can repeat, and
/// consumer accumulators that fit the registers setmaxnreg gives them; else Inline, with the
/// reason in Specialization::why_inline. Reads k.pipelines, the options and the plan's
/// warpgroups. Records Plan::spec (and -Wpingpong when pingpong=True cannot be honoured).
void plan_specialization(LoweredKernel& k);

}  // namespace tilec::codegen::tma_wgmma
