// gather and scatter with element indices, and the per-element addressing they share with the
// atomics (gather.cpp).
#pragma once

#include <string>
#include <vector>

#include "codegen/ptx/context.h"

namespace tilec::codegen {

class GatherEmitter : FamilyEmitter {
 public:
  explicit GatherEmitter(EmitContext& cx) : FamilyEmitter(cx) {}

  /// Each element read on its own where valid, the padding elsewhere.
  void gather(const ir::Op& op);
  /// Each valid element written once (by the primary copy of a replicated element).
  void scatter(const ir::Op& op);

  /// Per register of an element-index op (gather, scatter, atomic): the u64 global address
  /// base + sum(index_d * stride_bytes_d) computed in 64 bits, and the predicate "every index
  /// is in [0, extent) and the mask holds" ("" when nothing can fail).
  struct ElementAccess {
    std::vector<std::string> addr, valid;
  };
  ElementAccess element_access(const ir::Op& op);
};

}  // namespace tilec::codegen
