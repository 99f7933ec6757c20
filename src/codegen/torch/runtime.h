// The fixed parts of the --emit=torch outputs, the same in every file: the C++ checks and
// launch environment, and the Python checks of the fake implementations. The generated parts
// are tables these read (cpp_text.cpp, python_text.cpp).
#pragma once

#include <string_view>

namespace tilec::codegen::torch {

/// C++ (namespace tilec_torch inside an anonymous namespace): Extent, Array, Kernel (a kernel's
/// tables), Call (the checks of one call; throws std::runtime_error naming the op, the argument
/// and what was expected), Launch (device guard and current stream), ptr(). Needs the stable
/// ABI headers, <cuda.h> and USE_CUDA defined.
std::string_view cpp_runtime_section();

/// Python: class _TilecKernel (a kernel's tables) with check() and functional(), the same checks
/// as Call on possibly symbolic shapes (torch._check), and the output allocation.
std::string_view python_runtime_section();

}  // namespace tilec::codegen::torch
