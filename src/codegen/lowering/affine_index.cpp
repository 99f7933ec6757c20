// Indices that move by a constant per iteration of a pipelined loop (affine_index.h).
#include "codegen/lowering/affine_index.h"

namespace tilec::codegen {

std::optional<AffineIndex> affine_index(const ir::Value* v, const ir::Op& loop) {
  const ir::Block& body = *loop.regions[0];
  const ir::Value* iv = body.args[0];
  if (v == iv) return AffineIndex{};
  const ir::Op* d = v->def;
  if (!d || d->parent != &body || v->type.tile.dtype != DType::I64 || !v->type.is_scalar()) return std::nullopt;
  auto constant = [](const ir::Value* x) -> std::optional<int64_t> {
    if (x->def && x->def->kind == ir::OpKind::Constant) return x->def->value.i;
    return std::nullopt;
  };
  // Whether x is computed in the loop (in its body or a block nested in it).
  auto in_loop = [&](const ir::Value* x) {
    for (const ir::Block* b = x->def ? x->def->parent : x->owner; b; b = b->parent ? b->parent->parent : nullptr)
      if (b == &body) return true;
    return false;
  };
  // A value from before the loop: a term of its own; one of the body's: affine itself.
  auto part = [&](const ir::Value* x, int sign) -> std::optional<AffineIndex> {
    if (!in_loop(x)) {
      if (x->type.tile.dtype != DType::I64 || !x->type.is_scalar()) return std::nullopt;
      AffineIndex a;
      a.slope = 0;
      a.terms.push_back({sign, x});
      return a;
    }
    std::optional<AffineIndex> a = affine_index(x, loop);
    if (a && sign < 0) {
      a->slope = -a->slope;
      for (auto& t : a->terms) t.first = -t.first;
    }
    return a;
  };
  auto scaled = [](std::optional<AffineIndex> a, int64_t c) -> std::optional<AffineIndex> {
    if (!a || !a->terms.empty()) return std::nullopt;  // (iv + t) * c: keep it simple
    a->slope *= c;
    return a;
  };
  switch (d->kind) {
    case ir::OpKind::Cast:
      // i64(k) of a narrower integer loop variable: the same values, exactly.
      if (d->operands[0] == iv && is_integer(iv->type.tile.dtype)) return AffineIndex{};
      return std::nullopt;
    case ir::OpKind::Neg: return scaled(affine_index(d->operands[0], loop), -1);
    case ir::OpKind::Shl: {
      std::optional<int64_t> c = constant(d->operands[1]);
      if (!c || *c < 0 || *c > 32) return std::nullopt;
      return scaled(affine_index(d->operands[0], loop), int64_t(1) << *c);
    }
    case ir::OpKind::Add:
    case ir::OpKind::Sub: {
      std::optional<AffineIndex> a = part(d->operands[0], 1), b = part(d->operands[1], d->kind == ir::OpKind::Add ? 1 : -1);
      if (!a || !b) return std::nullopt;
      a->slope += b->slope;
      a->terms.insert(a->terms.end(), b->terms.begin(), b->terms.end());
      if (a->slope == 0) return std::nullopt;  // does not move with the loop
      return a;
    }
    case ir::OpKind::Mul: {
      for (int i = 0; i < 2; ++i) {
        std::optional<int64_t> c = constant(d->operands[size_t(1 - i)]);
        if (!c || *c == 0 || *c > (int64_t(1) << 32) || *c < -(int64_t(1) << 32)) continue;
        return scaled(affine_index(d->operands[size_t(i)], loop), *c);
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

}  // namespace tilec::codegen
