// A PTX module: every kernel of the program, each in its vectorized and general variant.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/lowering/lower.h"
#include "codegen/ptx/context.h"

namespace tilec::codegen {

/// PTX text for `kernels` on `target`: the `.version` is the lowest the code needs, the
/// `.target` the arch, then two `.entry` per kernel (vectorized_entry, general_entry). With line
/// info, `.file` directives name the source files of `sm`. Returns "" after reporting errors.
std::string emit_module(const std::vector<LoweredKernel>& kernels, const EmitOptions& opts, const SourceManager& sm,
                        DiagnosticEngine& diag);

}  // namespace tilec::codegen
