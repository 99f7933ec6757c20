// What the portable path stages through the conversion buffer in shared memory, sized during
// the lowering step `layouts`: mma operands staged from registers (ptx/mma_sync.cpp) and, in the
// general variant, large mma accumulators on their way to a store (plan_staged_stores,
// ptx/mma_store.cpp). The emitter stages exactly what these functions size.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// Bytes of shared memory an mma op stages its operands in (ptx/mma_sync.cpp): rows padded by
/// 16 bytes; `stage_a` and `stage_b` say which operands are staged (the others come from async
/// loads).
int64_t mma_staging_bytes(const ir::Op& op, bool stage_a = true, bool stage_b = true);
/// The same for the general variant, which stages an operand that is a 2-D transposition of a
/// load (through reshapes) as the load's tile: lines along the operand's rows.
int64_t general_mma_staging_bytes(const ir::Op& op);

/// The value an mma operand `v` views: back through reshapes and at most one 2-D transposition
/// (a permute that swaps the last two dimensions and keeps the others, all of extent 1: a load
/// with order=(1, 0), or (0, 1, 3, 2) of a 1x1xRxC tile). `transposed` says whether one was
/// passed; `chain` (when given) collects the ops passed.
const ir::Value* viewed_value(const ir::Value* v, bool& transposed, std::vector<const ir::Op*>* chain = nullptr);

/// Bytes of shared memory the general variant stores tile `tile`, in layout `l`, through
/// (ptx/mma_store.cpp): rows x (row bytes + 16) for an unsliced mma accumulator layout of 128
/// or more registers per thread, of 2-, 4- or 8-byte elements, at least 16 bytes per row, with
/// unit dimensions before the last two; else 0 (stored straight from registers).
int64_t staged_store_bytes(const ir::Value* tile, const Layout& l);

/// The second half of the step `layouts` (after assign_layouts), on the portable path. Decides
/// which tile stores the general variant makes through shared memory: those staged_store_bytes
/// accepts, when that fits in `smem_limit` (bytes per CTA). Reads k.layouts. Records
/// k.staged_stores, and their bytes in k.conversion_smem (and conversion_smem_loc) when larger.
void plan_staged_stores(LoweredKernel& k, int64_t smem_limit);

}  // namespace tilec::codegen
