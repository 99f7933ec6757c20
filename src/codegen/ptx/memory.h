// load and store of tiles: one 64-bit base per tile and thread, vectors along the contiguous
// axis, interior and edge paths (memory.cpp).
#pragma once

#include <cstddef>

#include "codegen/ptx/context.h"

namespace tilec::codegen {

class MemoryEmitter : FamilyEmitter {
 public:
  explicit MemoryEmitter(EmitContext& cx) : FamilyEmitter(cx) {}

  /// A tile load: vectors under one predicate each in the vectorized variant, else an
  /// unmasked path for interior tiles and a masked one (padding) for edge tiles.
  void load(const ir::Op& op);
  /// A tile store, the mirror of load; threads holding copies do not store.
  void store(const ir::Op& op);

  /// Address computation of one load or store (memory.cpp).
  struct Access;

 private:
  /// The tile's base address, bounds and interior predicate for `op`, whose tile has layout
  /// `l` and whose indices start at operand `first_index`.
  Access plan_access(const ir::Op& op, const ir::Value* array, const Layout& l, size_t first_index);
};

}  // namespace tilec::codegen
