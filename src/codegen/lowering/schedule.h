// Instruction scheduling at the tile level, before layouts: which loads are issued early.
#pragma once

#include "ir/ir.h"

namespace tilec::codegen {

/// 32-bit registers per thread that the loads issued early may hold in all (schedule_loads).
constexpr int64_t kEarlyLoadRegisters = 8;

/// Moves loads of the kernel's top-level block up to just after the op defining their last
/// operand, over ops that write no memory and have no regions, while the moved loads hold at
/// most kEarlyLoadRegisters registers per thread of `threads` (elements per thread × element
/// bytes / 4, summed): their latency then overlaps the work before them (a row's reduction and
/// its barriers) instead of following it, at a register cost small enough not to lower the
/// occupancy of a memory-bound kernel (layernorm's two weight rows, 32 registers, did: 2 CTAs
/// per SM instead of 4, 0.74x; rmsnorm's one row with 8 warps, 8 registers: 1.03x;
/// bench/results/2026-11-30-session4-h200.md). Loads keep their order among themselves; loads
/// inside loops are left to the cp.async pipeline.
void schedule_loads(ir::Function& f, int threads);

}  // namespace tilec::codegen
