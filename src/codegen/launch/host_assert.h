// Asserts on extents that the launch stub can check on the host.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/ir.h"

namespace tilec::codegen {

/// The asserts of `fn` at the top level of its body whose condition depends only on dimension
/// extents and integer constants (host_expr.h, host_c_expr): each with its condition as a C
/// expression over the launch stub's extents `tilec_sym[i]` (i: the dimension symbol's position
/// in fn.sig.dims). The launch stub returns CUDA_ERROR_INVALID_VALUE, before any driver call,
/// unless all of them hold (a device assert would end the CUDA context); the vectorized variant
/// leaves them out, the general variant still has them.
std::vector<std::pair<const ir::Op*, std::string>> host_checked_asserts(const ir::Function& fn);

}  // namespace tilec::codegen
