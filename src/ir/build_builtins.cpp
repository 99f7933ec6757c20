// Tile IR of the built-in functions: the dispatch by family (frontend/builtins.h, as the checker
// dispatches), then the small families: grid and index built-ins, tile constructors, shape
// operations, conversions, elementwise functions, mma, print and static_assert. Memory
// (build_memory.cpp) and reductions (build_reduce.cpp) have their own files.
#include <optional>

#include "basic/consteval.h"
#include "ir/ir_builder.h"

namespace tilec::ir {

BVal IrBuilder::builtin(Builtin id, const Expr& e, const Args& a) {
  switch (builtin_family(id)) {
    case BuiltinFamily::Grid: return builtin_grid(id, e, a);
    case BuiltinFamily::Memory: return builtin_memory(id, e, a);
    case BuiltinFamily::ElementMemory: return builtin_element_memory(id, e, a);
    case BuiltinFamily::Make: return builtin_make(id, e, a);
    case BuiltinFamily::Shape: return builtin_shape(id, e, a);
    case BuiltinFamily::Convert: return builtin_convert(id, e, a);
    case BuiltinFamily::Elementwise: return builtin_elementwise(id, e, a);
    case BuiltinFamily::Reduce: return builtin_reduce(id, e, a);
    case BuiltinFamily::Histogram: return builtin_histogram(e, a);
    case BuiltinFamily::Mma: return builtin_mma(e, a);
    case BuiltinFamily::Debug: return builtin_debug(id, e, a);
    case BuiltinFamily::Range:   // only as a `for` loop's iterable (build_for)
    case BuiltinFamily::Kernel:  // only as a decorator
      break;
  }
  unsupported(e.range, std::string("'") + std::string(builtin_sig(id).name) + "'");
  return BVal{};
}

// ---------------------------------------------------------------------------------------------
// Grid and index built-ins

BVal IrBuilder::builtin_grid(Builtin id, const Expr& e, const Args& a) {
  const tilec::Value& rv = e.value;
  switch (id) {
    case Builtin::Bid:
    case Builtin::NumBlocks: {
      Op* op = b_.create(id == Builtin::Bid ? OpKind::BlockId : OpKind::NumBlocks, e.range, {}, {Type::scalar(DType::I32)});
      op->axis = int(a[0]->value.constant->i);
      return BVal::of(op->result());
    }
    case Builtin::NumSms: return BVal::of(b_.create(OpKind::NumSms, e.range, {}, {Type::scalar(DType::I32)})->result());
    case Builtin::Cdiv: {
      // cdiv(a, b) = -((-a) // b): Python floor semantics also for negative operands.
      DType t = rv.tile.dtype;
      Value* x = expr_as(*a[0], t, {});
      Value* y = expr_as(*a[1], t, {});
      Value* q = b_.binary(OpKind::FloorDiv, b_.unary(OpKind::Neg, x, e.range), y, e.range);
      return BVal::of(b_.unary(OpKind::Neg, q, e.range));
    }
    case Builtin::Swizzle2d: {
      // Grouped tile order (language.md §7.1, Triton's matmul tutorial): GROUP rows of tiles
      // are walked column by column so that consecutive CTAs share A and B tiles in L2. Both
      // coordinates come from i's position inside its band, i % width: the last band may have
      // fewer than GROUP rows, and then i % rows is not (i % width) % rows.
      DType t = rv.elems[0].tile.dtype;
      Value* i = expr_as(*a[0], t, {});
      Value* nm = expr_as(*a[1], t, {});
      Value* nn = expr_as(*a[2], t, {});
      Value* g = expr_as(*a[3], t, {});
      SourceRange l = e.range;
      Value* width = b_.binary(OpKind::Mul, g, nn, l);
      Value* group_id = b_.binary(OpKind::FloorDiv, i, width, l);
      Value* first_m = b_.binary(OpKind::Mul, group_id, g, l);
      Value* group_size = b_.binary(OpKind::Min, b_.binary(OpKind::Sub, nm, first_m, l), g, l);
      Value* in_band = b_.binary(OpKind::Mod, i, width, l);
      Value* im = b_.binary(OpKind::Add, first_m, b_.binary(OpKind::Mod, in_band, group_size, l), l);
      Value* in = b_.binary(OpKind::FloorDiv, in_band, group_size, l);
      BVal r;
      r.tuple = true;
      r.elems = {BVal::of(im), BVal::of(in)};
      return r;
    }
    case Builtin::NumTiles: {
      // cdiv(extent of the (permuted) axis, tile size), computed in i64.
      const tilec::ArrayParam* arr = a[0]->value.array;
      int rank = int(arr->dims.size());
      int64_t axis = a[1]->value.constant->i;
      if (axis < 0) axis += rank;
      std::vector<int64_t> perm;
      if (a[3]) for (const tilec::Value& o : a[3]->value.elems) perm.push_back(o.constant->i);
      int64_t src = perm.empty() ? axis : perm[size_t(axis)];
      const std::vector<tilec::Value>& sh = a[2]->value.kind == ValueKind::Tuple ? a[2]->value.elems
                                                                                : std::vector<tilec::Value>{a[2]->value};
      int64_t t = sh[size_t(axis)].constant->i;
      Value* n = dims_[arr->dims[size_t(src)].symbol];
      Value* tv = b_.constant(DType::I64, Scalar{t, 0}, e.range);
      Value* q = b_.binary(OpKind::FloorDiv, b_.unary(OpKind::Neg, n, e.range), tv, e.range);
      return BVal::of(b_.unary(OpKind::Neg, q, e.range));
    }
    default: break;
  }
  TILEC_ASSERT(false, "builtin_grid called for '" + std::string(builtin_sig(id).name) + "'");
  return BVal{};
}

// ---------------------------------------------------------------------------------------------
// Tile constructors

BVal IrBuilder::builtin_make(Builtin id, const Expr& e, const Args& a) {
  const tilec::Value& rv = e.value;
  switch (id) {
    case Builtin::Arange: {
      Op* op = b_.create(OpKind::Iota, e.range, {}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      op->shape = rv.tile.shape;
      op->dtype = rv.tile.dtype;
      return BVal::of(op->result());
    }
    case Builtin::Full: {
      Value* v = expr_dtype(*a[1], rv.tile.dtype);
      return BVal::of(v ? b_.broadcast_to(v, rv.tile.shape, e.range) : nullptr);
    }
    case Builtin::Zeros:
    case Builtin::Ones: {
      Value* v = b_.constant(rv.tile.dtype, convert_scalar(Scalar{id == Builtin::Ones, 0}, DType::I32, rv.tile.dtype), e.range);
      return BVal::of(b_.broadcast_to(v, rv.tile.shape, e.range));
    }
    default: break;
  }
  TILEC_ASSERT(false, "builtin_make called for '" + std::string(builtin_sig(id).name) + "'");
  return BVal{};
}

// ---------------------------------------------------------------------------------------------
// Shape operations

BVal IrBuilder::builtin_shape(Builtin id, const Expr& e, const Args& a) {
  const tilec::Value& rv = e.value;
  switch (id) {
    case Builtin::Reshape:
    case Builtin::ExpandDims: {
      BVal x = expr(*a[0]);
      if (!x.v) return BVal{};
      Op* op = b_.create(OpKind::Reshape, e.range, {x.v}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      op->shape = rv.tile.shape;
      return BVal::of(op->result());
    }
    case Builtin::Permute:
    case Builtin::Transpose: {
      BVal x = expr(*a[0]);
      if (!x.v) return BVal{};
      int rank = x.v->type.tile.rank();
      std::vector<int64_t> order(static_cast<size_t>(rank));
      for (int i = 0; i < rank; ++i) order[size_t(i)] = i;
      if (id == Builtin::Permute) {
        order.clear();
        const tilec::Value& dv = a[1]->value;
        for (const tilec::Value& v : dv.kind == ValueKind::Tuple ? dv.elems : std::vector<tilec::Value>{dv})
          order.push_back(v.constant->i);
      } else {
        int64_t x0 = a[1] ? a[1]->value.constant->i : rank - 2, x1 = a[2] ? a[2]->value.constant->i : rank - 1;
        if (x0 < 0) x0 += rank;
        if (x1 < 0) x1 += rank;
        std::swap(order[size_t(x0)], order[size_t(x1)]);
      }
      return BVal::of(permute(x.v, order, e.range));
    }
    case Builtin::BroadcastTo: {
      BVal x = expr(*a[0]);
      return BVal::of(x.v ? b_.broadcast_to(x.v, rv.tile.shape, e.range) : nullptr);
    }
    case Builtin::Cat: {
      Value* x = expr(*a[0]).v;
      Value* y = expr(*a[1]).v;
      if (!x || !y) return BVal{};
      int64_t axis = a[2]->value.constant->i;
      Op* op = b_.create(OpKind::Cat, e.range, {x, y}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      op->axis = int(axis < 0 ? axis + x->type.tile.rank() : axis);
      return BVal::of(op->result());
    }
    case Builtin::Extract: {
      Value* x = expr(*a[0]).v;
      if (!x) return BVal{};
      if (x->type.tile.shape == rv.tile.shape) return BVal::of(x);  // the whole tile
      Op* op = b_.create(OpKind::Extract, e.range, {x}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
      const tilec::Value& iv = a[1]->value;
      for (const tilec::Value& v : iv.kind == ValueKind::Tuple ? iv.elems : std::vector<tilec::Value>{iv})
        op->order.push_back(v.constant->i);
      return BVal::of(op->result());
    }
    default: break;
  }
  TILEC_ASSERT(false, "builtin_shape called for '" + std::string(builtin_sig(id).name) + "'");
  return BVal{};
}

// ---------------------------------------------------------------------------------------------
// Conversions

BVal IrBuilder::builtin_convert(Builtin id, const Expr& e, const Args& a) {
  const tilec::Value& rv = e.value;
  if (id == Builtin::Astype) return BVal::of(expr_dtype(*a[0], rv.tile.dtype));
  TILEC_ASSERT(id == Builtin::Bitcast, "builtin_convert called for '" + std::string(builtin_sig(id).name) + "'");
  BVal x = expr(*a[0]);
  if (!x.v) return BVal{};
  Op* op = b_.create(OpKind::Bitcast, e.range, {x.v}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
  op->dtype = rv.tile.dtype;
  return BVal::of(op->result());
}

// ---------------------------------------------------------------------------------------------
// Elementwise functions

namespace {

// The op of a one-operand math function; none when `id` is not one.
std::optional<OpKind> unary_math_op(Builtin id) {
  switch (id) {
    case Builtin::Abs: return OpKind::Abs;
#define X(e, name, extra) \
  case Builtin::e: return OpKind::e;
    TILEC_MATH_FUNCTIONS(X, _)
#undef X
    case Builtin::Floor: return OpKind::Floor;
    case Builtin::Ceil: return OpKind::Ceil;
    default: return std::nullopt;
  }
}

}  // namespace

BVal IrBuilder::builtin_elementwise(Builtin id, const Expr& e, const Args& a) {
  const tilec::Value& rv = e.value;
  switch (id) {
    case Builtin::Minimum:
    case Builtin::Maximum: {
      Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
      Value* y = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      if (!x || !y) return BVal{};
      return BVal::of(b_.binary(id == Builtin::Maximum ? OpKind::Max : OpKind::Min, x, y, e.range));
    }
    case Builtin::Clamp: {
      // minimum(maximum(x, lo), hi): NaN in any operand propagates; lo > hi gives hi (PyTorch's
      // clamp).
      Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
      Value* lo = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      Value* hi = expr_as(*a[2], rv.tile.dtype, rv.tile.shape);
      if (!x || !lo || !hi) return BVal{};
      return BVal::of(b_.binary(OpKind::Min, b_.binary(OpKind::Max, x, lo, e.range), hi, e.range));
    }
    case Builtin::Where: {
      Value* c = b_.broadcast_to(expr(*a[0]).v, rv.tile.shape, e.range);
      Value* x = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      Value* y = expr_as(*a[2], rv.tile.dtype, rv.tile.shape);
      if (!c || !x || !y) return BVal{};
      return BVal::of(b_.create(OpKind::Select, e.range, {c, x, y}, {x->type})->result());
    }
    case Builtin::Fma: {
      Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
      Value* y = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      Value* z = expr_as(*a[2], rv.tile.dtype, rv.tile.shape);
      if (!x || !y || !z) return BVal{};
      return BVal::of(b_.create(OpKind::Fma, e.range, {x, y, z}, {x->type})->result());
    }
    case Builtin::Pow: {
      Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
      Value* y = expr_as(*a[1], rv.tile.dtype, rv.tile.shape);
      if (!x || !y) return BVal{};
      Op* op = b_.create(OpKind::Pow, e.range, {x, y}, {x->type});
      if (a[2]) op->approx = a[2]->value.constant->i != 0;
      return BVal::of(op->result());
    }
    case Builtin::Isnan: {
      Value* x = expr_as(*a[0], a[0]->value.tile.dtype, rv.tile.shape);
      return BVal::of(x ? b_.unary(OpKind::IsNan, x, e.range) : nullptr);
    }
    default: break;
  }
  std::optional<OpKind> k = unary_math_op(id);
  TILEC_ASSERT(k.has_value(), "builtin_elementwise called for '" + std::string(builtin_sig(id).name) + "'");
  // x, *, approx=: the operand in the result's dtype and shape.
  Value* x = expr_as(*a[0], rv.tile.dtype, rv.tile.shape);
  if (!x) return BVal{};
  Op* op = b_.create(*k, e.range, {x}, {Type::tile_of(rv.tile.dtype, rv.tile.shape)});
  if (a.size() > 1 && a[1] && a[1]->value.is_const()) op->approx = a[1]->value.constant->i != 0;
  return BVal::of(op->result());
}

// ---------------------------------------------------------------------------------------------
// Matrix multiply-accumulate (§6.10)

BVal IrBuilder::builtin_mma(const Expr& e, const Args& a) {
  Value* x = expr(*a[0]).v;
  Value* y = expr(*a[1]).v;
  Value* c = expr_dtype(*a[2], a[2]->value.tile.dtype);
  if (!x || !y || !c) return BVal{};
  // A batch of one (the batched_matmul sample's (1, M, K) tiles): the 2-D product.
  if (x->type.tile.rank() == 3) {
    if (x->type.tile.shape[0] != 1) {
      unsupported(e.range, "a batched mma with more than one matrix per tile");
      return BVal{};
    }
    auto drop = [&](Value* v) {
      std::vector<int64_t> s(v->type.tile.shape.begin() + 1, v->type.tile.shape.end());
      Op* r = b_.create(OpKind::Reshape, e.range, {v}, {Type::tile_of(v->type.tile.dtype, s)});
      r->shape = s;
      return r->result();
    };
    // One statement each: the order of a call's arguments is unspecified (GCC evaluates them
    // last to first, Clang first to last), and the reshapes' order is the IR's numbering, so
    // tilec built by either compiler writes the same output. c, y, x: the order GCC gave.
    Value* c2 = drop(c);
    Value* y2 = drop(y);
    Value* x2 = drop(x);
    Value* m = mma(x2, y2, c2, e.range);
    Op* r = b_.create(OpKind::Reshape, e.range, {m}, {c->type});
    r->shape = c->type.tile.shape;
    return BVal::of(r->result());
  }
  return BVal::of(mma(x, y, c, e.range));
}

// ---------------------------------------------------------------------------------------------
// print, static_assert

BVal IrBuilder::builtin_debug(Builtin id, const Expr& e, const Args& a) {
  if (id == Builtin::StaticAssert) return BVal{};  // checked, and nothing at run time
  TILEC_ASSERT(id == Builtin::Print, "builtin_debug called for '" + std::string(builtin_sig(id).name) + "'");
  std::vector<Value*> args;
  for (size_t i = 2; i < e.args.size(); ++i) {
    BVal v = expr(*e.args[i]);
    if (!v.v) v.v = expr_dtype(*e.args[i], e.args[i]->value.tile.dtype);
    args.push_back(v.v);
  }
  Op* op = b_.create(OpKind::Print, e.range, args, {});
  op->text = a[0]->value.text;
  return BVal{};
}

}  // namespace tilec::ir
