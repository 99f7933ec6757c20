// The tests a tile load passes to go through a pipeline's shared memory (pipeline_loads.cpp), which
// every path's planner applies: the copy engines' rules (cp.async and TMA fill zeros only and
// copy a tile whose dimensions are the array's, starting at a multiple of 16 bytes), and the
// chain from the load to the mma operand that reads it.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/lowering/integer_facts.h"
#include "codegen/lowering/lower.h"
#include "ir/users.h"

namespace tilec::codegen {

/// Whether a copy engine can do tile load `op`: No; Yes; Unaligned, a load at element offsets
/// that one could copy but for its innermost offset, not known to be a multiple of 16 bytes.
enum class Copy { No, Yes, Unaligned };
Copy copy_kind(const ir::Op& op, const IntegerFacts& facts);

/// Bytes that load `op`'s innermost element offset is known to be a multiple of.
int64_t offset_align(const ir::Op& op, const IntegerFacts& facts);

/// Follows `load`'s result through permutes and unit-dimension reshapes to an mma operand at
/// the top level of `body` (or of `outer`, when given), used by nothing else. Fills the
/// shared-memory shape of `al` (lines of a power-of-two pitch of 16 to 1024 bytes) and records
/// the chain's values; false when the load does not qualify.
bool follow_chain(const ir::Op& load, const ir::Users& users, const ir::Block& body, const ir::Block* outer,
                  AsyncLoad& al, std::vector<const ir::Value*>& chain);

}  // namespace tilec::codegen
