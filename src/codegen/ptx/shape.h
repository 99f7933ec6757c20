// cat and extract through the shared-memory conversion buffer, and the two helpers that move a
// tile through that buffer in row-major order (shape.cpp).
#pragma once

#include <string>
#include <vector>

#include "codegen/ptx/context.h"

namespace tilec::codegen {

class ShapeEmitter : FamilyEmitter {
 public:
  explicit ShapeEmitter(EmitContext& cx) : FamilyEmitter(cx) {}

  /// Both operands through shared memory, in the result's row-major order.
  void cat(const ir::Op& op);
  /// The operand through shared memory; the sub-tile read at its constant offset.
  void extract(const ir::Op& op);

  /// Writes the registers `v` (dtype `d`, layout `l`) to shared memory: the element with
  /// coordinates c goes to slot offset + sum(c[k] * strides[k]) (slots of 8 bytes for 64-bit
  /// dtypes, 4 otherwise). Only the primary copy of a replicated element is written.
  void smem_store(const std::vector<std::string>& v, const Layout& l, DType d, const std::vector<int64_t>& strides,
                  int64_t offset);
  /// Reads registers for layout `l` from the slots smem_store wrote (same slot formula).
  std::vector<std::string> smem_load(const Layout& l, DType d, const std::vector<int64_t>& strides, int64_t offset);
};

}  // namespace tilec::codegen
