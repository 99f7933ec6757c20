// The built-in functions of the language (language.md §5): one list gives each built-in's
// enum value, name and parameter spelling. The checker binds arguments with the spelling; the
// IR builder switches on the enum.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

// X(Enum, "name", "parameters"): required parameters are plain names, optional ones end in
// '=', names after '*' are keyword-only, "*rest" collects extra positional arguments.
#define TILEC_BUILTINS(X)                                                         \
  X(Bid, "bid", "axis")                                                           \
  X(NumBlocks, "num_blocks", "axis")                                              \
  X(NumTiles, "num_tiles", "array, axis, shape, order=")                          \
  X(Cdiv, "cdiv", "a, b")                                                         \
  X(NumSms, "num_sms", "")                                                        \
  X(Swizzle2d, "swizzle2d", "i, num_m, num_n, group")                             \
  X(Load, "load", "array, index=, shape, order=, padding=, *, offset=")           \
  X(Store, "store", "array, index=, tile, order=, *, offset=")                    \
  X(Gather, "gather", "array, indices, mask=, padding=")                          \
  X(Scatter, "scatter", "array, indices, tile, mask=")                            \
  X(AtomicAdd, "atomic_add", "array, indices, tile, mask=")                       \
  X(AtomicMax, "atomic_max", "array, indices, tile, mask=")                       \
  X(AtomicMin, "atomic_min", "array, indices, tile, mask=")                       \
  X(AtomicAnd, "atomic_and", "array, indices, tile, mask=")                       \
  X(AtomicOr, "atomic_or", "array, indices, tile, mask=")                         \
  X(AtomicXor, "atomic_xor", "array, indices, tile, mask=")                       \
  X(AtomicXchg, "atomic_xchg", "array, indices, tile, mask=")                     \
  X(AtomicCas, "atomic_cas", "array, indices, expected, desired, mask=")          \
  X(Arange, "arange", "n, dtype=")                                                \
  X(Full, "full", "shape, value, dtype=")                                         \
  X(Zeros, "zeros", "shape, dtype=")                                              \
  X(Ones, "ones", "shape, dtype=")                                                \
  X(Reshape, "reshape", "t, shape")                                               \
  X(Permute, "permute", "t, dims")                                                \
  X(Transpose, "transpose", "t, axis0=, axis1=")                                  \
  X(ExpandDims, "expand_dims", "t, axis")                                         \
  X(BroadcastTo, "broadcast_to", "t, shape")                                      \
  X(Cat, "cat", "a, b, axis")                                                     \
  X(Extract, "extract", "t, index, shape")                                        \
  X(Astype, "astype", "t, dtype")                                                 \
  X(Bitcast, "bitcast", "t, dtype")                                               \
  X(Where, "where", "cond, a, b")                                                 \
  X(Minimum, "minimum", "a, b")                                                   \
  X(Maximum, "maximum", "a, b")                                                   \
  X(Abs, "abs", "x")                                                              \
  X(Fma, "fma", "a, b, c")                                                        \
  X(Exp, "exp", "x, *, approx=")                                                  \
  X(Exp2, "exp2", "x, *, approx=")                                                \
  X(Log, "log", "x, *, approx=")                                                  \
  X(Log2, "log2", "x, *, approx=")                                                \
  X(Sqrt, "sqrt", "x, *, approx=")                                                \
  X(Rsqrt, "rsqrt", "x, *, approx=")                                              \
  X(Sin, "sin", "x, *, approx=")                                                  \
  X(Cos, "cos", "x, *, approx=")                                                  \
  X(Tanh, "tanh", "x, *, approx=")                                                \
  X(Sigmoid, "sigmoid", "x, *, approx=")                                          \
  X(Floor, "floor", "x")                                                          \
  X(Ceil, "ceil", "x")                                                            \
  X(Isnan, "isnan", "x")                                                          \
  X(Pow, "pow", "x, y, *, approx=")                                               \
  X(Sum, "sum", "t, *, axis=, keepdims=, dtype=")                                 \
  X(Prod, "prod", "t, *, axis=, keepdims=, dtype=")                               \
  X(Max, "max", "t, b=, *, axis=, keepdims=, dtype=")                             \
  X(Min, "min", "t, b=, *, axis=, keepdims=, dtype=")                             \
  X(Argmax, "argmax", "t, *, axis=, keepdims=")                                   \
  X(Argmin, "argmin", "t, *, axis=, keepdims=")                                   \
  X(Cumsum, "cumsum", "t, *, axis, dtype=")                                       \
  X(Cumprod, "cumprod", "t, *, axis, dtype=")                                     \
  X(Histogram, "histogram", "t, nbins, *, mask=")                                 \
  X(Mma, "mma", "a, b, acc")                                                      \
  X(Print, "print", "fmt, *values")                                               \
  X(StaticAssert, "static_assert", "cond, message=")                              \
  X(Range, "range", "a, b=, step=")                                               \
  X(Kernel, "kernel", "*, grid, num_warps=, num_stages=, max_registers=, min_ctas_per_sm=")

enum class Builtin {
#define X(e, name, params) e,
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
  std::string_view spelling;  ///< "load(array, index=, shape, order=, padding=, *, offset=)"
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
  Kernel,         ///< kernel (the decorator)
};

/// The family `b` belongs to.
BuiltinFamily builtin_family(Builtin b);

/// The signature of `name`, or nullptr when it is not a built-in.
const BuiltinSig* find_builtin(std::string_view name);
const BuiltinSig& builtin_sig(Builtin b);

}  // namespace tilec
