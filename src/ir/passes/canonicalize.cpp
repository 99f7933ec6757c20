// canonicalize: local rewrites to simpler equivalent forms — shape ops that change nothing,
// chains of reshapes, broadcasts of splats, and algebraic identities with exact results
// (x + 0 and x * 1 on integers only: on floats -0.0 + 0 changes the sign).
#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

bool is_const(const Value* v, int64_t i) {
  const Op* d = v->def;
  if (!d) return false;
  if (d->kind == OpKind::Splat) return is_const(d->operands[0], i);
  return d->kind == OpKind::Constant && is_integer(d->dtype) && d->value.i == i;
}

// The value `op` reduces to, or null.
Value* simplify(Function& f, Block& b, std::list<std::unique_ptr<Op>>::iterator it) {
  Op& op = **it;
  Value* x = op.operands.empty() ? nullptr : op.operands[0];
  switch (op.kind) {
    case OpKind::Reshape:
    case OpKind::Broadcast:
      if (x->type == op.results[0]->type) return x;
      if (op.kind == OpKind::Reshape && x->def && x->def->kind == OpKind::Reshape) {
        op.operands[0] = x->def->operands[0];  // reshape(reshape(y)) = reshape(y)
        return op.operands[0]->type == op.results[0]->type ? op.operands[0] : nullptr;
      }
      if (x->def && x->def->kind == OpKind::Splat) {
        // broadcast/reshape of a splat is a splat of the scalar
        Builder bld(f, &b);
        bld.set_before(&b, it);
        return bld.broadcast_to(x->def->operands[0], op.results[0]->type.tile.shape, op.loc);
      }
      return nullptr;
    case OpKind::Cast:
      return x->type == op.results[0]->type ? x : nullptr;
    case OpKind::Add:
    case OpKind::Or:
    case OpKind::Xor:
      if (!is_integer(op.results[0]->type.tile.dtype)) return nullptr;
      if (is_const(op.operands[1], 0)) return x;
      if (is_const(x, 0)) return op.operands[1];
      return nullptr;
    case OpKind::Sub:
      return is_integer(op.results[0]->type.tile.dtype) && is_const(op.operands[1], 0) ? x : nullptr;
    case OpKind::Mul:
      if (!is_integer(op.results[0]->type.tile.dtype)) return nullptr;
      if (is_const(op.operands[1], 1)) return x;
      if (is_const(x, 1)) return op.operands[1];
      return nullptr;
    default: return nullptr;
  }
}

void canonicalize_block(Function& f, Block& b) {
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) {
    for (auto& r : (*it)->regions) canonicalize_block(f, *r);
    if ((*it)->results.size() != 1) continue;
    if (Value* v = simplify(f, b, it)) replace_uses(f.body, (*it)->results[0], v);
  }
}

}  // namespace

void canonicalize(Function& f) { canonicalize_block(f, f.body); }

}  // namespace tilec::ir
