// Tile IR of expressions: constants in the dtype their use needs, explicit broadcasts, operators,
// attributes and subscripts, calls (built-ins by parameter slot, helpers inlined).
#include "basic/consteval.h"
#include "ir/ir_builder.h"

namespace tilec::ir {

// ---------------------------------------------------------------------------------------------
// Expressions

Value* IrBuilder::expr_dtype(const Expr& e, DType d) {
  const tilec::Value& cv = e.value;
  if (cv.is_const()) {
    Scalar s = cv.weak && is_float(cv.tile.dtype) && is_float(d) ? Scalar{0, round_float(cv.constant->f, d)}
                                                                  : convert_scalar(*cv.constant, cv.tile.dtype, d);
    return b_.constant(d, s, e.range);
  }
  BVal v = expr(e);
  if (!v.v) return nullptr;
  return b_.cast(v.v, d, e.range);
}

Value* IrBuilder::expr_as(const Expr& e, DType d, const std::vector<int64_t>& shape) {
  Value* v = expr_dtype(e, d);
  return v ? b_.broadcast_to(v, shape, e.range) : nullptr;
}

Value* IrBuilder::to_bool(Value* v, SourceRange loc) {
  if (!v || v->type.tile.dtype == DType::Bool) return v;
  Value* zero = b_.broadcast_to(b_.constant(v->type.tile.dtype, Scalar{0, 0}, loc), v->type.tile.shape, loc);
  return b_.cmp(tilec::Op::Ne, v, zero, loc);
}

Value* IrBuilder::mma(Value* x, Value* y, Value* c, SourceRange loc) {
  // Tiles smaller than one tensor-core instruction are padded per target by lowering
  // (codegen/lowering/mma_shape.h).
  return b_.create(OpKind::Mma, loc, {x, y, c}, {c->type})->result();
}

Value* IrBuilder::binary(tilec::Op op, const Expr& a, const Expr& b, DType operand,
                         const std::vector<int64_t>& shape, SourceRange loc) {
  if (op == tilec::Op::MatMul) {
    // a @ b: the operands in their promoted dtype, an f32 (i32 for i8, f64 for f64)
    // accumulator, the result in the operands' dtype (language.md §6.10).
    DType t = a.value.tile.dtype == b.value.tile.dtype ? a.value.tile.dtype : operand;
    if (is_integer(t) && t != DType::I8) {
      unsupported(loc, "@ on " + std::string(dtype_name(t)) + " tiles (the tensor cores multiply i8: mma on i8 tiles)");
      return nullptr;
    }
    // f32 products go to the f64 tensor cores (exact products, f64 sums, one rounding).
    if (t == DType::F32) t = DType::F64;
    Value* x = expr_dtype(a, t);
    Value* y = expr_dtype(b, t);
    if (!x || !y) return nullptr;
    DType acc = t == DType::I8 ? DType::I32 : t == DType::F64 ? DType::F64 : DType::F32;
    std::vector<int64_t> shape = {x->type.tile.shape[0], y->type.tile.shape[1]};
    if (x->type.tile.rank() != 2) {
      unsupported(loc, "a batched (3-D) @");
      return nullptr;
    }
    Value* zero = b_.broadcast_to(b_.constant(acc, Scalar{0, 0}, loc), shape, loc);
    return b_.cast(mma(x, y, zero, loc), operand, loc);
  }
  Value* x = expr_as(a, operand, shape);
  Value* y = expr_as(b, operand, shape);
  if (!x || !y) return nullptr;
  switch (op) {
    case tilec::Op::Add: return b_.binary(OpKind::Add, x, y, loc);
    case tilec::Op::Sub: return b_.binary(OpKind::Sub, x, y, loc);
    case tilec::Op::Mul: return b_.binary(OpKind::Mul, x, y, loc);
    case tilec::Op::Div: return b_.binary(OpKind::Div, x, y, loc);
    case tilec::Op::FloorDiv: return b_.binary(OpKind::FloorDiv, x, y, loc);
    case tilec::Op::Mod: return b_.binary(OpKind::Mod, x, y, loc);
    case tilec::Op::Pow: return b_.binary(OpKind::Pow, x, y, loc);
    case tilec::Op::BitAnd: return b_.binary(OpKind::And, x, y, loc);
    case tilec::Op::BitOr: return b_.binary(OpKind::Or, x, y, loc);
    case tilec::Op::BitXor: return b_.binary(OpKind::Xor, x, y, loc);
    case tilec::Op::Shl: return b_.binary(OpKind::Shl, x, y, loc);
    case tilec::Op::Shr: return b_.binary(OpKind::Shr, x, y, loc);
    default: return b_.cmp(op, x, y, loc);
  }
}

BVal IrBuilder::expr(const Expr& e) {
  const tilec::Value& cv = e.value;
  if (cv.is_const()) return BVal{b_.constant(cv.tile.dtype, convert_scalar(*cv.constant, cv.tile.dtype, cv.tile.dtype), e.range), {}, false};
  if (cv.kind == ValueKind::Tuple && e.kind != ExprKind::Call && e.kind != ExprKind::Name &&
      e.kind != ExprKind::Tuple && e.kind != ExprKind::Attribute && e.kind != ExprKind::Subscript) {
    // a constant tuple (shapes): never a runtime value
    return BVal{};
  }
  switch (e.kind) {
    case ExprKind::Name:
      if (e.var >= 0) return env_[size_t(e.var)];
      if (cv.kind == ValueKind::Array) return BVal{arrays_[cv.array], {}, false};
      if (cv.kind == ValueKind::Tuple) {
        // a tuple constant from the module
        BVal t;
        t.tuple = true;
        for (const tilec::Value& el : cv.elems)
          t.elems.push_back(el.is_const() ? BVal{b_.constant(el.tile.dtype, *el.constant, e.range), {}, false} : BVal{});
        return t;
      }
      return BVal{};
    case ExprKind::Tuple: {
      BVal t;
      t.tuple = true;
      for (const ExprPtr& a : e.args) t.elems.push_back(expr(*a));
      return t;
    }
    case ExprKind::Binary: {
      DType operand = cv.tile.dtype;
      return BVal{binary(e.op, *e.args[0], *e.args[1], operand, cv.tile.shape, e.range), {}, false};
    }
    case ExprKind::Compare: {
      Value* acc = nullptr;
      for (size_t i = 0; i < e.cmp_ops.size(); ++i) {
        Value* c = binary(e.cmp_ops[i], *e.args[i], *e.args[i + 1], e.cmp_dtypes[i], cv.tile.shape, e.range);
        if (!c) return BVal{};
        acc = acc ? b_.binary(OpKind::And, acc, c, e.range) : c;
      }
      return BVal{acc, {}, false};
    }
    case ExprKind::Unary: {
      Value* a = expr_as(*e.args[0], cv.tile.dtype, cv.tile.shape);
      if (!a) return BVal{};
      if (e.op == tilec::Op::Pos) return BVal{a, {}, false};
      return BVal{b_.unary(e.op == tilec::Op::Neg ? OpKind::Neg : OpKind::Not, a, e.range), {}, false};
    }
    case ExprKind::Not: {
      Value* a = to_bool(expr(*e.args[0]).v, e.range);
      return BVal{a ? b_.unary(OpKind::Not, a, e.range) : nullptr, {}, false};
    }
    case ExprKind::BoolOp: {
      Value* a = to_bool(expr(*e.args[0]).v, e.range);
      Value* b = to_bool(expr(*e.args[1]).v, e.range);
      if (!a || !b) return BVal{};
      return BVal{b_.binary(e.op == tilec::Op::And ? OpKind::And : OpKind::Or, a, b, e.range), {}, false};
    }
    case ExprKind::IfExp: {
      const tilec::Value& c = e.args[0]->value;
      if (c.is_const()) return expr(scalar_truth(*c.constant, c.tile.dtype) ? *e.args[1] : *e.args[2]);
      Value* cond = to_bool(expr(*e.args[0]).v, e.range);
      Value* x = expr_as(*e.args[1], cv.tile.dtype, cv.tile.shape);
      Value* y = expr_as(*e.args[2], cv.tile.dtype, cv.tile.shape);
      if (!cond || !x || !y) return BVal{};
      cond = b_.broadcast_to(cond, cv.tile.shape, e.range);
      return BVal{b_.create(OpKind::Select, e.range, {cond, x, y}, {x->type})->result(), {}, false};
    }
    case ExprKind::Call: return call(e);
    case ExprKind::Attribute: return attribute(e);
    case ExprKind::Subscript: return subscript(e);
    default: return BVal{};
  }
}

BVal IrBuilder::attribute(const Expr& e) {
  const tilec::Value& base = e.args[0]->value;
  if (base.kind == ValueKind::Array && e.name == "shape") {
    BVal t;
    t.tuple = true;
    for (const ArrayDim& d : base.array->dims)
      t.elems.push_back(d.symbol.empty() ? BVal{b_.constant(DType::I64, Scalar{d.constant, 0}, e.range), {}, false}
                                         : BVal{dims_[d.symbol], {}, false});
    return t;
  }
  return BVal{};  // module attributes and tile metadata are constants, handled above
}

BVal IrBuilder::subscript(const Expr& e) {
  const tilec::Value& base = e.args[0]->value;
  if (base.kind == ValueKind::Tuple) {
    BVal t = expr(*e.args[0]);
    int64_t i = e.args[1]->value.constant->i;
    int64_t n = int64_t(t.elems.size());
    return i < 0 ? t.elems[size_t(i + n)] : t.elems[size_t(i)];
  }
  BVal v = expr(*e.args[0]);
  if (!v.v) return BVal{};
  if (v.v->type.tile.shape == e.value.tile.shape) return v;
  Op* op = b_.create(OpKind::Reshape, e.range, {v.v}, {Type::tile_of(v.v->type.tile.dtype, e.value.tile.shape)});
  op->shape = e.value.tile.shape;
  return BVal{op->result(), {}, false};
}

BVal IrBuilder::call(const Expr& e) {
  if (e.inlined) return inline_helper(e);
  const tilec::Value& callee = e.args[0]->value;
  if (callee.kind == ValueKind::DTypeVal) {
    return BVal{expr_dtype(*e.args[1], callee.dtype), {}, false};
  }
  if (callee.kind != ValueKind::Builtin) return BVal{};
  const BuiltinSig& sig = builtin_sig(Builtin(callee.builtin));
  // Bind arguments to parameter slots the same way the checker did.
  std::vector<const Expr*> slots(sig.params.size(), nullptr);
  size_t p = 0;
  for (size_t i = 1; i < e.args.size(); ++i) {
    while (p < sig.params.size() && sig.params[p].keyword_only && !sig.params[p].rest) ++p;
    if (p < sig.params.size() && !sig.params[p].rest) slots[p++] = e.args[i].get();
  }
  for (const Keyword& kw : e.kwargs)
    for (size_t i = 0; i < sig.params.size(); ++i)
      if (sig.params[i].name == kw.name) slots[i] = kw.value.get();
  return builtin(sig.id, e, slots);
}

BVal IrBuilder::inline_helper(const Expr& e) {
  if (!ret_) return inline_body(e);
  // Inside a helper with an early return, `if not returned` carries every variable its rest
  // changes: forget the callee's locals (the caller's variables do not change).
  BuildEnv::Mark saved = env_.open();
  BVal r = inline_body(e);
  env_.rollback(saved);
  return r;
}

BVal IrBuilder::inline_body(const Expr& e) {
  const Stmt& def = *e.inlined;
  // Bind parameters: positional, keywords, then the checked defaults of the copy.
  std::vector<BVal> values(def.params.size());
  std::vector<bool> given(def.params.size(), false);
  for (size_t i = 1; i < e.args.size(); ++i) {
    values[i - 1] = expr(*e.args[i]);
    given[i - 1] = true;
  }
  for (const Keyword& kw : e.kwargs)
    for (size_t i = 0; i < def.params.size(); ++i)
      if (def.params[i].name == kw.name) {
        values[i] = expr(*kw.value);
        given[i] = true;
      }
  for (size_t i = 0; i < def.params.size(); ++i) {
    if (!given[i] && def.params[i].default_value) values[i] = expr(*def.params[i].default_value);
    if (def.params[i].var >= 0) env_.set(size_t(def.params[i].var), values[i]);
  }
  // A helper whose only `return` is its last statement inlines as straight-line code.
  if (!has_early_return(def.body)) {
    std::vector<BVal> returns;
    std::vector<BVal>* saved = returns_;
    HelperReturn* saved_ret = ret_;
    returns_ = &returns;
    ret_ = nullptr;
    block(def.body);
    returns_ = saved;
    ret_ = saved_ret;
    if (returns.empty()) return BVal{};
    // Constant results were already folded by the checker; otherwise take the value built.
    if (e.value.is_const()) return expr(e);
    BVal r = returns.back();
    if (r.v && e.value.kind == ValueKind::Tile && r.v->type.tile.dtype != e.value.tile.dtype)
      r.v = b_.cast(r.v, e.value.tile.dtype, e.range);
    return r;
  }
  // An early return: the flag and the result in two extra slots of env_.
  HelperReturn hr;
  hr.flag = env_.size();
  hr.result = hr.flag + 1;
  hr.no = b_.constant(DType::Bool, Scalar{0, 0}, e.range);
  hr.yes = b_.constant(DType::Bool, Scalar{1, 0}, e.range);
  hr.loops = loops_.size();
  hr.type = &e.value;
  env_.resize(hr.flag + 2);
  env_.set_value(hr.flag, hr.no);
  std::vector<BVal>* saved = returns_;
  HelperReturn* saved_ret = ret_;
  returns_ = nullptr;
  ret_ = &hr;
  block(def.body);
  returns_ = saved;
  ret_ = saved_ret;
  BVal r = env_[hr.result];
  env_.resize(hr.flag);
  if (failed_) return BVal{};
  if (e.value.is_const()) return expr(e);
  return r;
}

Value* IrBuilder::permute(Value* v, const std::vector<int64_t>& order, SourceRange loc) {
  bool identity = true;
  for (size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == int64_t(i);
  if (identity) return v;
  std::vector<int64_t> shape;
  for (int64_t o : order) shape.push_back(v->type.tile.shape[size_t(o)]);
  Op* op = b_.create(OpKind::Permute, loc, {v}, {Type::tile_of(v->type.tile.dtype, shape)});
  op->order = order;
  return op->result();
}

}  // namespace tilec::ir
