// Split-K (language.md §3.5, `split_k=`): a kernel whose K loop accumulates an mma becomes two
// kernels that run one after the other on the launch's stream.
//
//   partials  the kernel with one more grid axis of S slices: slice z runs its share of the
//             K loop's iterations (a contiguous range, cdiv(iterations, S) long) and stores
//             its accumulator into the workspace, tilec_partials[z, cta] (cta: the CTA's
//             position in the original grid, x fastest), instead of running the rest;
//   reduce    the kernel with the original grid: everything before the loop, then the sum of
//             the S partials of its CTA, in slice order 0, 1, ..., S-1 (so the result does not
//             depend on which slice finished first), then everything after the loop.
//
// The workspace is an array of the accumulator's dtype, [kWorkspaceRows, accumulator dims but
// the first]: slice z's accumulator of the CTA at position `cta` of the original grid (x fastest)
// is its tile row z * CTAs + cta. It is a kernel parameter the header fills from the caller's
// workspace argument; its first extent is a constant that no launch reaches, so the launch
// passes only its base and strides.
#pragma once

#include <memory>
#include <string>

#include "basic/source.h"
#include "ir/ir.h"

namespace tilec::ir {

/// The workspace array's name in both kernels (a name no source can declare: `tilec_` is
/// reserved, header.md).
inline constexpr const char* kPartialsParam = "tilec_partials";
/// The workspace's constant first extent: more rows than any launch uses (the header refuses a
/// launch whose slices times CTAs times tile rows are more, and TMA takes extents up to 2^32).
inline constexpr int64_t kWorkspaceRows = (int64_t(1) << 31) - 1;

/// The two kernels of a split-K configuration.
struct SplitKernels {
  std::unique_ptr<Function> partials, reduce;
};

/// Splits `f`'s K loop into `slices` >= 2 (the header above). The loop is the one top-level
/// `for` whose carried values are all mma accumulators starting at zeros, with step 1; nothing
/// before it stores, and the grid has at most two axes. When `f` does not fit, returns false
/// with `error` (one line) and `where` (the loop, the op, or the kernel's def).
bool split_k(const Function& f, int slices, SplitKernels& out, std::string& error, SourceRange& where);

}  // namespace tilec::ir
