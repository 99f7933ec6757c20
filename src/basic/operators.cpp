// Operator spellings.
#include "basic/operators.h"

namespace tilec {

const char* op_spelling(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::FloorDiv: return "//";
    case Op::Mod: return "%";
    case Op::Pow: return "**";
    case Op::MatMul: return "@";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "^";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::Neg: return "-";
    case Op::Pos: return "+";
    case Op::Invert: return "~";
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
  }
  return "?";
}

}  // namespace tilec
