// The built-in functions: argument binding against the signatures of builtins.h, then the
// typing rule of each family (language.md §5, §6).
#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "frontend/checker.h"
#include "basic/consteval.h"
#include "basic/spelling.h"

namespace tilec {
namespace {

// §6.6: sums and products of bool and narrow integers accumulate in 32 bits.
DType accumulate_dtype(DType t) {
  if (t == DType::Bool || t == DType::I8 || t == DType::I16) return DType::I32;
  if (t == DType::U8 || t == DType::U16) return DType::U32;
  return t;
}

// Counts printf conversions in `fmt` ("%d", "%5.2f"; "%%" is not one).
int count_conversions(const std::string& fmt) {
  int n = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') continue;
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      ++i;
      continue;
    }
    ++n;
  }
  return n;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Argument binding and shared argument checks

bool Checker::bind_args(const BuiltinSig& sig, Expr& call, BoundArgs& out) {
  out.call = &call;
  out.slot.assign(sig.params.size(), nullptr);
  bool ok = true;
  size_t p = 0;
  for (size_t i = 1; i < call.args.size(); ++i) {
    Expr* arg = call.args[i].get();
    while (p < sig.params.size() && !sig.params[p].rest && sig.params[p].keyword_only) ++p;
    if (p < sig.params.size() && sig.params[p].rest) {
      out.rest.push_back(arg);
      continue;
    }
    if (p >= sig.params.size()) {
      std::string hint;
      if ((sig.id == Builtin::Sum || sig.id == Builtin::Prod || sig.id == Builtin::Argmax || sig.id == Builtin::Argmin ||
           sig.id == Builtin::Cumsum || sig.id == Builtin::Cumprod))
        hint = "; axis is keyword-only: write axis=...";
      diag_.error(arg->range, fmt::format("too many arguments: {}{}", sig.spelling, hint));
      return false;
    }
    out.slot[p++] = arg;
  }
  for (Keyword& k : call.kwargs) {
    auto it = std::find_if(sig.params.begin(), sig.params.end(),
                           [&](const BuiltinParam& q) { return q.name == k.name && !q.rest; });
    if (it == sig.params.end()) {
      std::vector<std::string> names;
      for (const BuiltinParam& q : sig.params)
        if (!q.rest) names.push_back(q.name);
      diag_.error(k.name_range, "unknown keyword argument '" + k.name + "': " + std::string(sig.spelling) +
                                    did_you_mean(k.name, names));
      ok = false;
      continue;
    }
    size_t i = size_t(it - sig.params.begin());
    if (out.slot[i]) {
      diag_.error(k.name_range, "argument '" + k.name + "' given twice");
      ok = false;
      continue;
    }
    out.slot[i] = k.value.get();
  }
  for (size_t i = 0; i < sig.params.size(); ++i)
    if (sig.params[i].required && !out.slot[i]) {
      diag_.error(call.range, "missing argument '" + sig.params[i].name + "': " + std::string(sig.spelling));
      ok = false;
    }
  return ok;
}

// "a run-time i32 scalar" for a value that has the right type but is not a constant.
static std::string describe_nonconst(const Value& v) {
  return v.is_tile() && !v.constant ? "a run-time " + describe(v) : describe(v);
}

std::optional<int64_t> Checker::const_int(Expr* e, const char* what) {
  const Value& v = e->value;
  if (v.is_error()) return std::nullopt;
  if (!v.is_const() || !(is_integer(v.tile.dtype) || v.tile.dtype == DType::Bool)) {
    diag_.error(e->range, std::string(what) + " must be a compile-time integer, not " + describe_nonconst(v));
    return std::nullopt;
  }
  return v.constant->i;
}

std::optional<std::vector<int64_t>> Checker::const_shape(Expr* e, const char* what) {
  const Value& v = e->value;
  if (v.is_error()) return std::nullopt;
  std::vector<const Value*> elems;
  if (v.kind == ValueKind::Tuple)
    for (const Value& x : v.elems) elems.push_back(&x);
  else
    elems.push_back(&v);
  std::vector<int64_t> shape;
  for (const Value* x : elems) {
    if (!x->is_const() || !is_integer(x->tile.dtype)) {
      Diagnostic& d = diag_.error(e->range, std::string(what) + " must be a compile-time integer or a tuple of "
                                                "them, not " + describe_nonconst(*x));
      if (x->kind == ValueKind::Tile && x->is_scalar() && is_integer(x->tile.dtype))  // `shape=(1, N)`, N an extent
        DiagnosticEngine::note(d, e->range,
                               std::string("tile shapes are compile-time constants: take a constant size that is large "
                                           "enough (a power of two, such as a module constant TILE) and mask the "
                                           "elements past the extent (arange(TILE) < n") +
                                   (std::string_view(what).rfind("load", 0) == 0 ? "; the load reads padding there"
                                                                                 : "") +
                                   "), or loop over the extent in tiles: for j in range(cdiv(n, TILE))");
      return std::nullopt;
    }
    shape.push_back(x->constant->i);
  }
  if (!check_tile_shape(shape, *e)) return std::nullopt;
  return shape;
}

std::optional<DType> Checker::const_dtype(Expr* e, const char* what) {
  const Value& v = e->value;
  if (v.is_error()) return std::nullopt;
  if (v.kind != ValueKind::DTypeVal) {
    diag_.error(e->range, std::string(what) + " must be a dtype such as f32, not " + describe(v));
    return std::nullopt;
  }
  return v.dtype;
}

bool Checker::expect_tile(Expr* e, const char* what) {
  if (e->value.is_error()) return false;
  if (e->value.kind != ValueKind::Tile) {
    diag_.error(e->range, std::string(what) + " must be a tile or scalar, not " + describe(e->value));
    return false;
  }
  if (is_restricted(e->value.tile.dtype)) {
    diag_.error(e->range, "dtype " + std::string(dtype_name(e->value.tile.dtype)) +
                              " is only for mma operands; convert with astype()");
    return false;
  }
  return true;
}

bool Checker::literal_fits(const Value& v, DType dtype, Expr& e, const std::string& whose) {
  if (!v.weak || !v.constant || !is_integer(dtype) || !is_integer(v.tile.dtype)) return true;
  if (int_fits(*v.constant, v.tile.dtype, dtype)) return true;
  diag_.error(e.range, "literal " + const_spelling(v) + " does not fit in " + std::string(dtype_name(dtype)) + ", " +
                           whose);
  return false;
}

bool Checker::expect_scalar_int(Expr* e, const char* what) {
  if (e->value.is_error()) return false;
  if (!e->value.is_scalar() || !is_integer(e->value.tile.dtype)) {
    diag_.error(e->range, std::string(what) + " must be an integer scalar, not " + describe(e->value));
    return false;
  }
  return true;
}

std::optional<int> Checker::normalize_axis(int64_t axis, int rank, Expr* where, const char* subject) {
  if (axis < -rank || axis >= rank) {
    diag_.error(where->range, fmt::format("axis {} is out of range for {} of rank {}", axis, subject, rank));
    return std::nullopt;
  }
  return int(axis < 0 ? axis + rank : axis);
}

Value Checker::call_builtin(const BuiltinSig& sig, Expr& call) {
  BoundArgs a;
  if (!bind_args(sig, call, a)) {
    for (size_t i = 1; i < call.args.size(); ++i) check_expr(*call.args[i]);
    for (Keyword& k : call.kwargs) check_expr(*k.value);
    return Value::error();
  }
  bool ok = true;
  for (size_t i = 1; i < call.args.size(); ++i) ok = !check_expr(*call.args[i]).is_error() && ok;
  for (Keyword& k : call.kwargs) ok = !check_expr(*k.value).is_error() && ok;
  if (!ok) return Value::error();
  bool needs_kernel = sig.id == Builtin::Bid || sig.id == Builtin::NumBlocks || sig.id == Builtin::Load ||
                      sig.id == Builtin::Store || sig.id == Builtin::Print;
  if (needs_kernel && !kernel_) {
    diag_.error(call.range, std::string(sig.name) + "() can only be used inside a kernel");
    return Value::error();
  }
  switch (builtin_family(sig.id)) {
    case BuiltinFamily::Grid: return builtin_grid(sig.id, a);
    case BuiltinFamily::Memory: return builtin_memory(sig.id, a);
    case BuiltinFamily::ElementMemory: return builtin_element_memory(sig.id, a);
    case BuiltinFamily::Make: return builtin_make(sig.id, a);
    case BuiltinFamily::Shape: return builtin_shape(sig.id, a);
    case BuiltinFamily::Convert: return builtin_convert(sig.id, a);
    case BuiltinFamily::Elementwise: return builtin_elementwise(sig.id, a);
    case BuiltinFamily::Reduce: return builtin_reduce(sig.id, a);
    case BuiltinFamily::Histogram: return builtin_histogram(a);
    case BuiltinFamily::Mma: return builtin_mma(a);
    case BuiltinFamily::Debug: return builtin_debug(sig.id, a);
    case BuiltinFamily::Range: return builtin_range(a);
    case BuiltinFamily::Kernel: return Value::error();
  }
  return Value::error();  // not reached: the switch names every family
}

// ---------------------------------------------------------------------------------------------
// Grid and index built-ins

Value Checker::builtin_grid(Builtin b, BoundArgs& a) {
  switch (b) {
    case Builtin::Bid:
    case Builtin::NumBlocks: {
      std::optional<int64_t> axis = const_int(a.get(0), "the grid axis");
      if (!axis) return Value::error();
      if (*axis < 0 || *axis > 2) {
        diag_.error(a.get(0)->range, fmt::format("grid axis {} is out of range: it must be 0, 1 or 2", *axis));
        return Value::error();
      }
      if (kernel_ && *axis >= int64_t(kernel_->grid_axes) && kernel_->grid_axes > 0)
        diag_.warning(Warning::GridAxis, a.get(0)->range,
                      fmt::format("the grid has {} dimension(s); axis {} is always {}", kernel_->grid_axes, *axis,
                                  b == Builtin::Bid ? 0 : 1));
      return Value::make_scalar(DType::I32);
    }
    case Builtin::NumSms: return Value::make_scalar(DType::I32);
    case Builtin::Cdiv: {
      if (!expect_scalar_int(a.get(0), "cdiv's first argument") || !expect_scalar_int(a.get(1), "cdiv's second argument"))
        return Value::error();
      const Value &x = a.get(0)->value, &y = a.get(1)->value;
      if (!x.constant && grid_divides_by_zero(y, *a.get(1))) return Value::error();
      std::optional<DType> t = promote(x, y, *a.call, *a.get(0), *a.get(1));
      if (!t) return Value::error();
      Value r = Value::make_scalar(*t);
      r.weak = x.weak && y.weak;
      if (x.constant && y.constant) {
        // cdiv(a, b) = -((-a) // b), Python semantics; literal-only operands fold in 64 bits.
        DType ft = r.weak ? DType::I64 : *t;
        Scalar sx = convert_scalar(*x.constant, x.tile.dtype, ft), sy = convert_scalar(*y.constant, y.tile.dtype, ft);
        std::string error;
        std::optional<Scalar> q = fold_binary(Op::FloorDiv, ft, fold_unary(Op::Neg, ft, sx), sy, ft, error);
        if (!q) {
          diag_.error(a.call->range, error);
          return Value::error();
        }
        r.constant = fold_unary(Op::Neg, ft, *q);
        if (r.weak) r.tile.dtype = r.constant->i >= INT32_MIN && r.constant->i <= INT32_MAX ? DType::I32 : DType::I64;
      }
      return r;
    }
    case Builtin::NumTiles: {
      const Value& arr = a.get(0)->value;
      if (arr.kind != ValueKind::Array) {
        diag_.error(a.get(0)->range, "num_tiles takes an array, not " + describe(arr));
        return Value::error();
      }
      int rank = int(arr.array->dims.size());
      std::optional<int64_t> axis = const_int(a.get(1), "num_tiles' axis");
      std::optional<std::vector<int64_t>> shape = const_shape(a.get(2), "num_tiles' shape");
      if (!axis || !shape) return Value::error();
      if (int(shape->size()) != rank) {
        diag_.error(a.get(2)->range, fmt::format("shape has {} dimensions but the array has {}", shape->size(), rank));
        return Value::error();
      }
      std::vector<int64_t> perm(static_cast<size_t>(rank));
      std::iota(perm.begin(), perm.end(), 0);
      if (a.get(3)) {
        std::optional<std::vector<int64_t>> order;
        const Value& ov = a.get(3)->value;
        std::vector<int64_t> p;
        for (const Value& e : ov.kind == ValueKind::Tuple ? ov.elems : std::vector<Value>{ov})
          if (e.is_const()) p.push_back(e.constant->i);
        std::vector<int64_t> sorted = p;
        std::sort(sorted.begin(), sorted.end());
        if (sorted != perm) {
          diag_.error(a.get(3)->range, fmt::format("order must be a permutation of 0..{}", rank - 1));
          return Value::error();
        }
        perm = p;
      }
      std::optional<int> ax = normalize_axis(*axis, rank, a.get(1), "an array");
      if (!ax) return Value::error();
      const ArrayDim& d = arr.array->dims[size_t(perm[size_t(*ax)])];
      if (d.symbol.empty()) {
        int64_t t = (*shape)[size_t(*ax)];
        return Value::make_const(DType::I64, Scalar{d.constant / t + (d.constant % t != 0), 0});  // no overflow near 2^63
      }
      return Value::make_scalar(DType::I64);
    }
    case Builtin::Swizzle2d: {
      for (size_t i = 0; i < 4; ++i)
        if (!expect_scalar_int(a.get(i), "swizzle2d's arguments")) return Value::error();
      for (size_t i = 1; i < 4; ++i) {
        const Value& v = a.get(i)->value;
        bool nonpositive = v.constant && (is_signed_int(v.tile.dtype) ? v.constant->i <= 0 : v.constant->i == 0);
        if (nonpositive) {
          diag_.error(a.get(i)->range, fmt::format("swizzle2d's {} must be positive, not {}",
                                                   builtin_sig(Builtin::Swizzle2d).params[i].name, v.constant->i));
          return Value::error();
        }
      }
      Value acc = a.get(0)->value;
      for (size_t i = 1; i < 4; ++i) {
        std::optional<DType> t = promote(acc, a.get(i)->value, *a.call, *a.get(0), *a.get(i));
        if (!t) return Value::error();
        bool weak = acc.weak && a.get(i)->value.weak;
        acc = Value::make_scalar(*t);
        acc.weak = weak;
      }
      Value r;
      r.kind = ValueKind::Tuple;
      Value elem = Value::make_scalar(acc.tile.dtype);
      r.elems = {elem, elem};
      return r;
    }
    default: return Value::error();
  }
}

// ---------------------------------------------------------------------------------------------
// Tile memory: load and store, at tile indices (index=) or element offsets (offset=)

// index=, offset= or bound= of load/store: a tuple of one integer scalar per axis of `arr` (a
// single scalar for rank 1). `what` names the argument, `entries` its entries in messages.
bool Checker::memory_coords(Expr* e, const char* what, const char* entries, const ArrayParam& arr) {
  size_t rank = arr.dims.size();
  std::vector<Value> v = e->value.kind == ValueKind::Tuple ? e->value.elems : std::vector<Value>{e->value};
  if (v.size() != rank) {
    diag_.error(e->range, fmt::format("{} has {} entr{} but array '{}' has rank {}", what, v.size(),
                                      v.size() == 1 ? "y" : "ies", arr.name, rank));
    return false;
  }
  for (size_t i = 0; i < v.size(); ++i)
    if (!v[i].is_scalar() || !is_integer(v[i].tile.dtype)) {
      // At the entry itself when the tuple is written out (`(r, 1.5)`), else the whole argument,
      // naming the entry (a tuple variable: `o = (r, f)`, `offset=o`).
      bool written = e->kind == ExprKind::Tuple && e->args.size() == v.size();
      std::string entry = written || v.size() == 1 ? "" : fmt::format(" (entry {} of the tuple)", i);
      diag_.error(written ? e->args[i]->range : e->range,
                  std::string(entries) + " must be integer scalars, not " + describe(v[i]) + entry);
      return false;
    }
  return true;
}

Value Checker::builtin_memory(Builtin b, BoundArgs& a) {
  const char* name = b == Builtin::Load ? "load" : "store";
  const Value& arr = a.get(0)->value;
  if (arr.kind != ValueKind::Array) {
    diag_.error(a.get(0)->range, std::string(name) + " takes an array, not " + describe(arr));
    return Value::error();
  }
  int rank = int(arr.array->dims.size());
  // Exactly one of index= (tile indices) and offset= (element offsets, keyword-only).
  Expr* offset = a.get(b == Builtin::Load ? 5 : 4);
  if (offset && a.get(1)) {
    diag_.error(offset->range, fmt::format("{} takes index= (tile indices) or offset= (element offsets), not both",
                                           name));
    return Value::error();
  }
  if (!offset && !a.get(1)) {
    diag_.error(a.call->range, fmt::format("{} needs index= (tile indices) or offset= (element offsets): {}", name,
                                           builtin_sig(b).spelling));
    return Value::error();
  }
  if (!memory_coords(offset ? offset : a.get(1), offset ? "offset" : "index",
                     offset ? "element offsets" : "tile indices", *arr.array))
    return Value::error();
  // bound=: the exclusive end of the positions touched along each axis (§7.2.6).
  if (Expr* bound = a.get(b == Builtin::Load ? 6 : 5)) {
    if (rank == 0) {
      diag_.error(bound->range, fmt::format("{} of rank-0 array '{}' takes no bound=", name, arr.array->name));
      return Value::error();
    }
    if (!memory_coords(bound, "bound", "bounds", *arr.array)) return Value::error();
  }
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  if (Expr* o = a.get(3)) {
    const Value& ov = o->value;
    std::vector<int64_t> p;
    bool ok = true;
    for (const Value& e : ov.kind == ValueKind::Tuple ? ov.elems : std::vector<Value>{ov}) {
      if (!e.is_const() || !is_integer(e.tile.dtype)) ok = false;
      else p.push_back(e.constant->i);
    }
    std::vector<int64_t> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    if (!ok || sorted != perm) {
      diag_.error(o->range, fmt::format("order must be a constant permutation of 0..{}", rank - 1));
      return Value::error();
    }
  }
  if (b == Builtin::Load) {
    std::optional<std::vector<int64_t>> shape = rank == 0 && a.get(2)->value.kind == ValueKind::Tuple &&
                                                        a.get(2)->value.elems.empty()
                                                    ? std::optional<std::vector<int64_t>>(std::vector<int64_t>{})
                                                    : const_shape(a.get(2), "load's shape");
    if (!shape) return Value::error();
    if (int(shape->size()) != rank) {
      Diagnostic& d = diag_.error(a.get(2)->range, fmt::format("shape has {} dimensions but array '{}' has rank {}",
                                                               shape->size(), arr.array->name, rank));
      if (shape->empty()) {  // one element of an array of rank 1 or more (§7.2.1 status note)
        std::string at = rank == 1 ? "i" : rank == 2 ? "(i, j)" : "(i, j, ...)";
        std::string ones = rank == 1 ? "(1,)" : rank == 2 ? "(1, 1)" : "(1, 1, ...)";
        DiagnosticEngine::note(d, a.get(2)->range,
                               fmt::format("to read one element as a scalar, use gather({0}, {1}) (element indices); "
                                           "load({0}, index=..., shape={2}) reads a one-element tile",
                                           arr.array->name, at, ones));
      }
      return Value::error();
    }
    Value r = Value::make_tile(TileType{arr.array->dtype, *shape});
    if (Expr* pad = a.get(4)) {
      const Value& pv = pad->value;
      DType adt = arr.array->dtype;
      if (!pv.is_const()) {
        diag_.error(pad->range, "padding must be a constant such as 0, -inf or nan, not " + describe_nonconst(pv));
        return Value::error();
      }
      if (is_restricted(adt) && (is_float(pv.tile.dtype) ? pv.constant->f != 0 : pv.constant->i != 0)) {
        diag_.error(pad->range, fmt::format("padding of array '{}' ({}) must be 0", arr.array->name, dtype_name(adt)));
        return Value::error();
      }
      if (!is_float(adt) && !is_restricted(adt) && is_float(pv.tile.dtype)) {
        diag_.error(pad->range, fmt::format("padding of array '{}' ({}) must be an integer value", arr.array->name,
                                            dtype_name(adt)));
        return Value::error();
      }
      if (is_integer(arr.array->dtype) && !int_fits(*pv.constant, pv.tile.dtype, arr.array->dtype)) {
        diag_.error(pad->range, "padding does not fit in " + std::string(dtype_name(arr.array->dtype)));
        return Value::error();
      }
    } else {
      r.default_padding = true;
    }
    return r;
  }
  // store
  Expr* t = a.get(2);
  if (t->value.kind != ValueKind::Tile) {  // restricted dtypes may be stored (docs §4.2)
    diag_.error(t->range, "store's tile must be a tile or scalar, not " + describe(t->value));
    return Value::error();
  }
  const Value& tv = t->value;
  // A scalar stores one element, as a tile of shape (1, ..., 1).
  if (tv.tile.rank() != rank && !tv.tile.is_scalar()) {
    diag_.error(t->range, fmt::format("store of a rank-{} tile into array '{}' of rank {}", tv.tile.rank(),
                                      arr.array->name, rank));
    return Value::error();
  }
  if (!literal_fits(tv, arr.array->dtype, *t, "the dtype of array '" + arr.array->name + "'")) return Value::error();
  if (tv.tile.dtype != arr.array->dtype && !tv.weak) {
    diag_.error(t->range, fmt::format("storing {} values into array '{}' of {} needs .astype({})",
                                      dtype_name(tv.tile.dtype), arr.array->name, dtype_name(arr.array->dtype),
                                      dtype_name(arr.array->dtype)));
    return Value::error();
  }
  Value none;
  none.kind = ValueKind::None;
  return none;
}

// ---------------------------------------------------------------------------------------------
// Element-index memory: gather, scatter, atomics

Value Checker::builtin_element_memory(Builtin b, BoundArgs& a) {
  const Value& arr = a.get(0)->value;
  if (arr.kind != ValueKind::Array) {
    diag_.error(a.get(0)->range, builtin_sig(b).name.data() + std::string(" takes an array, not ") + describe(arr));
    return Value::error();
  }
  int rank = int(arr.array->dims.size());
  Expr* idx = a.get(1);
  std::vector<Value> index = idx->value.kind == ValueKind::Tuple ? idx->value.elems : std::vector<Value>{idx->value};
  if (int(index.size()) != rank) {
    diag_.error(idx->range, fmt::format("indices has {} entr{} but array '{}' has rank {}", index.size(),
                                        index.size() == 1 ? "y" : "ies", arr.array->name, rank));
    return Value::error();
  }
  std::vector<int64_t> shape;
  for (const Value& v : index) {
    if (v.kind != ValueKind::Tile || !is_integer(v.tile.dtype)) {
      diag_.error(idx->range, "element indices must be integer tiles or scalars, not " + describe(v));
      return Value::error();
    }
    std::optional<std::vector<int64_t>> s = broadcast(shape, v.tile.shape, *idx);
    if (!s) return Value::error();
    shape = *s;
  }
  DType dt = arr.array->dtype;
  auto check_value = [&](Expr* e, const char* what) {
    // scatter may write restricted dtypes (docs §4.2); the atomics may not.
    if (b == Builtin::Scatter ? e->value.kind != ValueKind::Tile : !expect_tile(e, what)) {
      if (e->value.kind != ValueKind::Tile && !e->value.is_error())
        diag_.error(e->range, std::string(what) + " must be a tile or scalar, not " + describe(e->value));
      return false;
    }
    const Value& v = e->value;
    if (!literal_fits(v, dt, *e, "the dtype of array '" + arr.array->name + "'")) return false;
    if (v.tile.dtype != dt && !v.weak) {
      diag_.error(e->range, fmt::format("{} is {} but array '{}' holds {}; convert with .astype({})", what,
                                        dtype_name(v.tile.dtype), arr.array->name, dtype_name(dt), dtype_name(dt)));
      return false;
    }
    std::optional<std::vector<int64_t>> s = broadcast(shape, v.tile.shape, *e);
    if (!s) return false;
    shape = *s;
    return true;
  };
  size_t mask_slot = b == Builtin::Gather ? 2 : b == Builtin::AtomicCas ? 4 : 3;
  if (b == Builtin::Scatter || (b >= Builtin::AtomicAdd && b <= Builtin::AtomicXchg))
    if (!check_value(a.get(2), "the value tile")) return Value::error();
  if (b == Builtin::AtomicCas)
    if (!check_value(a.get(2), "expected") || !check_value(a.get(3), "desired")) return Value::error();
  if (Expr* m = a.get(mask_slot)) {
    if (m->value.kind != ValueKind::Tile || m->value.tile.dtype != DType::Bool) {
      diag_.error(m->range, "mask must be a bool tile, not " + describe(m->value));
      return Value::error();
    }
    std::optional<std::vector<int64_t>> s = broadcast(shape, m->value.tile.shape, *m);
    if (!s) return Value::error();
    shape = *s;
  }
  bool bitwise = b == Builtin::AtomicAnd || b == Builtin::AtomicOr || b == Builtin::AtomicXor;
  if (bitwise && !is_integer(dt)) {
    diag_.error(a.call->range, std::string(builtin_sig(b).name) + " needs an integer array, not " + std::string(dtype_name(dt)));
    return Value::error();
  }
  if ((b == Builtin::AtomicAdd || b == Builtin::AtomicMax || b == Builtin::AtomicMin) && dt == DType::Bool) {
    diag_.error(a.call->range, std::string(builtin_sig(b).name) + " is not defined for bool arrays");
    return Value::error();
  }
  if (b == Builtin::Gather && a.get(3)) {
    const Value& pv = a.get(3)->value;
    if (!pv.is_const()) {
      diag_.error(a.get(3)->range, "padding must be a constant");
      return Value::error();
    }
  }
  if (b == Builtin::Scatter) {
    Value none;
    none.kind = ValueKind::None;
    return none;
  }
  return Value::make_tile(TileType{dt, shape});
}

// ---------------------------------------------------------------------------------------------
// Tile constructors

Value Checker::builtin_make(Builtin b, BoundArgs& a) {
  if (b == Builtin::Arange) {
    std::optional<int64_t> n = const_int(a.get(0), "arange's length");
    if (!n) return Value::error();
    if (!check_tile_shape({*n}, *a.get(0))) return Value::error();
    DType dt = DType::I32;
    if (a.get(1)) {
      std::optional<DType> d = const_dtype(a.get(1), "arange's dtype");
      if (!d) return Value::error();
      if (*d == DType::Bool || is_restricted(*d)) {
        diag_.error(a.get(1)->range, "arange needs an integer or float dtype");
        return Value::error();
      }
      if (is_integer(*d) && !int_fits(Scalar{*n - 1, 0}, DType::I64, *d)) {
        diag_.error(a.get(1)->range, fmt::format("arange({}) does not fit in {}: its last value is {}", *n,
                                                 dtype_name(*d), *n - 1));
        return Value::error();
      }
      dt = *d;
    }
    return Value::make_tile(TileType{dt, {*n}});
  }
  std::optional<std::vector<int64_t>> shape = a.get(0)->value.kind == ValueKind::Tuple && a.get(0)->value.elems.empty()
                                                  ? std::optional<std::vector<int64_t>>(std::vector<int64_t>{})
                                                  : const_shape(a.get(0), "the shape");
  if (!shape) return Value::error();
  size_t dtype_slot = b == Builtin::Full ? 2 : 1;
  DType dt = DType::F32;
  if (b == Builtin::Full) {
    if (!expect_tile(a.get(1), "full's value")) return Value::error();
    if (!a.get(1)->value.is_scalar()) {
      diag_.error(a.get(1)->range, "full's value must be a scalar, not " + describe(a.get(1)->value));
      return Value::error();
    }
    dt = a.get(1)->value.tile.dtype;
  }
  if (a.get(dtype_slot)) {
    std::optional<DType> d = const_dtype(a.get(dtype_slot), "the dtype");
    if (!d) return Value::error();
    dt = *d;
  }
  // A literal value must fit the dtype it fills (full((16,), 300, i8), 2**63 in i64), as it must
  // fit the other operand's dtype in arithmetic: never a silent wrap.
  if (b == Builtin::Full && a.get(1) && !literal_fits(a.get(1)->value, dt, *a.get(1), "the dtype full fills"))
    return Value::error();
  Value r = Value::make_tile(TileType{dt, *shape});
  if (shape->empty()) {
    // A rank-0 result is a scalar: keep the constant.
    Scalar s{b == Builtin::Ones, b == Builtin::Ones ? 1.0 : 0.0};
    if (b == Builtin::Full) {
      const Value& v = a.get(1)->value;
      if (!v.constant) return r;
      s = convert_scalar(*v.constant, v.tile.dtype, dt);
    }
    r.constant = s;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Shape operations

Value Checker::builtin_shape(Builtin b, BoundArgs& a) {
  // Pure data movement: restricted dtypes are allowed (docs §4.2).
  if (a.get(0)->value.kind != ValueKind::Tile) {
    diag_.error(a.get(0)->range, std::string(builtin_sig(b).name) + " takes a tile, not " + describe(a.get(0)->value));
    return Value::error();
  }
  const Value& t = a.get(0)->value;
  const std::vector<int64_t>& in = t.tile.shape;
  int rank = t.tile.rank();
  auto result = [&](std::vector<int64_t> shape) {
    Value r = Value::make_tile(TileType{t.tile.dtype, std::move(shape)});
    return r;
  };
  auto const_list = [&](Expr* e, const char* what) -> std::optional<std::vector<int64_t>> {
    const Value& v = e->value;
    std::vector<int64_t> out;
    for (const Value& x : v.kind == ValueKind::Tuple ? v.elems : std::vector<Value>{v}) {
      if (!x.is_const() || !is_integer(x.tile.dtype)) {
        diag_.error(e->range, std::string(what) + " must be compile-time integers");
        return std::nullopt;
      }
      out.push_back(x.constant->i);
    }
    return out;
  };
  switch (b) {
    case Builtin::Reshape: {
      // One entry may be -1: the extent that keeps the element count (docs §7.4).
      std::optional<std::vector<int64_t>> given = const_list(a.get(1), "reshape's shape");
      if (!given) return Value::error();
      std::vector<int64_t> shape = *given;
      int64_t numel = t.tile.numel(), known = 1;  // `known` saturates past numel: no overflow
      int infer = -1;
      for (size_t i = 0; i < shape.size(); ++i) {
        int64_t d = shape[i];
        if (d == -1 && infer < 0) infer = int(i);
        else if (d > 0) known = d > numel ? numel + 1 : std::min(known * d, numel + 1);
      }
      auto counts_differ = [&] {
        diag_.error(a.call->range, "cannot reshape " + shape_str(in) + " to " + shape_str(*given) +
                                       ": the element counts differ");
        return Value::error();
      };
      if (infer >= 0) {
        if (numel % known != 0) return counts_differ();
        shape[size_t(infer)] = numel / known;
      }
      if (!check_tile_shape(shape, *a.get(1))) return Value::error();
      int64_t n = 1;
      for (int64_t d : shape) n *= d;  // a valid tile shape: at most 2^24
      if (n != numel) return counts_differ();
      return result(shape);
    }
    case Builtin::Permute: {
      std::optional<std::vector<int64_t>> p = const_list(a.get(1), "permute's dims");
      if (!p) return Value::error();
      std::vector<int64_t> sorted = *p, iota(static_cast<size_t>(rank));
      std::iota(iota.begin(), iota.end(), 0);
      std::sort(sorted.begin(), sorted.end());
      if (sorted != iota) {
        diag_.error(a.get(1)->range, fmt::format("dims must be a permutation of 0..{}", rank - 1));
        return Value::error();
      }
      std::vector<int64_t> out;
      for (int64_t d : *p) out.push_back(in[size_t(d)]);
      return result(out);
    }
    case Builtin::Transpose: {
      if (rank < 2) {
        diag_.error(a.call->range, "transpose needs a tile of rank 2 or more, not " + describe(t));
        return Value::error();
      }
      int64_t x0 = rank - 2, x1 = rank - 1;
      if (!a.get(1) != !a.get(2)) {
        diag_.error(a.call->range, "transpose takes both axis0 and axis1, or neither (the last two axes)");
        return Value::error();
      }
      if (a.get(1)) {
        std::optional<int64_t> v = const_int(a.get(1), "axis0");
        if (!v) return Value::error();
        x0 = *v;
      }
      if (a.get(2)) {
        std::optional<int64_t> v = const_int(a.get(2), "axis1");
        if (!v) return Value::error();
        x1 = *v;
      }
      std::optional<int> n0 = normalize_axis(x0, rank, a.get(1) ? a.get(1) : a.call);
      std::optional<int> n1 = n0 ? normalize_axis(x1, rank, a.get(2) ? a.get(2) : a.call) : std::nullopt;
      if (!n0 || !n1) return Value::error();
      std::vector<int64_t> out = in;
      std::swap(out[size_t(*n0)], out[size_t(*n1)]);
      return result(out);
    }
    case Builtin::ExpandDims: {
      std::optional<int64_t> axis = const_int(a.get(1), "expand_dims' axis");
      if (!axis) return Value::error();
      // The new axis goes before axis `axis` of the result, so a rank-r tile takes -(r+1)..r.
      if (*axis < -(rank + 1) || *axis > rank) {
        diag_.error(a.get(1)->range, fmt::format("expand_dims' axis {} is out of range for a tile of rank {}: it "
                                                 "must be between {} and {}", *axis, rank, -(rank + 1), rank));
        return Value::error();
      }
      int ax = int(*axis < 0 ? *axis + rank + 1 : *axis);
      std::vector<int64_t> out = in;
      out.insert(out.begin() + ax, 1);
      return result(out);
    }
    case Builtin::BroadcastTo: {
      std::optional<std::vector<int64_t>> shape = const_shape(a.get(1), "broadcast_to's shape");
      if (!shape) return Value::error();
      // NumPy's rule, one way: each axis of `t` (aligned at the end) is 1 or the target's.
      bool ok = in.size() <= shape->size();
      for (size_t i = 0; ok && i < in.size(); ++i) {
        int64_t from = in[in.size() - 1 - i], to = (*shape)[shape->size() - 1 - i];
        ok = from == to || from == 1;
      }
      if (!ok) {
        diag_.error(a.call->range, "cannot broadcast " + shape_str(in) + " to " + shape_str(*shape));
        return Value::error();
      }
      return result(*shape);
    }
    case Builtin::Cat: {
      if (a.get(1)->value.kind != ValueKind::Tile) {
        diag_.error(a.get(1)->range, "cat takes tiles, not " + describe(a.get(1)->value));
        return Value::error();
      }
      const Value& u = a.get(1)->value;
      if (u.tile != t.tile) {
        diag_.error(a.call->range, "cat joins tiles of the same shape and dtype, not " + describe(t) + " and " + describe(u));
        return Value::error();
      }
      std::optional<int64_t> axis = const_int(a.get(2), "cat's axis");
      if (!axis) return Value::error();
      std::optional<int> ax = normalize_axis(*axis, rank, a.get(2));
      if (!ax) return Value::error();
      std::vector<int64_t> out = in;
      out[size_t(*ax)] *= 2;
      if (!check_tile_shape(out, *a.call)) return Value::error();
      return result(out);
    }
    case Builtin::Extract: {
      std::optional<std::vector<int64_t>> shape = const_shape(a.get(2), "extract's shape");
      std::optional<std::vector<int64_t>> index = const_list(a.get(1), "extract's index");
      if (!shape || !index) return Value::error();
      if (int(shape->size()) != rank || int(index->size()) != rank) {
        diag_.error(a.call->range, fmt::format("extract needs an index and a shape of rank {}", rank));
        return Value::error();
      }
      for (int i = 0; i < rank; ++i) {
        int64_t parts = in[size_t(i)] / (*shape)[size_t(i)];
        if ((*shape)[size_t(i)] > in[size_t(i)] || (*index)[size_t(i)] < 0 || (*index)[size_t(i)] >= parts) {
          diag_.error(a.call->range, fmt::format("extract of {} at index {} lies outside the {} tile",
                                                 shape_str(*shape), shape_str(*index), shape_str(in)));
          return Value::error();
        }
      }
      return result(*shape);
    }
    default: return Value::error();
  }
}

// ---------------------------------------------------------------------------------------------
// Conversions

Value Checker::builtin_convert(Builtin b, BoundArgs& a) {
  const Value& t = a.get(0)->value;
  if (t.kind != ValueKind::Tile) {
    diag_.error(a.get(0)->range, "cannot convert " + describe(t) +
                                     (t.kind == ValueKind::Array ? "; load() it into a tile first" : ""));
    return Value::error();
  }
  std::optional<DType> d = const_dtype(a.get(1), "the target dtype");
  if (!d) return Value::error();
  if (b == Builtin::Astype) return cast_value(t, *d);
  if (dtype_bits(*d) != dtype_bits(t.tile.dtype) || *d == DType::Bool || t.tile.dtype == DType::Bool) {
    diag_.error(a.call->range, fmt::format("bitcast needs dtypes of the same width: {} is {} bits, {} is {}",
                                           dtype_name(t.tile.dtype), dtype_bits(t.tile.dtype), dtype_name(*d), dtype_bits(*d)));
    return Value::error();
  }
  Value r = Value::make_tile(TileType{*d, t.tile.shape});
  return r;
}

// ---------------------------------------------------------------------------------------------
// Elementwise functions

Value Checker::builtin_elementwise(Builtin b, BoundArgs& a) {
  const BuiltinSig& sig = builtin_sig(b);
  if (b == Builtin::Where) {
    const Value& c = a.get(0)->value;
    if (c.kind != ValueKind::Tile || c.tile.dtype != DType::Bool) {
      diag_.error(a.get(0)->range, "where's condition must be a bool tile, not " + describe(c) + " (compare with != 0)");
      return Value::error();
    }
    if (!expect_tile(a.get(1), "where's second argument") || !expect_tile(a.get(2), "where's third argument"))
      return Value::error();
    const Value &x = a.get(1)->value, &y = a.get(2)->value;
    std::optional<DType> t = promote(x, y, *a.call, *a.get(1), *a.get(2));
    if (!t) return Value::error();
    // In argument order, so that a message names the shapes as written.
    std::optional<std::vector<int64_t>> s = broadcast(c.tile.shape, x.tile.shape, *a.call);
    if (!s) return Value::error();
    s = broadcast(*s, y.tile.shape, *a.call);
    if (!s) return Value::error();
    Value r = Value::make_tile(TileType{*t, *s});
    if (c.constant && x.constant && y.constant && s->empty()) {
      const Value& pick = c.constant->i ? x : y;
      r.constant = convert_scalar(*pick.constant, pick.tile.dtype, *t);
    }
    return r;
  }
  // Operands: 1 (unary math), 2 (minimum, maximum, pow), 3 (fma, clamp).
  size_t n = (b == Builtin::Fma || b == Builtin::Clamp)                                ? 3
             : (b == Builtin::Minimum || b == Builtin::Maximum || b == Builtin::Pow) ? 2
                                                                                      : 1;
  for (size_t i = 0; i < n; ++i)
    if (!expect_tile(a.get(i), "the operand")) return Value::error();
  Value acc = a.get(0)->value;
  std::vector<int64_t> shape = acc.tile.shape;
  DType t = acc.tile.dtype;
  bool weak = acc.weak;
  for (size_t i = 1; i < n; ++i) {
    const Value& v = a.get(i)->value;
    Value cur = Value::make_scalar(t);
    cur.weak = weak;
    std::optional<DType> p = promote(cur, v, *a.call, *a.get(0), *a.get(i));
    if (!p) return Value::error();
    std::optional<std::vector<int64_t>> s = broadcast(shape, v.tile.shape, *a.call);
    if (!s) return Value::error();
    t = *p;
    shape = *s;
    weak = weak && v.weak;
  }
  // approx= (the math functions only) must be a constant bool.
  bool has_approx = n < sig.params.size() && sig.params[n].name == "approx";
  if (has_approx && n < a.slot.size() && a.get(n)) {
    Expr* ap = a.get(n);
    if (!ap->value.is_const() || ap->value.tile.dtype != DType::Bool) {
      diag_.error(ap->range, "approx= must be True or False");
      return Value::error();
    }
  }
  switch (b) {
    case Builtin::Minimum:
    case Builtin::Maximum:
    case Builtin::Clamp:
    case Builtin::Abs:
      if (t == DType::Bool) {
        diag_.error(a.call->range, std::string(sig.name) + " is not defined for bool");
        return Value::error();
      }
      break;
    case Builtin::Isnan:
      if (!is_float(t)) {
        diag_.error(a.call->range, "isnan needs a float operand, not " + std::string(dtype_name(t)));
        return Value::error();
      }
      return Value::make_tile(TileType{DType::Bool, shape});
    case Builtin::Floor:
    case Builtin::Ceil:
      if (t == DType::Bool) t = DType::I32;
      break;
    case Builtin::Fma:
      if (!is_float(t)) t = DType::F32;
      break;
    default:
      // Transcendental functions compute in floating point: integers become f32. PTX has no
      // f64 ex2/lg2/sin/cos/tanh (docs §7.7): only sqrt and rsqrt work on f64 for now.
      if (!is_float(t)) t = DType::F32;
      if (t == DType::F64 && b != Builtin::Sqrt && b != Builtin::Rsqrt) {
        diag_.error(a.call->range, fmt::format("f64 {} is not supported yet", sig.name));
        return Value::error();
      }
      break;
  }
  Value r = Value::make_tile(TileType{t, shape});
  r.weak = weak;
  // Fold the common scalar cases exactly as the generated code computes them.
  if (shape.empty() && n <= 2) {
    const Value& x = a.get(0)->value;
    bool all_const = x.constant && (n == 1 || a.get(1)->value.constant);
    if (all_const && (b == Builtin::Minimum || b == Builtin::Maximum || b == Builtin::Abs)) {
      Scalar sx = convert_scalar(*x.constant, x.tile.dtype, t);
      if (b == Builtin::Abs) {
        if (is_float(t)) sx.f = std::fabs(sx.f);
        else if (is_signed_int(t) && sx.i < 0) sx = fold_unary(Op::Neg, t, sx);
        r.constant = sx;
      } else {
        const Value& y = a.get(1)->value;
        Scalar sy = convert_scalar(*y.constant, y.tile.dtype, t);
        std::string err;
        bool less = fold_binary(Op::Lt, t, sx, sy, DType::Bool, err)->i;
        if (is_float(t) && (std::isnan(sx.f) || std::isnan(sy.f))) r.constant = Scalar{0, NAN};
        else r.constant = (b == Builtin::Minimum) == less ? sx : sy;
      }
    }
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Reductions and scans

Value Checker::builtin_reduce(Builtin b, BoundArgs& a) {
  // Python's max(a, b) / min(a, b) on scalars; on a tile this is the classic mistake.
  if ((b == Builtin::Max || b == Builtin::Min) && a.get(1)) {
    const Value &x = a.get(0)->value, &y = a.get(1)->value;
    const char* name = b == Builtin::Max ? "max" : "min";
    if ((x.kind == ValueKind::Tile && !x.is_scalar()) || (y.kind == ValueKind::Tile && !y.is_scalar())) {
      diag_.error(a.call->range, fmt::format("{}(tile, x) does not take a second operand: use {}imum(a, b) for the "
                                             "elementwise {}, or {}(t, axis=...) to reduce (axis is keyword-only)",
                                             name, name, name, name));
      return Value::error();
    }
    if (!expect_tile(a.get(0), "the operand") || !expect_tile(a.get(1), "the operand")) return Value::error();
    BoundArgs two = a;
    two.slot = {a.get(0), a.get(1), nullptr};
    return builtin_elementwise(b == Builtin::Max ? Builtin::Maximum : Builtin::Minimum, two);
  }
  if (!expect_tile(a.get(0), "the tile")) return Value::error();
  const Value& t = a.get(0)->value;
  int rank = t.tile.rank();
  bool scan = b == Builtin::Cumsum || b == Builtin::Cumprod;
  bool arg = b == Builtin::Argmax || b == Builtin::Argmin;
  size_t axis_slot = (b == Builtin::Max || b == Builtin::Min) ? 2 : 1;
  std::vector<bool> reduced(size_t(rank), false);
  Expr* axis_expr = a.get(axis_slot);
  if (!axis_expr || axis_expr->value.kind == ValueKind::None) {
    reduced.assign(size_t(rank), true);
  } else {
    const Value& av = axis_expr->value;
    if (arg && av.kind == ValueKind::Tuple) {
      diag_.error(axis_expr->range, std::string(builtin_sig(b).name) + " reduces one axis or all (axis=None)");
      return Value::error();
    }
    for (const Value& x : av.kind == ValueKind::Tuple ? av.elems : std::vector<Value>{av}) {
      if (!x.is_const() || !is_integer(x.tile.dtype)) {
        diag_.error(axis_expr->range, "axis must be a compile-time integer or a tuple of them");
        return Value::error();
      }
      std::optional<int> ax = normalize_axis(x.constant->i, rank, axis_expr);
      if (!ax) return Value::error();
      if (reduced[size_t(*ax)]) {
        diag_.error(axis_expr->range, fmt::format("axis {} is given twice", *ax));
        return Value::error();
      }
      reduced[size_t(*ax)] = true;
    }
  }
  DType dt = t.tile.dtype;
  if (b == Builtin::Sum || b == Builtin::Prod || scan) dt = accumulate_dtype(dt);
  if (arg) dt = DType::I32;
  size_t dtype_slot = scan ? 2 : (b == Builtin::Max || b == Builtin::Min) ? 4 : 3;
  if (!arg && a.get(dtype_slot)) {
    std::optional<DType> d = const_dtype(a.get(dtype_slot), "dtype=");
    if (!d) return Value::error();
    dt = *d;
  }
  if (dt == DType::Bool && (b == Builtin::Max || b == Builtin::Min)) dt = DType::Bool;
  if (t.default_padding && b != Builtin::Sum && b != Builtin::Cumsum && rank > 0) {
    diag_.warning(Warning::ReductionPadding, a.call->range,
                  fmt::format("{} over a zero-padded tile: pass padding={} to load() so that elements "
                              "outside the array do not win",
                              builtin_sig(b).name,
                              b == Builtin::Max || b == Builtin::Argmax ? "-inf" :
                              b == Builtin::Min || b == Builtin::Argmin ? "inf" : "1"));
  }
  if (scan) {
    if (rank == 0) {
      diag_.error(a.call->range, "a scan needs a tile of rank 1 or more");
      return Value::error();
    }
    return Value::make_tile(TileType{dt, t.tile.shape});
  }
  size_t keep_slot = (b == Builtin::Max || b == Builtin::Min) ? 3 : 2;
  bool keepdims = false;
  if (Expr* k = a.get(keep_slot)) {
    if (!k->value.is_const() || k->value.tile.dtype != DType::Bool) {
      diag_.error(k->range, "keepdims must be True or False");
      return Value::error();
    }
    keepdims = k->value.constant->i != 0;
  }
  std::vector<int64_t> shape;
  for (int i = 0; i < rank; ++i) {
    if (!reduced[size_t(i)]) shape.push_back(t.tile.shape[size_t(i)]);
    else if (keepdims) shape.push_back(1);
  }
  Value r = Value::make_tile(TileType{dt, shape});
  if (rank == 0 && t.constant && !arg) r.constant = convert_scalar(*t.constant, t.tile.dtype, dt);
  if (rank == 0 && arg) r.constant = Scalar{0, 0};
  return r;
}

// ---------------------------------------------------------------------------------------------
// Histogram (docs/language.md §7.8): the counts of a tile's bin indices

Value Checker::builtin_histogram(BoundArgs& a) {
  if (!expect_tile(a.get(0), "histogram's bin indices")) return Value::error();
  const Value& t = a.get(0)->value;
  if (!is_integer(t.tile.dtype)) {
    diag_.error(a.get(0)->range, "histogram counts integer bin indices, not " + describe(t) +
                                     "; compute them with floor(...).astype(i32)");
    return Value::error();
  }
  std::optional<int64_t> nbins = const_int(a.get(1), "histogram's number of bins");
  if (!nbins || !check_tile_shape({*nbins}, *a.get(1))) return Value::error();
  if (t.default_padding && !a.get(2))
    diag_.warning(Warning::HistogramPadding, a.call->range, "histogram over a zero-padded tile: the elements outside the array count in bin 0; "
                                 "pass padding=-1 to load() or a mask=");
  if (Expr* m = a.get(2)) {
    if (m->value.kind != ValueKind::Tile || m->value.tile.dtype != DType::Bool) {
      diag_.error(m->range, "mask must be a bool tile, not " + describe(m->value));
      return Value::error();
    }
    std::optional<std::vector<int64_t>> s = broadcast(t.tile.shape, m->value.tile.shape, *m);
    if (!s) return Value::error();
    if (*s != t.tile.shape) {
      diag_.error(m->range, "the mask's shape " + shape_str(m->value.tile.shape) +
                                " is larger than the bin indices' shape " + shape_str(t.tile.shape) +
                                "; a histogram counts each index once");
      return Value::error();
    }
  }
  return Value::make_tile(TileType{DType::I32, {*nbins}});
}

// ---------------------------------------------------------------------------------------------
// Matrix multiply-accumulate (§6.10)

Value Checker::builtin_mma(BoundArgs& a) {
  for (size_t i = 0; i < 3; ++i)
    if (a.get(i)->value.kind != ValueKind::Tile) {
      diag_.error(a.get(i)->range, "mma takes tiles, not " + describe(a.get(i)->value));
      return Value::error();
    }
  const TileType &ta = a.get(0)->value.tile, &tb = a.get(1)->value.tile, &tc = a.get(2)->value.tile;
  int r = ta.rank();
  if ((r != 2 && r != 3) || tb.rank() != r || tc.rank() != r) {
    diag_.error(a.call->range, "mma needs three 2-D tiles (or three 3-D tiles for a batch), got " +
                                   shape_str(ta.shape) + ", " + shape_str(tb.shape) + ", " + shape_str(tc.shape));
    return Value::error();
  }
  int64_t m = ta.shape[size_t(r - 2)], k = ta.shape[size_t(r - 1)];
  int64_t k2 = tb.shape[size_t(r - 2)], n = tb.shape[size_t(r - 1)];
  bool batch_ok = r == 2 || (ta.shape[0] == tb.shape[0] && ta.shape[0] == tc.shape[0]);
  if (k != k2 || tc.shape[size_t(r - 2)] != m || tc.shape[size_t(r - 1)] != n || !batch_ok) {
    diag_.error(a.call->range, "mma shapes do not match: a " + shape_str(ta.shape) + " @ b " + shape_str(tb.shape) +
                                   " + acc " + shape_str(tc.shape) + " (needs a (M, K), b (K, N), acc (M, N))");
    return Value::error();
  }
  DType x = ta.dtype, y = tb.dtype, acc = tc.dtype;
  bool ok = false;
  if (x == DType::F16 && y == DType::F16) ok = acc == DType::F16 || acc == DType::F32;
  else if (x == DType::BF16 && y == DType::BF16) ok = acc == DType::F32;
  else if (x == DType::TF32 && y == DType::TF32) ok = acc == DType::F32;
  else if (is_f8(x) && is_f8(y)) ok = acc == DType::F32;
  else if (x == DType::I8 && y == DType::I8) ok = acc == DType::I32;
  else if (x == DType::F64 && y == DType::F64) ok = acc == DType::F64;
  if (!ok) {
    std::string hint = x == DType::F32 && y == DType::F32 ? "; for f32 inputs convert them with astype(tf32)" : "";
    diag_.error(a.call->range, fmt::format("mma does not support {} x {} accumulating in {}; supported: f16 x f16 -> "
                                           "f16/f32, bf16 x bf16 -> f32, tf32 x tf32 -> f32, f8 x f8 -> f32, "
                                           "i8 x i8 -> i32, f64 x f64 -> f64{}",
                                           dtype_name(x), dtype_name(y), dtype_name(acc), hint));
    return Value::error();
  }
  return Value::make_tile(tc);
}

// ---------------------------------------------------------------------------------------------
// print, static_assert, range

Value Checker::builtin_debug(Builtin b, BoundArgs& a) {
  Value none;
  none.kind = ValueKind::None;
  if (b == Builtin::StaticAssert) {
    const Value& c = a.get(0)->value;
    if (!c.is_const()) {
      diag_.error(a.get(0)->range, "static_assert needs a compile-time condition, not " + describe_nonconst(c));
      return Value::error();
    }
    if (a.get(1) && a.get(1)->value.kind != ValueKind::String) {
      diag_.error(a.get(1)->range, "static_assert's message must be a string literal");
      return Value::error();
    }
    if (!scalar_truth(*c.constant, c.tile.dtype))
      diag_.error(a.get(0)->range, "static assertion failed" + (a.get(1) ? ": " + a.get(1)->value.text : std::string()));
    return none;
  }
  // print(fmt, values...)
  if (a.get(0)->value.kind != ValueKind::String) {
    diag_.error(a.get(0)->range, "print's first argument must be a format string");
    return Value::error();
  }
  for (Expr* v : a.rest)
    if (!v->value.is_scalar()) {
      diag_.error(v->range, "print takes scalars, not " + describe(v->value) + "; reduce the tile or extract an element first");
      return Value::error();
    }
  int n = count_conversions(a.get(0)->value.text);
  if (n != int(a.rest.size())) {
    diag_.error(a.call->range, fmt::format("the format string has {} conversion(s) but {} value(s) are given", n, a.rest.size()));
    return Value::error();
  }
  return none;
}

Value Checker::builtin_range(BoundArgs& a) {
  std::vector<Expr*> args;
  for (size_t i = 0; i < 3; ++i)
    if (a.get(i)) args.push_back(a.get(i));
  Value acc;
  for (Expr* e : args) {
    if (!expect_scalar_int(e, "a range bound")) return Value::error();
    if (acc.is_error()) {
      acc = e->value;
      continue;
    }
    std::optional<DType> t = promote(acc, e->value, *a.call, *args[0], *e);
    if (!t) return Value::error();
    bool weak = acc.weak && e->value.weak;
    acc = Value::make_scalar(*t);
    acc.weak = weak;
  }
  if (a.get(2) && a.get(2)->value.constant && a.get(2)->value.constant->i == 0) {
    diag_.error(a.get(2)->range, "range() step must not be zero");
    return Value::error();
  }
  Value r;
  r.kind = ValueKind::Range;
  r.tile.dtype = acc.weak ? DType::I32 : acc.tile.dtype;
  if (acc.weak && acc.tile.dtype == DType::I64) r.tile.dtype = DType::I64;
  return r;
}

}  // namespace tilec
