// canonicalize: local rewrites to simpler equivalent forms — shape ops that change nothing,
// chains of reshapes, broadcasts of splats, algebraic identities with exact results
// (x + 0 and x * 1 on integers only: on floats -0.0 + 0 changes the sign), and 64-bit
// comparisons of a value known to fit 32 bits (an arange) with a scalar, which become 32-bit
// comparisons with the scalar clamped once (`arange(T) < n` with an i64 extent n).
#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

bool is_const(const Value* v, int64_t i) {
  const Op* d = v->def;
  if (!d) return false;
  if (d->kind == OpKind::Splat) return is_const(d->operands[0], i);
  return d->kind == OpKind::Constant && is_integer(d->dtype) && d->value.i == i;
}

// The range [lo, hi] of integer tile `v` when it is known to lie inside i32 (an arange, a
// constant, sums of those, widened or reshaped).
bool int32_range(const Value* v, int64_t& lo, int64_t& hi) {
  const Op* d = v->def;
  if (!d || !is_integer(v->type.tile.dtype)) return false;
  switch (d->kind) {
    case OpKind::Iota:
      lo = 0;
      hi = d->shape[0] - 1;
      return true;
    case OpKind::Constant:
      lo = hi = d->value.i;
      return lo >= INT32_MIN && lo <= INT32_MAX;
    case OpKind::Splat:
    case OpKind::Broadcast:
    case OpKind::Reshape:
      return int32_range(d->operands[0], lo, hi);
    case OpKind::Cast:
      // widening keeps the values; the source must be an integer dtype
      return is_integer(d->operands[0]->type.tile.dtype) &&
             dtype_bits(d->operands[0]->type.tile.dtype) <= dtype_bits(v->type.tile.dtype) &&
             int32_range(d->operands[0], lo, hi);
    case OpKind::Add: {
      int64_t a0, a1, b0, b1;
      if (!int32_range(d->operands[0], a0, a1) || !int32_range(d->operands[1], b0, b1)) return false;
      lo = a0 + b0;
      hi = a1 + b1;
      return lo >= INT32_MIN && hi <= INT32_MAX;
    }
    default: return false;
  }
}

// cmp(x, s) on i64 with x in [lo, hi] ⊂ i32 and s a splat of a scalar: compare in i32 against
// s clamped to [lo - 1, hi + 1], which gives the same answer for every x in [lo, hi].
Value* narrow_compare(Function& f, Block& b, std::list<std::unique_ptr<Op>>::iterator it) {
  Op& op = **it;
  DType t = op.operands[0]->type.tile.dtype;
  if (dtype_bits(t) != 64 || !is_signed_int(t)) return nullptr;
  for (int side = 0; side < 2; ++side) {
    Value* x = op.operands[size_t(side)];
    Value* s = op.operands[size_t(1 - side)];
    int64_t lo, hi;
    if (!s->def || s->def->kind != OpKind::Splat || !int32_range(x, lo, hi)) continue;
    if (lo - 1 < INT32_MIN || hi + 1 > INT32_MAX) continue;
    Builder bld(f, &b);
    bld.set_before(&b, it);
    Value* scalar = s->def->operands[0];
    Value* clamped = bld.binary(OpKind::Max, scalar, bld.constant(t, Scalar{lo - 1, 0}, op.loc), op.loc);
    clamped = bld.binary(OpKind::Min, clamped, bld.constant(t, Scalar{hi + 1, 0}, op.loc), op.loc);
    Value* s32 = bld.broadcast_to(bld.cast(clamped, DType::I32, op.loc), x->type.tile.shape, op.loc);
    // x itself as i32: below its widening cast, or a fresh narrowing cast (exact in range).
    Value* x32 = x->def->kind == OpKind::Cast && x->def->operands[0]->type.tile.dtype == DType::I32
                     ? x->def->operands[0]
                     : bld.cast(x, DType::I32, op.loc);
    if (x32->type.tile.shape != x->type.tile.shape) return nullptr;
    return side == 0 ? bld.cmp(op.pred, x32, s32, op.loc) : bld.cmp(op.pred, s32, x32, op.loc);
  }
  return nullptr;
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
    case OpKind::Cmp:
      return narrow_compare(f, b, it);
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

// `replaced`: the results simplified so far, applied to each op as the walk reaches it (so
// `simplify` sees operands, and their definitions' operands, already rewritten).
void canonicalize_block(Function& f, Block& b, ValueReplacements& replaced) {
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) {
    replaced.apply(**it);
    for (auto& r : (*it)->regions) canonicalize_block(f, *r, replaced);
    if ((*it)->results.size() != 1) continue;
    if (Value* v = simplify(f, b, it)) replaced.replace((*it)->results[0], v);
  }
}

}  // namespace

void canonicalize(Function& f) {
  ValueReplacements replaced;
  canonicalize_block(f, f.body, replaced);
}

}  // namespace tilec::ir
