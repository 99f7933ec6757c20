// The operators of the language (`+`, `//`, `<=`, ...): the parser's AST, compile-time
// arithmetic (consteval.h) and the IR's compare predicates share this one list.
#pragma once

#include <cstdint>

namespace tilec {

enum class Op : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, BitAnd, BitOr, BitXor, Shl, Shr,
  Neg, Pos, Invert, And, Or,
  Lt, Le, Gt, Ge, Eq, Ne,
};

/// The source spelling of an operator ("//", "<=", "-").
const char* op_spelling(Op op);

}  // namespace tilec
