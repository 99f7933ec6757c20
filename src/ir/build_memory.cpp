// Tile IR of the memory built-ins: load and store (tile-index memory, language.md §6.2),
// gather, scatter and the atomics (element-index memory, §6.3).
#include <algorithm>

#include "basic/consteval.h"
#include "ir/ir_builder.h"

namespace tilec::ir {

// ---------------------------------------------------------------------------------------------
// Tile memory: load and store at tile indices (index=) or element offsets (offset=)

std::vector<Value*> IrBuilder::memory_coords(const Expr& where) {
  std::vector<Value*> out;
  std::vector<const Expr*> written;
  if (where.kind == ExprKind::Tuple) for (const ExprPtr& x : where.args) written.push_back(x.get());
  else if (where.value.kind == ValueKind::Tuple) for (BVal& el : expr(where).elems) out.push_back(el.v);
  else written.push_back(&where);
  for (const Expr* x : written) {
    BVal v = expr(*x);
    out.push_back(v.v ? v.v : expr_dtype(*x, x->value.tile.dtype));
  }
  return out;
}

BVal IrBuilder::builtin_memory(Builtin id, const Expr& e, const Args& a) {
  const tilec::Value& rv = e.value;
  const tilec::ArrayParam* arr = a[0]->value.array;
  // The checker allows exactly one of index= (slot 1) and offset= (after `*`); bound= is last.
  const Expr* offset = a[id == Builtin::Load ? 5 : 4];
  const Expr* bound = a[id == Builtin::Load ? 6 : 5];
  // A store's tile is built first (the SSA numbers of --emit=tir follow the order of building).
  Value* t = nullptr;
  if (id == Builtin::Store) {
    std::vector<int64_t> shape = a[2]->value.tile.shape;
    if (shape.empty()) shape.assign(arr->dims.size(), 1);
    t = expr_dtype(*a[2], arr->dtype);
    if (!t) return BVal{};
    if (t->type.tile.shape != shape) {
      Op* r = b_.create(OpKind::Reshape, e.range, {t}, {Type::tile_of(arr->dtype, shape)});
      r->shape = shape;
      t = r->result();
    }
  }
  std::vector<Value*> idx = memory_coords(offset ? *offset : *a[1]);
  std::vector<Value*> bounds = bound ? memory_coords(*bound) : std::vector<Value*>{};
  for (Value* v : idx) if (!v) return BVal{};
  for (Value* v : bounds) if (!v) return BVal{};
  // order=p: tile (view) dim i is array dim p[i]. The op indexes the array in its own order
  // (coalesced, vectorized along its innermost axis); the tile is permuted in shared memory.
  std::vector<int64_t> order;
  if (a[3]) for (const tilec::Value& o : a[3]->value.elems) order.push_back(o.constant->i);
  std::vector<int64_t> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) inverse[size_t(order[i])] = int64_t(i);
  auto to_array_order = [&](std::vector<Value*> v) {
    if (order.empty() || v.empty()) return v;
    std::vector<Value*> out(v.size());
    for (size_t i = 0; i < order.size(); ++i) out[size_t(order[i])] = v[i];
    return out;
  };
  idx = to_array_order(idx);
  bounds = to_array_order(bounds);
  if (id == Builtin::Load) {
    std::vector<int64_t> array_shape = rv.tile.shape;
    for (size_t i = 0; i < order.size(); ++i) array_shape[size_t(order[i])] = rv.tile.shape[i];
    std::vector<Value*> ops{arrays_[arr]};
    ops.insert(ops.end(), idx.begin(), idx.end());
    ops.insert(ops.end(), bounds.begin(), bounds.end());
    Op* op = b_.create(OpKind::Load, e.range, ops, {Type::tile_of(arr->dtype, array_shape)});
    if (a[4]) op->value = convert_scalar(*a[4]->value.constant, a[4]->value.tile.dtype, arr->dtype);
    op->offsets = offset != nullptr;
    return BVal::of(order.empty() ? op->result() : permute(op->result(), order, e.range));
  }
  TILEC_ASSERT(id == Builtin::Store, "builtin_memory called for '" + std::string(builtin_sig(id).name) + "'");
  // store(order=p) writes tile dim i to array dim p[i]: permute into the array's order first.
  if (!order.empty()) t = permute(t, inverse, e.range);
  std::vector<Value*> ops{arrays_[arr], t};
  ops.insert(ops.end(), idx.begin(), idx.end());
  ops.insert(ops.end(), bounds.begin(), bounds.end());
  b_.create(OpKind::Store, e.range, ops, {})->offsets = offset != nullptr;
  return BVal{};
}

