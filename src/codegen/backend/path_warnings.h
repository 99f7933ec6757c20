// The warnings about the code paths a kernel does not take: -Wwgmma (an mma in a loop that runs
// on mma.sync on a target with wgmma) and -Wby-target (a by_target value that no path of the
// build takes as written).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "basic/diagnostics.h"
#include "codegen/lowering/lower.h"
#include "codegen/target/target.h"
#include "ir/ir.h"

namespace tilec::codegen {

/// -Wwgmma for kernel `f`, which gets no tma_wgmma path on `t` (`why`): at its first mma in a
/// loop (an mma outside loops gains nothing from a pipeline), unless num_stages=1 asked for no
/// pipeline or its operands are f64 (no wgmma form: PTX ISA §9.7.15.5).
void warn_no_wgmma(const ir::Function& f, const Target& t, const std::string& why, DiagnosticEngine& diag);

/// -Wwgmma for each mma in a loop of `low` (kernel `name`'s tma_wgmma path on `t`) that stays on
/// mma.sync beside the ones that run wgmma.
void warn_sync_mmas(const LoweredKernel& low, const std::string& name, const Target& t, DiagnosticEngine& diag);

/// -Wby-target: an entry of by_target(...) for an arch the build has whose value no code takes,
/// or takes in a way the user may not expect. The portable path is planned once for every
/// target with the values of `plan_target`, the oldest; the tma_wgmma path takes its own
/// target's num_stages, max_registers and min_ctas_per_sm (the last two make its producer
/// inline, §7.9) but not num_warps (its warps are its warpgroups), and num_stages=1 keeps a
/// kernel off it. `specific[t][i]` >= 0: kernel i has the tma_wgmma path on target t.
void warn_unused_target_values(const std::vector<std::unique_ptr<ir::Function>>& kernels,
                               const std::vector<Target>& targets, const Target& plan_target,
                               const std::vector<std::vector<int>>& specific, DiagnosticEngine& diag);

}  // namespace tilec::codegen
