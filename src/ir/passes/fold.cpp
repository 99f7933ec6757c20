// fold: replaces scalar operations on constants by constants, with the checker's semantics
// (consteval.h), so that folding and generated code agree bit for bit.
#include <cmath>
#include <optional>

#include "basic/consteval.h"
#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

const Op* constant_of(const Value* v) { return v->def && v->def->kind == OpKind::Constant ? v->def : nullptr; }

tilec::Op binary_op(OpKind k) {
  switch (k) {
    case OpKind::Add: return tilec::Op::Add;
    case OpKind::Sub: return tilec::Op::Sub;
    case OpKind::Mul: return tilec::Op::Mul;
    case OpKind::Div: return tilec::Op::Div;
    case OpKind::FloorDiv: return tilec::Op::FloorDiv;
    case OpKind::Mod: return tilec::Op::Mod;
    case OpKind::Pow: return tilec::Op::Pow;
    case OpKind::And: return tilec::Op::BitAnd;
    case OpKind::Or: return tilec::Op::BitOr;
    case OpKind::Xor: return tilec::Op::BitXor;
    case OpKind::Shl: return tilec::Op::Shl;
    default: return tilec::Op::Shr;
  }
}

// The folded value of `op`, or nullopt when it cannot (or must not) be folded.
std::optional<Scalar> fold(const Op& op) {
  if (op.results.size() != 1 || !op.results[0]->type.is_scalar()) return std::nullopt;
  std::vector<const Op*> cs;
  for (const Value* v : op.operands) {
    const Op* c = constant_of(v);
    if (!c) return std::nullopt;
    cs.push_back(c);
  }
  DType t = op.operands.empty() ? op.dtype : op.operands[0]->type.tile.dtype;
  std::string error;
  switch (op.kind) {
    case OpKind::Cast: return convert_scalar(cs[0]->value, t, op.dtype);
    case OpKind::Neg:
    case OpKind::Not: return fold_unary(op.kind == OpKind::Neg ? tilec::Op::Neg : tilec::Op::Invert, t, cs[0]->value);
    case OpKind::Cmp: return fold_binary(op.pred, t, cs[0]->value, cs[1]->value, DType::Bool, error);
    case OpKind::Min:
    case OpKind::Max: {
      Scalar a = cs[0]->value, b = cs[1]->value;
      if (is_float(t) && (std::isnan(a.f) || std::isnan(b.f))) return Scalar{0, NAN};
      bool less = fold_binary(tilec::Op::Lt, t, a, b, DType::Bool, error)->i != 0;
      return (op.kind == OpKind::Min) == less ? a : b;
    }
    case OpKind::Select: return cs[0]->value.i ? cs[1]->value : cs[2]->value;
    case OpKind::Pow:
      if (is_float(t)) return std::nullopt;  // float pow is a math function with its own accuracy
      [[fallthrough]];
    default:
      if (is_binary_elementwise(op.kind)) {
        // Integer division by zero is left to run time (its value is unspecified, §6.4).
        std::optional<Scalar> r = fold_binary(binary_op(op.kind), t, cs[0]->value, cs[1]->value, t, error);
        return r;
      }
      return std::nullopt;
  }
}

// `replaced`: the results folded so far, applied to each op as the walk reaches it.
void fold_block(Function& f, Block& b, ValueReplacements& replaced) {
  Builder builder(f, &b);
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) {
    Op& op = **it;
    replaced.apply(op);
    for (auto& r : op.regions) fold_block(f, *r, replaced);
    if (op.kind == OpKind::Constant) continue;
    std::optional<Scalar> v = fold(op);
    if (!v) continue;
    builder.set_before(&b, it);
    Value* c = builder.constant(op.results[0]->type.tile.dtype, *v, op.loc);
    replaced.replace(op.results[0], c);
  }
}

}  // namespace

void fold_constants(Function& f) {
  ValueReplacements replaced;
  fold_block(f, f.body, replaced);
}

}  // namespace tilec::ir
