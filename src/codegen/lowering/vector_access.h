// The vectorized variant's access size of each tile load and store: decided once after the
// last lowering step (record_decisions in lower.cpp keeps it in LoweredKernel::vector_bytes) and
// read by the emitter (ptx/memory.cpp) and the launch ABI (the stub's per-array check).
#pragma once

#include <map>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// The vectorized variant's access size for a tile load or store `op` whose tile has layout
/// `l`: the bytes of one vector access along the array's innermost dimension (the run of
/// elements a thread holds there, at most 16), or 0 when the access goes element by element
/// (rank 0, a permuted order, runs under 4 bytes, 8- and 16-bit integers, bool, f8). The header
/// launches the vectorized variant only when each such array's innermost extent in bytes is a
/// multiple of it (AbiParam::vector_bytes), so every vector is wholly inside the array or
/// wholly outside: loads and stores need a predicate per vector and no edge path.
int vector_access_bytes(const ir::Op& op, const Layout& l);
/// The vectorized variant's access size of every tile load and store of `low` that is not a
/// scalar (cp.async pipeline loads excepted), in bytes, 0 for element by element: what
/// record_decisions keeps in LoweredKernel::vector_bytes. At tile
/// indices it is vector_access_bytes. At element offsets (load(offset=)) a vector must also
/// start at a multiple of its size: it is vector_access_bytes capped by the alignment of the
/// innermost offset, the largest power of two known to divide it (IntegerFacts, under the
/// launch stub's check of array_vector_bytes, which these widths enlarge: the least fixed
/// point from the tile-index accesses' check) times the element size, and 0 below 4 bytes.
std::map<const ir::Op*, int> access_vector_bytes(const LoweredKernel& low);
/// Per array that tile loads or stores access (cp.async pipeline loads excepted): the widest
/// of those accesses' bytes (LoweredKernel::vector_bytes, so after lowering), 1 when none is in
/// vectors. The launch stub takes the
/// vectorized variant only when each array's innermost extent in bytes is a multiple of it.
std::map<const ir::ArrayParam*, int> array_vector_bytes(const LoweredKernel& low);

}  // namespace tilec::codegen
