// The tma_wgmma path's hooks in the paths table (lowering/path_table.h): what the registry, and only
// the registry, calls. The path's plan is plan.h, its lowering steps steps.cpp, its PTX the
// emitter families of emitter.h.
#pragma once

#include <memory>
#include <vector>

#include "codegen/launch/kernel_abi.h"
#include "codegen/lowering/lower.h"
#include "codegen/lowering/lowering_steps.h"
#include "codegen/ptx/path_emitter.h"

namespace tilec::codegen::tma_wgmma {

/// The AbiPath of `low`, lowered on the tma_wgmma path: one entry `<k>_wgmma`, compiled like
/// the vectorized variant; the producer warpgroup's and the consumers' threads; the tensor maps
/// of the TMA loads, then of the TMA stores; a persistent grid and clusters as planned.
AbiPath abi_path(const LoweredKernel& low);

/// The path's own lowering steps (tma-wgmma-plan, tma-wgmma-check, tma-stages, specialize,
/// tma-stores), in the order --list-passes lists them (steps.cpp).
const std::vector<LoweringStep>& path_steps();

/// A fresh plan (plan.h) for a kernel about to be lowered on the path.
std::unique_ptr<PathPlan> new_plan();

/// The path's emitter (emitter.h) for the kernel `cx` emits.
std::unique_ptr<PathEmitter> new_emitter(EmitContext& cx);

}  // namespace tilec::codegen::tma_wgmma
