// From a lowered kernel to the launch interface the header exposes.
#pragma once

#include "codegen/launch/entry_names.h"
#include "codegen/launch/kernel_abi.h"
#include "codegen/lower.h"

namespace tilec::codegen {

/// The KernelAbi of `low`'s kernel: parameters (with may_write from the stores in its IR), dimension
/// symbols, the grid as C expressions (language.md §3 grid rules, 64-bit, Python floor
/// semantics through the header's tilec_cdiv/tilec_floordiv), the two variants' entry names
/// (`<name>_v16` vectorized, `<name>` general) and the launch shape.
/// `portable` is the kernel's portable lowering; `specific` the lowerings of its arch-specific
/// paths (TmaWgmma for sm_90a), which come first in KernelAbi::paths.
KernelAbi make_kernel_abi(const LoweredKernel& portable, const std::vector<const LoweredKernel*>& specific = {});

}  // namespace tilec::codegen
