// Tile IR construction from the checked AST. The checker has already decided every type, so
// this walk only materializes values: constants in the dtype their use needs, explicit
// broadcasts, structured control flow with loop-carried values. This file holds the kernel and
// its signature; ir_builder.h lists the files of the rest.
#include "ir/build.h"

#include "ir/ir_builder.h"

namespace tilec::ir {

void IrBuilder::build() {
  f_.name = k_.name;
  signature();
  // Arguments in the kernel ABI order: arrays, dimension extents, scalars.
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const KernelParam& p = k_.params[i];
    if (!p.is_array) continue;
    Value* v = b_.block_arg(&f_.body, Type{true, {}, f_.sig.params[i].array});
    v->name = p.name;
    arrays_[p.array] = v;
    env_.set_value(size_t(p.var), v);
  }
  for (const tilec::DimSymbol& d : k_.dims) {
    Value* v = b_.block_arg(&f_.body, Type::scalar(DType::I64));
    v->name = d.name;
    dims_[d.name] = v;
    if (d.var >= 0) env_.set_value(size_t(d.var), v);
  }
  for (const KernelParam& p : k_.params)
    if (!p.is_array) {
      Value* v = b_.block_arg(&f_.body, Type::scalar(p.dtype));
      v->name = p.name;
      env_.set_value(size_t(p.var), v);
    }
  block(k_.def->body);
}

void IrBuilder::signature() {
  Signature& s = f_.sig;
  s.name = k_.name;
  s.doc = k_.doc;
  s.range = k_.def->range;
  for (const KernelParam& p : k_.params) {
    Param ip{p.name, p.range, p.is_array, nullptr, p.dtype};
    if (p.is_array) {
      s.arrays.push_back(std::make_unique<ArrayParam>(ArrayParam{p.array->name, p.array->dtype, p.array->dims, p.array->index}));
      ip.array = s.arrays.back().get();
    }
    s.params.push_back(ip);
  }
  for (const tilec::DimSymbol& d : k_.dims) s.dims.push_back({d.name, d.first});
  for (const Expr* g : k_.grid) s.grid.push_back(grid_expr(*g));
  s.options = k_.options;
}

GridExpr IrBuilder::grid_expr(const Expr& e) {
  // The checker admits integers, dimension symbols, integer scalar parameters, + - * //,
  // cdiv, min, max, num_tiles and num_sms() in a grid, with constants folded.
  using K = GridExpr::Kind;
  const tilec::Value& v = e.value;
  if (v.is_const()) return GridExpr::constant(v.constant->i);
  auto arg = [&](size_t i) { return grid_expr(*e.args[i]); };
  switch (e.kind) {
    case ExprKind::Name: {
      GridExpr g;
      for (size_t i = 0; i < k_.dims.size(); ++i)
        if (k_.dims[i].var == e.var) return GridExpr{K::Dim, 0, int(i), {}};
      for (size_t i = 0; i < k_.params.size(); ++i)
        if (k_.params[i].var == e.var) return GridExpr{K::Scalar, 0, int(i), {}};
      break;
    }
    case ExprKind::Unary: return GridExpr::op(K::Neg, {arg(0)});
    case ExprKind::Binary: {
      K k = e.op == tilec::Op::Add ? K::Add : e.op == tilec::Op::Sub ? K::Sub : e.op == tilec::Op::Mul ? K::Mul : K::FloorDiv;
      return GridExpr::op(k, {arg(0), arg(1)});
    }
    case ExprKind::Call: {
      auto call_arg = [&](size_t i) { return grid_expr(*e.args[i + 1]); };
      switch (Builtin(e.args[0]->value.builtin)) {
        case Builtin::Cdiv: return GridExpr::op(K::Cdiv, {call_arg(0), call_arg(1)});
        case Builtin::Min: return GridExpr::op(K::Min, {call_arg(0), call_arg(1)});
        case Builtin::Max: return GridExpr::op(K::Max, {call_arg(0), call_arg(1)});
        case Builtin::NumSms: return GridExpr::op(K::NumSms, {});
        case Builtin::NumTiles: {
          // cdiv(extent of the (permuted) axis, tile size)
          const tilec::ArrayParam* arr = e.args[1]->value.array;
          std::vector<const Expr*> a;
          for (size_t i = 1; i < e.args.size(); ++i) a.push_back(e.args[i].get());
          const Expr* axis = a.size() > 1 ? a[1] : nullptr;
          const Expr* shape = a.size() > 2 ? a[2] : nullptr;
          const Expr* order = a.size() > 3 ? a[3] : nullptr;
          for (const Keyword& kw : e.kwargs) {
            if (kw.name == "axis") axis = kw.value.get();
            if (kw.name == "shape") shape = kw.value.get();
            if (kw.name == "order") order = kw.value.get();
          }
          int64_t ax = axis->value.constant->i;
          int rank = int(arr->dims.size());
          if (ax < 0) ax += rank;
          int64_t src = order ? order->value.elems[size_t(ax)].constant->i : ax;
          const tilec::Value& sv = shape->value;
          int64_t t = sv.kind == ValueKind::Tuple ? sv.elems[size_t(ax)].constant->i : sv.constant->i;
          const ArrayDim& d = arr->dims[size_t(src)];
          GridExpr extent = d.symbol.empty() ? GridExpr::constant(d.constant)
                                             : GridExpr{K::Dim, 0, f_.sig.dim_index(d.symbol), {}};
          return GridExpr::op(K::Cdiv, {extent, GridExpr::constant(t)});
        }
        default: break;
      }
      break;
    }
    default: break;
  }
  TILEC_ASSERT(false, "a grid expression the checker should have rejected");
  return GridExpr::constant(0);
}

std::unique_ptr<Function> build_kernel(const KernelInfo& k, DiagnosticEngine& diag, bool device_asserts) {
  auto f = std::make_unique<Function>();
  IrBuilder b(k, diag, *f, device_asserts);
  b.build();
  return f;
}

}  // namespace tilec::ir
