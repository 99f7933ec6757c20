// The PTX entry names of a kernel's code paths and variants: the emitter names its entries so,
// and the launch interface (KernelAbi) lists them.
#pragma once

#include <string>

namespace tilec::codegen {

/// The portable path's variants: `<name>_v16` vectorized (kernel_abi.h AbiVariant), `<name>`
/// general (the portable row of the paths table, paths/paths.cpp, names its entries with
/// kVectorizedSuffix; each arch-specific path's entry is its row's suffix there).
std::string vectorized_entry(const std::string& kernel);
/// The suffix vectorized_entry adds; the paths table's portable row names its entries with it.
inline constexpr const char* kVectorizedSuffix = "_v16";
std::string general_entry(const std::string& kernel);

}  // namespace tilec::codegen
