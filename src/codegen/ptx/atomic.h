// Atomics with element indices: native atom/red, or compare-and-swap loops (atomic.cpp).
#pragma once

#include "codegen/ptx/arith.h"
#include "codegen/ptx/context.h"
#include "codegen/ptx/gather.h"
#include "codegen/ptx/shape.h"

namespace tilec::codegen {

class AtomicEmitter : FamilyEmitter {
 public:
  AtomicEmitter(EmitContext& cx, ArithEmitter& arith, GatherEmitter& gather, ShapeEmitter& shape)
      : FamilyEmitter(cx), arith_(arith), gather_(gather), shape_(shape) {}

  /// One relaxed GPU-scope read-modify-write per valid element: native atom/red, or a CAS
  /// loop (docs/language.md §7.2.5); diagnoses the dtype/operation pairs that have neither.
  void atomic(const ir::Op& op);

 private:
  ArithEmitter& arith_;     ///< the operation of CAS loops
  GatherEmitter& gather_;   ///< element addresses
  ShapeEmitter& shape_;     ///< old values to the threads holding copies
};

}  // namespace tilec::codegen
