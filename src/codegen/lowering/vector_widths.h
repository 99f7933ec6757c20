// The lowering step `vector-widths`: how many elements a thread holds along the last dimension
// of each tile shape, before layouts are assigned (layouts read it).
#pragma once

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// Decides, per tile shape that `k.fn` loads or stores, the elements per thread along the last
/// dimension: 16 bytes of the narrowest dtype loaded or stored with that shape (a 16-byte
/// vector access, PTX ld/st.v4.b32). Reads the tile loads and stores of `k.fn`; records k.vec.
void choose_vector_widths(LoweredKernel& k);

}  // namespace tilec::codegen
