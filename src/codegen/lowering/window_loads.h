// Loads at element offsets that are windows of an earlier load of the same array: the same
// tile shifted by a constant number of elements along its last axis (a stencil's left and right
// neighbours, `load(x, offset=(r, c - 1), ...)` beside `load(x, offset=(r, c), ...)`). The
// emitter takes such a window's elements from the earlier tile's registers, the thread's own
// or a neighbouring lane's (shfl.sync), and loads only the elements that lie past the
// neighbouring lanes' runs (language.md §7.2.1, "Cost").
#pragma once

#include <map>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// The window loads of `k`. A load at element offsets `w` is a window of an earlier load `b` at
/// element offsets when: both are in the same block with no store, scatter or atomic between
/// them (at any depth: the array may alias the one written); they read the same array in the
/// same order with the same tile shape, dtype, padding and register layout; their offsets are
/// the same values except the last, and the last ones are one value plus two constants (`c`,
/// `c - 1`, `c + 2`: adds and subtracts of constants) whose difference `delta` is nonzero and at
/// most the thread's run along the last axis (Layout::spt) in size; the layout is blocked (not a
/// slice), at least two lanes hold different runs along the last axis, and its CTA tile does
/// not wrap along that axis. Neither tile may go through a cp.async or TMA pipeline (async
/// loads) or feed an mma directly (the general variant stages such loads); the emitter also
/// takes the plain load when `b`'s registers were never defined. Among several candidates `b`
/// is the earliest that is not a window itself, else the earliest.
std::map<const ir::Op*, WindowLoad> window_loads(const LoweredKernel& k);

}  // namespace tilec::codegen
