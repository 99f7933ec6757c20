// Indices of a pipelined cp.async load that move by a constant per iteration (affine_index.cpp):
// the step `pipelines` (pipelines.cpp) takes such loads on the portable path, and the cp.async
// emitter (ptx/cp_async.cpp) computes their first issued tile from them.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ir/ir.h"

namespace tilec::codegen {

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
