// The PTX entry names of a kernel's code paths and variants: the emitter names its entries so,
// and the launch interface (KernelAbi) lists them.
#pragma once

#include <string>

namespace tilec::codegen {

/// The portable path's variants: `<name>_v16` vectorized (kernel_abi.h AbiVariant), `<name>`
/// general.
std::string vectorized_entry(const std::string& kernel);
std::string general_entry(const std::string& kernel);
/// The TmaWgmma path's entry name (lower.h CodePath).
std::string wgmma_entry(const std::string& kernel);

}  // namespace tilec::codegen
