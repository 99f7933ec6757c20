// Inclusive scans along one tile dimension: cumsum, cumprod (scan.cpp).
#pragma once

#include <string>

#include "codegen/ptx/arith.h"
#include "codegen/ptx/context.h"

namespace tilec::codegen {

class ScanEmitter : FamilyEmitter {
 public:
  ScanEmitter(EmitContext& cx, ArithEmitter& arith) : FamilyEmitter(cx), arith_(arith) {}

  /// Inclusive cumsum/cumprod along op.axis in the operand's (blocked or slice) layout.
  void scan(const ir::Op& op);

 private:
  /// `shfl.sync.<mode>` of a register of dtype `d` (16- and 64-bit values move as 32-bit
  /// words); `b` is the lane, delta or mask operand, `c` the clamp operand.
  std::string shuffle(const char* mode, const std::string& v, DType d, const std::string& b, const std::string& c);

  ArithEmitter& arith_;
};

}  // namespace tilec::codegen
