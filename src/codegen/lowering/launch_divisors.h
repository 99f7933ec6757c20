// The lowering step `launch-divisors` (launch_divisors.cpp), which every path runs last:
// integer // and % by a value the launch stub computes on the host become a multiply by a
// magic number the stub passes (LaunchDivisor).
#pragma once

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

/// Decides the integer // and % ops of `k` whose quotient can come from a magic number the
/// launch stub computes. An op qualifies when its dividend is known to be in [0, 2^32)
/// (IntegerFacts::fits_u32: u32, bid(), a non-negative i32, a widening cast of one), its
/// divisor is not a constant (ptxas divides by those with its own magic numbers) but a scalar
/// the host can compute (host_c_expr: extents, integer scalars, constants), and, for a signed
/// divisor, known to be >= 0; and while the entry's parameters stay within kMaxParamBytes
/// (limits.h). Reads `k.fn` and the path's parameters before the divisors (tensor maps, a
/// persistent grid). Records k.launch_divisors (in parameter order), k.divided_at_launch and
/// k.computed_at_launch (the scalar ops only those divisors needed, which the emitter leaves
/// out).
void plan_launch_divisors(LoweredKernel& k);

}  // namespace tilec::codegen
