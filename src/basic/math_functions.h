// The one-operand math functions of the language (language.md §5, "math"): one list makes each
// function's built-in (frontend/builtins.h), its checker rule (check_builtins.cpp: floats in,
// integers computed in f32), its tile IR op (ir/ir.h), the IR builder's mapping
// (ir/build_builtins.cpp) and the emitter's dispatch (ptx/kernel.cpp, ptx/elementwise.cpp).
// Adding a function is a line here and its f32 lowering in codegen/ptx/math.cpp, whose switch
// over MathFunction has no default (-Werror=switch: a function without a lowering does not
// build). docs/internals.md, "Add a built-in".
#pragma once

#include <cstdint>

// X(Enum, "name", extra): `extra` is passed through unchanged, so each list that includes the
// functions gives them its own third column (the built-in's parameter spelling, the IR op's
// operand count).
#define TILEC_MATH_FUNCTIONS(X, extra) \
  X(Exp, "exp", extra)                 \
  X(Exp2, "exp2", extra)               \
  X(Log, "log", extra)                 \
  X(Log2, "log2", extra)               \
  X(Sqrt, "sqrt", extra)               \
  X(Rsqrt, "rsqrt", extra)             \
  X(Sin, "sin", extra)                 \
  X(Cos, "cos", extra)                 \
  X(Tanh, "tanh", extra)               \
  X(Sigmoid, "sigmoid", extra)         \
  X(Erf, "erf", extra)

namespace tilec {

/// One of the math functions above.
enum class MathFunction : uint8_t {
#define TILEC_MATH_ENUM(e, name, extra) e,
  TILEC_MATH_FUNCTIONS(TILEC_MATH_ENUM, _)
#undef TILEC_MATH_ENUM
};

}  // namespace tilec
