// The tensor-core instruction shape of each mma, chosen per target before layouts are assigned.
#pragma once

#include "codegen/target/target.h"
#include "ir/ir.h"

namespace tilec::codegen {

/// The smallest (m, n, k) tile of one mma.sync instruction for operands of dtype `t` (PTX ISA
/// §9.7.14.5): m16n8k16 for 16-bit inputs, m16n8k8 for tf32, m16n8k32 for 8-bit, m8n8k4 for f64.
struct MmaInstructionShape {
  int64_t m = 16, n = 8, k = 16;
};
MmaInstructionShape mma_sync_shape(DType t);

/// Pads every mma of `f` whose tiles are smaller than one instruction of the path `target`
/// takes (mma.sync on every target today): each short dimension of the operands and the
/// accumulator is doubled with zeros (`cat`) until it is one instruction wide, and the result is
/// cut back to the accumulator's shape (`extract`). Zero rows and columns add nothing to the
/// products, so the result is the same.
void pad_mma_operands(ir::Function& f, const Target& target);

}  // namespace tilec::codegen
