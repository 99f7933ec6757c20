// histogram(t, nbins, mask=): the CTA's counts per bin through shared memory (histogram.cpp).
#pragma once

#include "codegen/ptx/context.h"
#include "codegen/ptx/shape.h"

namespace tilec::codegen {

class HistogramEmitter : FamilyEmitter {
 public:
  HistogramEmitter(EmitContext& cx, ShapeEmitter& shape) : FamilyEmitter(cx), shape_(shape) {}

  /// The CTA's counts of each index in [0, nbins) (op.shape[0]) through shared memory.
  void histogram(const ir::Op& op);

 private:
  ShapeEmitter& shape_;
};

}  // namespace tilec::codegen
