// contract: merges `c + a @ b` into one mma(a, b, c) when c has the type of the product's
// accumulator (f32 for f16, bf16, tf32 and f8 inputs): the product is then not rounded to the
// inputs' dtype before the add, as Triton's `acc += tl.dot(a, b)` and cuBLAS's beta = 1 keep
// it, and the accumulator stays in the tensor cores' registers. Like contracting a*b + c into an
// FMA it changes rounding only (one rounding fewer), so it runs where that is allowed: by
// default, not with --fmad=false (language.md §5.6, §8.7).
#include <unordered_map>

#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

using UseCounts = std::unordered_map<const Value*, int>;

bool is_zero_splat(const Value* v) {
  if (!v->def || v->def->kind != OpKind::Splat) return false;
  const Value* s = v->def->operands[0];
  return s->def && s->def->kind == OpKind::Constant && s->def->value.f == 0.0 && s->def->value.i == 0;
}

// The mma of `p` when p is how the checker builds a float `a @ b` used once: the product into a
// zero accumulator of the add's type, rounded to the inputs' dtype and converted back
// (cast(cast(mma(a, b, 0)))), each value used once. Else null.
Op* rounded_product(const Value* p, const Type& want, const UseCounts& uses) {
  auto once = [&](const Value* v) { return uses.count(v) && uses.at(v) == 1; };
  if (!p->def || p->def->kind != OpKind::Cast || !once(p)) return nullptr;
  const Value* q = p->def->operands[0];
  if (!q->def || q->def->kind != OpKind::Cast || !once(q)) return nullptr;
  Value* m = q->def->operands[0];
  if (!m->def || m->def->kind != OpKind::Mma || !once(m) || !(m->type == want)) return nullptr;
  if (!is_float(q->type.tile.dtype) || !is_zero_splat(m->def->operands[2])) return nullptr;
  return m->def;
}

}  // namespace

void contract_products(Function& f) {
  UseCounts uses;
  walk(f.body, [&](Op& op) {
    for (const Value* v : op.operands) ++uses[v];
  });
  walk(f.body, [&](Op& op) {
    if (op.kind != OpKind::Add || !is_float(op.results[0]->type.tile.dtype)) return;
    for (int side = 0; side < 2; ++side) {
      Value* c = op.operands[size_t(1 - side)];
      Op* mma = rounded_product(op.operands[size_t(side)], op.results[0]->type, uses);
      if (!mma || !(c->type == op.results[0]->type)) continue;
      // The add becomes the mma (same result value, so no use moves); the old product and its
      // two casts are left to dce.
      op.kind = OpKind::Mma;
      op.operands = {mma->operands[0], mma->operands[1], c};
      op.loc = mma->loc;
      return;
    }
  });
}

}  // namespace tilec::ir
