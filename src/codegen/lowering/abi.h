// From a lowered kernel to the launch interface the header exposes.
#pragma once

#include "codegen/launch/entry_names.h"
#include "codegen/launch/kernel_abi.h"
#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// The KernelAbi of `low`'s kernel: parameters (with may_write from the stores in its IR), dimension
/// symbols, the grid as C expressions (language.md §3 grid rules, 64-bit, Python floor
/// semantics through the header's tilec_cdiv/tilec_floordiv), the two variants' entry names
/// (`<name>_v16` vectorized, `<name>` general) and the launch shape.
/// `portable` is the kernel's portable lowering; `specific` the lowerings of its arch-specific
/// paths (the paths table's `specific` rows, path_table.h), which come first in KernelAbi::paths.
KernelAbi make_kernel_abi(const LoweredKernel& portable, const std::vector<const LoweredKernel*>& specific = {});

/// `abi` as the public interface sees it: without the workspace parameter of a split-K
/// configuration (ir/split_k.h) and, for its partials kernel, without the slices' grid axis.
KernelAbi public_view(KernelAbi abi);

/// The portable path's AbiPath for its lowering `low` (its row of the paths table, path_table.h).
AbiPath portable_abi_path(const LoweredKernel& low);
/// The divisors `low`'s launch stub computes (LaunchDivisor), in parameter order.
std::vector<AbiDivisor> abi_divisors(const LoweredKernel& low);

}  // namespace tilec::codegen
