// The tma_wgmma path's lowering step `tma-stores` (tma_store.cpp; its wrapper is in steps.cpp):
// tile stores after the last pipelined loop go from registers to shared memory, then to global
// memory by TMA (cp.async.bulk.tensor), through the stages the loop no longer needs.
#pragma once

#include <cstdint>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// The step `tma-stores`, after `specialize`. Decides the tile stores that go through TMA
/// (TmaStore): at the
/// top level of the body after every pipelined loop, at tile indices in the array's own order,
/// an f16, bf16 or f32 tile whose lines are whole 128-byte spans and a multiple of 8 lines (at
/// most 256) of an array of at most 5 dimensions that nothing later accesses, in a layout without
/// copies whose swizzled addresses split into a per-thread and a per-register part; their
/// staging buffers, one after the other, must fit in the stages. On a persistent grid (whose
/// producer refills the stages meanwhile) they get shared memory of their own after the
/// mbarriers, within `smem_limit` (bytes per CTA), and the ring gives up stages for them, down to
/// two. Others stay st.global stores. Reads the stores of `k.fn`, their layouts, k.pipelines
/// and Plan::spec. Records Plan::tma_stores (with their staging offsets), and fewer stages when
/// the stores take some.
void plan_tma_stores(LoweredKernel& k, int64_t smem_limit);

}  // namespace tilec::codegen::tma_wgmma
