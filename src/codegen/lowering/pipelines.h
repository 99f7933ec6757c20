// The lowering steps `pipelines` and `stages` (pipeline.cpp): which loads of a loop go through
// shared memory ahead of the mma that reads them, and in how many stages. `pipelines` runs
// before layouts, `stages` after them (the conversion buffer the stages follow is sized then).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// The step `pipelines`. Decides the loops of `k.fn` whose loads go through a pipeline of
/// shared memory (none when `num_stages` is 1) and which loads: a loop qualifies when its step
/// is a positive constant, it has no break, continue or return, and an mma in its body reads a
/// load whose indices are the induction variable or values defined before the loop, with zero
/// padding and a power-of-two line of 16 to 1024 bytes (pipeline_loads.h; on an arch-specific
/// path, also what its plan adds, PathPlan::plan_loop). Reads `k.fn` and `k.path`'s copy engine
/// rules. Records k.pipelines (loads and one stage's bytes), k.async_values and
/// k.unaligned_loads.
void plan_pipelines(LoweredKernel& k, int num_stages);

/// The step `stages`, after layouts, on the portable path. Decides where the cp.async stages
/// start (after the vectorized variant's conversion buffer, 1024-byte aligned), each loop's
/// late-sync mma (Pipeline::sync_mma) and the number of stages: `num_stages` (2-8) when given,
/// else as many as fit (2 to 4) in half of `smem_limit` (bytes per CTA), so that two CTAs can
/// share an SM, or in all of it when the accumulator alone takes more than 64 registers per
/// thread (then registers allow one CTA per SM anyway); when two stages do not fit, nothing is
/// pipelined. Reads k.pipelines, k.conversion_smem_vectorized and k.num_warps. Records
/// k.pipeline_offset and each Pipeline's stages and sync_mma (or clears k.pipelines), and a
/// -Wnum-stages warning in k.warnings for a `num_stages` that does not fit.
void finish_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit);

/// An index of a pipelined cp.async load computed in the loop body (portable path): `slope` x
/// the induction variable plus the sum of `terms` (sign, value from before the loop), all in
/// i64, so that the tile's origin moves by a constant per iteration.
struct AffineIndex {
  int64_t slope = 1;
  std::vector<std::pair<int, const ir::Value*>> terms;
};
/// `v` as an AffineIndex of `loop`'s induction variable (itself: slope 1), or nullopt: only
/// +, -, negation, * and << by a constant of i64 scalars computed in the loop's body, from the
/// induction variable (or its widening to i64) and values from before the loop (what LICM
/// leaves in the body of `k * 64 + t`). i32 arithmetic is left out: it wraps at 32 bits, where
/// the copies' 64-bit addresses would not.
std::optional<AffineIndex> affine_index(const ir::Value* v, const ir::Op& loop);

}  // namespace tilec::codegen