// ---------------------------------------------------------------------------------------------
// Element-index memory: gather, scatter, atomics

namespace {

// NumPy broadcasting of two shapes the checker has already found compatible.
std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1, y = i < b.size() ? b[b.size() - 1 - i] : 1;
    out[out.size() - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

ir::AtomicOp atomic_of(Builtin id) {
  switch (id) {
    case Builtin::AtomicMax: return ir::AtomicOp::Max;
    case Builtin::AtomicMin: return ir::AtomicOp::Min;
    case Builtin::AtomicAnd: return ir::AtomicOp::And;
    case Builtin::AtomicOr: return ir::AtomicOp::Or;
    case Builtin::AtomicXor: return ir::AtomicOp::Xor;
    case Builtin::AtomicXchg: return ir::AtomicOp::Xchg;
    case Builtin::AtomicCas: return ir::AtomicOp::Cas;
    default: return ir::AtomicOp::Add;
  }
}

}  // namespace

BVal IrBuilder::builtin_element_memory(Builtin id, const Expr& e, const Args& a) {
  const tilec::ArrayParam* arr = a[0]->value.array;
  // Indices: a tuple written out, a tuple value, or one tile for a rank-1 array.
  std::vector<Value*> idx;
  std::vector<const Expr*> idx_exprs;
  if (a[1]->kind == ExprKind::Tuple) {
    for (const ExprPtr& x : a[1]->args) idx_exprs.push_back(x.get());
  } else if (a[1]->value.kind == ValueKind::Tuple) {
    for (BVal& el : expr(*a[1]).elems) idx.push_back(el.v);
  } else {
    idx_exprs.push_back(a[1]);
  }
  for (const Expr* x : idx_exprs) idx.push_back(expr_dtype(*x, x->value.tile.dtype));
  for (Value* v : idx)
    if (!v) return BVal{};
  // Values (none for gather, two for atomic_cas) and the mask.
  size_t nvalues = id == Builtin::Gather ? 0 : id == Builtin::AtomicCas ? 2 : 1;
  const Expr* mask = a[id == Builtin::Gather ? 2 : 2 + nvalues];
  std::vector<int64_t> shape;
  for (Value* v : idx) shape = broadcast_shapes(shape, v->type.tile.shape);
  for (size_t i = 0; i < nvalues; ++i) shape = broadcast_shapes(shape, a[2 + i]->value.tile.shape);
  if (mask) shape = broadcast_shapes(shape, mask->value.tile.shape);
  std::vector<Value*> ops{arrays_[arr]};
  for (size_t i = 0; i < nvalues; ++i) ops.push_back(expr_as(*a[2 + i], arr->dtype, shape));
  for (Value* v : idx) ops.push_back(b_.broadcast_to(v, shape, e.range));
  if (mask) ops.push_back(expr_as(*mask, DType::Bool, shape));
  for (Value* v : ops)
    if (!v) return BVal{};
  OpKind k = id == Builtin::Gather ? OpKind::Gather : id == Builtin::Scatter ? OpKind::Scatter : OpKind::Atomic;
  std::vector<Type> results;
  if (k != OpKind::Scatter) results.push_back(Type::tile_of(arr->dtype, shape));
  Op* op = b_.create(k, e.range, ops, results);
  op->atomic = atomic_of(id);
  if (id == Builtin::Gather && a[3])
    op->value = convert_scalar(*a[3]->value.constant, a[3]->value.tile.dtype, arr->dtype);
  return k == OpKind::Scatter ? BVal{} : BVal{op->result(), {}, false};
}

}  // namespace tilec::ir
