// Building tile IR from a checked kernel.
#pragma once

#include <memory>

#include "frontend/check.h"
#include "basic/diagnostics.h"
#include "ir/ir.h"

namespace tilec::ir {

/// Builds the tile IR of kernel `k` from its checked AST: helper calls inlined, constants
/// materialized in the dtype their use needs, broadcasts explicit, loop-carried values as
/// `for` iteration arguments and `if` results. Constructs the code generator does not support
/// yet are reported as "not yet supported" errors at their source range; the result is then
/// incomplete and must not be used.
/// With `device_asserts` false, `assert` statements are dropped (--no-device-asserts).
std::unique_ptr<Function> build_kernel(const KernelInfo& k, DiagnosticEngine& diag, bool device_asserts = true);

}  // namespace tilec::ir
