// The built-in functions of the language (language.md §5): one list gives each built-in's
// enum value, family, name and parameter spelling. The checker binds arguments with the
// spelling and dispatches on the family; the IR builder does the same. The one-operand math
// functions come from their own list (basic/math_functions.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basic/kernel_options.h"
#include "basic/math_functions.h"

namespace tilec {

// ", num_warps=": a keyword of the `kernel` decorator, one per row of TILEC_KERNEL_OPTIONS.
#define TILEC_KERNEL_OPTION_KEYWORD(name, ...) ", " #name "="

// X(Enum, Family, "name", "parameters"): Family is a BuiltinFamily; required parameters are
// plain names, optional ones end in '=', names after '*' are keyword-only, "*rest" collects
// extra positional arguments.
#define TILEC_BUILTINS(X)                                                                            \
  X(Bid, Grid, "bid", "axis")                                                                        \
  X(NumBlocks, Grid, "num_blocks", "axis")                                                           \
  X(NumTiles, Grid, "num_tiles", "array, axis, shape, order=")                                       \
  X(Cdiv, Grid, "cdiv", "a, b")                                                                      \
  X(NumSms, Grid, "num_sms", "")                                                                     \
  X(Swizzle2d, Grid, "swizzle2d", "i, num_m, num_n, group")                                          \
  X(Load, Memory, "load", "array, index=, shape, order=, padding=, *, offset=, bound=")              \
  X(Store, Memory, "store", "array, index=, tile, order=, *, offset=, bound=")                       \
  X(Gather, ElementMemory, "gather", "array, indices, mask=, padding=")                              \
  X(Scatter, ElementMemory, "scatter", "array, indices, tile, mask=")                                \
  X(AtomicAdd, ElementMemory, "atomic_add", "array, indices, tile, mask=")                           \
  X(AtomicMax, ElementMemory, "atomic_max", "array, indices, tile, mask=")                           \
  X(AtomicMin, ElementMemory, "atomic_min", "array, indices, tile, mask=")                           \
  X(AtomicAnd, ElementMemory, "atomic_and", "array, indices, tile, mask=")                           \
  X(AtomicOr, ElementMemory, "atomic_or", "array, indices, tile, mask=")                             \
  X(AtomicXor, ElementMemory, "atomic_xor", "array, indices, tile, mask=")                           \
  X(AtomicXchg, ElementMemory, "atomic_xchg", "array, indices, tile, mask=")                         \
  X(AtomicCas, ElementMemory, "atomic_cas", "array, indices, expected, desired, mask=")              \
  X(Arange, Make, "arange", "n, dtype=")                                                             \
  X(Full, Make, "full", "shape, value, dtype=")                                                      \
  X(Zeros, Make, "zeros", "shape, dtype=")                                                           \
  X(Ones, Make, "ones", "shape, dtype=")                                                             \
  X(Reshape, Shape, "reshape", "t, shape")                                                           \
  X(Permute, Shape, "permute", "t, dims")                                                            \
  X(Transpose, Shape, "transpose", "t, axis0=, axis1=")                                              \
  X(ExpandDims, Shape, "expand_dims", "t, axis")                                                     \
  X(BroadcastTo, Shape, "broadcast_to", "t, shape")                                                  \
  X(Cat, Shape, "cat", "a, b, axis")                                                                 \
  X(Extract, Shape, "extract", "t, index, shape")                                                    \
  X(Astype, Convert, "astype", "t, dtype")                                                           \
  X(Bitcast, Convert, "bitcast", "t, dtype")                                                         \
  X(Where, Elementwise, "where", "cond, a, b")                                                       \
  X(Minimum, Elementwise, "minimum", "a, b")                                                         \
  X(Maximum, Elementwise, "maximum", "a, b")                                                         \
  X(Clamp, Elementwise, "clamp", "x, lo, hi")                                                        \
  X(Abs, Elementwise, "abs", "x")                                                                    \
  X(Fma, Elementwise, "fma", "a, b, c")                                                              \
  TILEC_MATH_FUNCTIONS(TILEC_MATH_BUILTIN, X)                                                        \
  X(Floor, Elementwise, "floor", "x")                                                                \
  X(Ceil, Elementwise, "ceil", "x")                                                                  \
  X(Isnan, Elementwise, "isnan", "x")                                                                \
  X(Pow, Elementwise, "pow", "x, y, *, approx=")                                                     \
  X(Sum, Reduce, "sum", "t, *, axis=, keepdims=, dtype=")                                            \
  X(Prod, Reduce, "prod", "t, *, axis=, keepdims=, dtype=")                                          \
  X(Max, Reduce, "max", "t, b=, *, axis=, keepdims=, dtype=")                                        \
  X(Min, Reduce, "min", "t, b=, *, axis=, keepdims=, dtype=")                                        \
  X(Argmax, Reduce, "argmax", "t, *, axis=, keepdims=")                                              \
  X(Argmin, Reduce, "argmin", "t, *, axis=, keepdims=")                                              \
  X(Cumsum, Reduce, "cumsum", "t, *, axis, dtype=")                                                  \
  X(Cumprod, Reduce, "cumprod", "t, *, axis, dtype=")                                                \
  X(Histogram, Histogram, "histogram", "t, nbins, *, mask=")                                         \
  X(Mma, Mma, "mma", "a, b, acc")                                                                    \
  X(Print, Debug, "print", "fmt, *values")                                                           \
  X(StaticAssert, Debug, "static_assert", "cond, message=")                                          \
  X(Range, Range, "range", "a, b=, step=")                                                           \
  X(Kernel, Kernel, "kernel", "*, grid" TILEC_KERNEL_OPTIONS(TILEC_KERNEL_OPTION_KEYWORD) ", configs=") \
  X(ByTarget, Kernel, "by_target", "*rest")                                                          \
  X(Config, Kernel, "config", "*rest")

// A math function of basic/math_functions.h as a built-in: elementwise, `f(x, *, approx=)`.
#define TILEC_MATH_BUILTIN(e, name, X) X(e, Elementwise, name, "x, *, approx=")

enum class Builtin {
#define X(e, family, name, params) e,
  TILEC_BUILTINS(X)
#undef X
};

/// One parameter of a built-in's signature.
struct BuiltinParam {
  std::string name;
  bool required = true;
  bool keyword_only = false;
  bool rest = false;  ///< `*values`: collects the remaining positional arguments
};

/// A built-in's name and parsed signature.
struct BuiltinSig {
  Builtin id;
  std::string_view name;
  std::string_view spelling;  ///< "load(array, index=, shape, order=, padding=, *, offset=, bound=)"
  std::vector<BuiltinParam> params;
};

/// The families of built-ins: the checker (check_builtins.cpp) and the IR builder
/// (ir/build_builtins.cpp) each handle one family in one function.
enum class BuiltinFamily {
  Grid,           ///< bid, num_blocks, num_tiles, cdiv, num_sms, swizzle2d
  Memory,         ///< load, store (tile memory: at tile indices or element offsets)
  ElementMemory,  ///< gather, scatter, atomic_* (element-index memory)
  Make,           ///< arange, full, zeros, ones
  Shape,          ///< reshape, permute, transpose, expand_dims, broadcast_to, cat, extract
  Convert,        ///< astype, bitcast
  Elementwise,    ///< where, minimum, maximum, fma, pow and the one-operand math functions
  Reduce,         ///< sum, prod, max, min, argmax, argmin, cumsum, cumprod
  Histogram,      ///< histogram
  Mma,            ///< mma
  Debug,          ///< print, static_assert
  Range,          ///< range (a `for` loop's iterable)
  Kernel,         ///< kernel (the decorator), by_target (a value of its options)
};

/// The family `b` belongs to.
BuiltinFamily builtin_family(Builtin b);

/// The signature of `name`, or nullptr when it is not a built-in.
const BuiltinSig* find_builtin(std::string_view name);
const BuiltinSig& builtin_sig(Builtin b);
/// Every built-in's name, in the order of TILEC_BUILTINS (the candidates of "did you mean").
std::vector<std::string> builtin_names();

}  // namespace tilec
