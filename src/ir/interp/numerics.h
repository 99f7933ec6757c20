// Scalar semantics of the reference interpreter: rounding to each float dtype, integer
// wrap-around, conversions (docs/language.md §8.8) and the elementwise operators (§5, §7.6,
// §8.4, §8.5, §8.7). Written apart from basic/consteval.h on purpose: the constant folder uses
// consteval, so an interpreter that reused it could not tell a folding bug from the truth.
//
// Representation: a `Scalar` holds an integer or bool wrapped to its dtype (sign-extended for
// signed dtypes, zero-extended for unsigned ones, u64 as its bit pattern) in `i`, and a float
// in `f` already rounded to its dtype (f16, bf16, f8 values are exact doubles).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "basic/math_functions.h"
#include "basic/operators.h"
#include "basic/tile_type.h"
#include "ir/ir.h"

namespace tilec::interp {

/// Wraps `v` to integer dtype `t` (two's complement); bool becomes 0/1.
int64_t wrap(int64_t v, DType t);

/// Rounds `x` to float dtype `t` with one rounding: to nearest even (f16, bf16, f32, f64, f8),
/// ties away from zero for tf32 (`cvt.rna`). f16/bf16/f32 overflow to ±inf; f8e4m3 and
/// f8e5m2 saturate to their largest finite value (§8.8). NaN stays NaN.
double round_to(long double x, DType t);

/// The storage bits of a value of dtype `t` (low dtype_bits(t) bits; bool 0/1).
uint64_t to_bits(const Scalar& s, DType t);
/// The value whose storage bits are `b` (the inverse of to_bits; any NaN pattern gives NaN).
Scalar from_bits(uint64_t b, DType t);

/// `astype`: float→int truncates toward zero and saturates, NaN→0; int→int wraps;
/// →float rounds once; float→bool is x != 0 (NaN true).
Scalar convert(const Scalar& s, DType from, DType to);

/// The value of `s` (dtype `t`) as a long double (exact for every dtype).
long double as_real(const Scalar& s, DType t);
/// Python truthiness (conditions of if/while).
bool truth(const Scalar& s, DType t);

/// A binary elementwise op of the tile IR (add ... max, cmp) on operands of dtype `t`. Cmp takes `pred` and gives bool. Integer division by zero gives
/// 0 and sets `unspecified` (§8.4 leaves the value unspecified).
Scalar binary(ir::OpKind op, DType t, const Scalar& a, const Scalar& b, tilec::Op pred, bool& unspecified);

/// A unary elementwise op (neg, not, abs, floor, ceil, isnan) on dtype `t`.
Scalar unary(ir::OpKind op, DType t, const Scalar& a);

/// A math function on a float of dtype `t`, computed in double, rounded to f32 and then to
/// `t` (f16/bf16 compute in f32, §7.7). Results are compared with a tolerance.
Scalar math(MathFunction f, DType t, const Scalar& a);

/// fma(a, b, c) with one rounding for f32/f64; f16/bf16 as the f32 fma rounded to the dtype.
Scalar fma(DType t, const Scalar& a, const Scalar& b, const Scalar& c);

}  // namespace tilec::interp
