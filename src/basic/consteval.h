// Compile-time arithmetic on scalars with the generated code's semantics: fixed-width
// two's-complement wrap-around, Python floor `//` and `%`, IEEE rounding to the dtype
// (language.md §4 and §6.4, §6.8). The checker and the IR constant folder both use it, so
// folding and generated code agree.
#pragma once

#include <optional>
#include <string>

#include "basic/operators.h"
#include "basic/tile_type.h"

namespace tilec {

/// Wraps `v` to the width of integer dtype `t` (sign-extends signed, zero-extends unsigned);
/// bool becomes 0/1.
int64_t wrap_int(int64_t v, DType t);

/// Rounds `v` to float dtype `t` (round to nearest even; f16/bf16/f32 overflow to inf;
/// tf32 rounds ties away from zero, as `cvt.rna.tf32.f32`).
double round_float(double v, DType t);

/// IEEE binary16 and bfloat16 encodings (round to nearest even).
uint16_t f32_to_f16_bits(float f);
float f16_bits_to_f32(uint16_t h);
uint16_t f32_to_bf16_bits(float f);
float bf16_bits_to_f32(uint16_t h);

/// Converts a constant of dtype `from` to dtype `to` (§6.8: float→int truncates toward zero
/// and saturates, NaN→0; int→narrower int wraps; float→bool is x != 0).
Scalar convert_scalar(Scalar s, DType from, DType to);

/// True when the integer constant `s` of dtype `from` is representable in integer dtype `to`.
bool int_fits(Scalar s, DType from, DType to);

/// Folds `a op b` with both operands already of dtype `t`; the result has dtype `result`
/// (bool for comparisons). Returns nullopt with `error` set for a constant division by zero
/// or a negative integer exponent.
std::optional<Scalar> fold_binary(Op op, DType t, Scalar a, Scalar b, DType result,
                                  std::string& error);

/// Weakly typed integers (literals and constants made from them) are Python ints: they fold
/// exactly, here in 128 bits, and must stay in [-2^63, 2^64) (docs/language.md §4.6).
using ExactInt = __int128;

/// The exact value of an integer constant of dtype `t` (u64 values above 2^63 included).
ExactInt exact_int(Scalar s, DType t);

/// Folds `a op b` exactly. Returns nullopt with `error` set for a result outside
/// [-2^63, 2^64), a division by zero, a negative exponent or a negative shift count.
/// Comparisons give 0 or 1.
std::optional<ExactInt> fold_exact(Op op, ExactInt a, ExactInt b, std::string& error);

/// The dtype a weak integer value takes alone: i32, else i64, else u64; and its Scalar.
DType exact_int_dtype(ExactInt v);
Scalar exact_int_scalar(ExactInt v);

/// Folds unary `-`, `+`, `~` on dtype `t`.
Scalar fold_unary(Op op, DType t, Scalar a);

/// Python truthiness of a constant of dtype `t`.
bool scalar_truth(Scalar s, DType t);

}  // namespace tilec
