// The part of every generated header that does not depend on the kernels: metadata types, grid
// and conversion helpers, argument checks, the launch call. Guarded by TILEC_ABI<version>_RUNTIME so
// several tilec headers can share one translation unit.
#pragma once

#include <string_view>

namespace tilec {

/// The version of the header's C interface; changes when a declaration of the shared section or
/// a launch function's convention changes. Written as `<NAME>_TILEC_ABI_VERSION` and in the
/// metadata.
constexpr int kHeaderAbiVersion = 6;

/// The shared section's C text (C99 and C++; needs <cuda.h>, <stdint.h>, <string.h>,
/// <pthread.h> included before it and sits inside the header's extern "C" block).
std::string_view header_runtime_section();

}  // namespace tilec
