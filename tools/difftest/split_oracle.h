// The split-K oracle of tilec-difftest: a kernel that split_k= can split (ir/split_k.h), run as
// its two kernels -- the partials kernel into a workspace, then the reduce kernel -- must give
// the unsplit kernel's results up to the rounding of its partial sums.
#pragma once

#include <string>
#include <vector>

#include "ir/interp/interp.h"
#include "ir/ir.h"

namespace tilec::difftest {

/// Runs `f` (the IR as built) split into `slices` in the interpreter over a copy of `inputs` and
/// returns its arguments in `out` (the workspace dropped). False when the kernel does not fit
/// split_k (nothing to check: `why` says why) or its grid needs a workspace over 2^24 elements;
/// an interpreter error is `error`.
bool run_split(const ir::Function& f, int slices, const std::vector<interp::Arg>& inputs,
               std::vector<interp::Arg>& out, std::string& why, std::string& error);

}  // namespace tilec::difftest
