// Tile IR of the reductions and scans (language.md §6.5, §6.6) and of histogram (§7.8).
#include <algorithm>

#include "ir/ir_builder.h"

namespace tilec::ir {

// ---------------------------------------------------------------------------------------------
// Reductions and scans

BVal IrBuilder::builtin_reduce(Builtin id, const Expr& e, const Args& a) {
  const tilec::Value& rv = e.value;
  switch (id) {
    case Builtin::Max:
    case Builtin::Min:
      if (a[1]) {  // max(a, b): elementwise
        Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
        Value* y = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
        return BVal::of(b_.binary(id == Builtin::Max ? OpKind::Max : OpKind::Min, x, y, e.range));
      }
      return BVal::of(reduction(id, e, a[0], a[2], a[3]));
    case Builtin::Sum:
    case Builtin::Prod:
    case Builtin::Argmax:
    case Builtin::Argmin: return BVal::of(reduction(id, e, a[0], a[1], a[2]));
    case Builtin::Cumsum:
    case Builtin::Cumprod: {
      // Accumulate in the result dtype, f16/bf16 in f32 like the reductions (§6.6).
      DType acc = rv.tile.dtype == DType::F16 || rv.tile.dtype == DType::BF16 ? DType::F32 : rv.tile.dtype;
      Value* x = expr_dtype(*a[0], acc);
      if (!x) return BVal{};
      int rank = x->type.tile.rank();
      int64_t axis = a[1]->value.constant->i;
      Op* op = b_.create(OpKind::Scan, e.range, {x}, {x->type});
      op->combine = id == Builtin::Cumsum ? Combine::Sum : Combine::Prod;
      op->axis = int(axis < 0 ? axis + rank : axis);
      return BVal::of(b_.cast(op->result(), rv.tile.dtype, e.range));
    }
    default: break;
  }
  TILEC_ASSERT(false, "builtin_reduce called for '" + std::string(builtin_sig(id).name) + "'");
  return BVal{};
}

Value* IrBuilder::reduction(Builtin id, const Expr& e, const Expr* t, const Expr* axis, const Expr* keepdims) {
  const tilec::Value& tv = t->value;
  const tilec::Value& rv = e.value;
  int rank = tv.tile.rank();
  Combine c = id == Builtin::Sum ? Combine::Sum : id == Builtin::Prod ? Combine::Prod
            : id == Builtin::Max ? Combine::Max : id == Builtin::Min ? Combine::Min
            : id == Builtin::Argmax ? Combine::Argmax : Combine::Argmin;
  bool arg = c == Combine::Argmax || c == Combine::Argmin;
  // Accumulate f16/bf16 in f32 (§6.6); compare them in f32 too (exact).
  DType acc = arg ? tv.tile.dtype : rv.tile.dtype;
  if (acc == DType::F16 || acc == DType::BF16) acc = DType::F32;
  Value* x = expr_dtype(*t, acc);
  if (!x) return nullptr;
  if (rank == 0) {
    if (arg) return b_.constant(DType::I32, Scalar{0, 0}, e.range);
    return b_.cast(x, rv.tile.dtype, e.range);
  }
  std::vector<int> axes;
  if (!axis || axis->value.kind == ValueKind::None) {
    for (int d = 0; d < rank; ++d) axes.push_back(d);
  } else {
    for (const tilec::Value& v : axis->value.kind == ValueKind::Tuple ? axis->value.elems : std::vector<tilec::Value>{axis->value})
      axes.push_back(int(v.constant->i < 0 ? v.constant->i + rank : v.constant->i));
  }
  if (arg && axes.size() > 1) {
    // argmax over several axes indexes the flattened tile.
    Op* r = b_.create(OpKind::Reshape, e.range, {x}, {Type::tile_of(acc, {tv.tile.numel()})});
    r->shape = {tv.tile.numel()};
    x = r->result();
    axes = {0};
  }
  std::sort(axes.rbegin(), axes.rend());  // highest first, so lower axis numbers stay valid
  for (int ax : axes) {
    std::vector<int64_t> shape = x->type.tile.shape;
    shape.erase(shape.begin() + ax);
    Op* op = b_.create(OpKind::Reduce, e.range, {x}, {Type::tile_of(arg ? DType::I32 : acc, shape)});
    op->combine = c;
    op->axis = ax;
    x = op->result();
  }
  if (keepdims && keepdims->value.is_const() && keepdims->value.constant->i && x->type.tile.shape != rv.tile.shape) {
    Op* r = b_.create(OpKind::Reshape, e.range, {x}, {Type::tile_of(x->type.tile.dtype, rv.tile.shape)});
    r->shape = rv.tile.shape;
    x = r->result();
  }
  return b_.cast(x, rv.tile.dtype, e.range);
}

// ---------------------------------------------------------------------------------------------
// Histogram: the counts of a tile's bin indices

BVal IrBuilder::builtin_histogram(const Expr& e, const Args& a) {
  const tilec::Value& rv = e.value;
  // The bin indices keep their dtype; the mask is broadcast to their shape.
  Value* x = expr_dtype(*a[0], a[0]->value.tile.dtype);
  if (!x) return BVal{};
  std::vector<Value*> ops{x};
  if (a[2]) ops.push_back(expr_as(*a[2], DType::Bool, x->type.tile.shape));
  if (!ops.back()) return BVal{};
  Op* op = b_.create(OpKind::Histogram, e.range, ops, {Type::tile_of(DType::I32, rv.tile.shape)});
  op->shape = rv.tile.shape;
  return BVal::of(op->result());
}

}  // namespace tilec::ir
