// Expressions: names, literals, operators with dtype promotion and NumPy broadcasting
// (language.md §4), comparisons, boolean operators, subscripts, attributes and calls.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "frontend/checker.h"
#include "basic/consteval.h"
#include "basic/kernel_options.h"
#include "basic/spelling.h"
#include "frontend/python_forms.h"

namespace tilec {

std::string describe(const Value& v) {
  switch (v.kind) {
    case ValueKind::Tile:
      if (v.tile.is_scalar()) return std::string(dtype_name(v.tile.dtype)) + " scalar";
      return "tile " + shape_str(v.tile.shape) + " of " + std::string(dtype_name(v.tile.dtype));
    case ValueKind::Array: {
      std::string s = "array " + std::string(dtype_name(v.array->dtype)) + "[";
      for (size_t i = 0; i < v.array->dims.size(); ++i) {
        const ArrayDim& d = v.array->dims[i];
        s += (i ? ", " : "") + (d.symbol.empty() ? std::to_string(d.constant) : d.symbol);
      }
      return s + "]";
    }
    case ValueKind::Tuple: return "a tuple of " + std::to_string(v.elems.size());
    case ValueKind::DTypeVal: return "dtype " + std::string(dtype_name(v.dtype));
    case ValueKind::String: return "a string";
    case ValueKind::None: return "None";
    case ValueKind::Function: return "function '" + v.text + "'";
    case ValueKind::Builtin: return "built-in '" + v.text + "'";
    case ValueKind::Module: return "module '" + v.text + "'";
    case ValueKind::Range: return "a range";
    case ValueKind::Error: return "<error>";
  }
  return "?";
}

bool is_predeclared(const std::string& name) {
  return find_builtin(name) || parse_dtype(name) || name == "inf" || name == "nan";
}

namespace {

// The language's name of a dtype that NumPy, PyTorch or C spell `name` (`float16`, `half`,
// `torch.bfloat16`'s `bfloat16`, `int32`, `double`), for the hint of an undefined name; nullptr
// for other names.
const char* dtype_spelled_elsewhere(const std::string& name) {
  static const std::pair<const char*, const char*> kSpellings[] = {
      {"float16", "f16"},   {"half", "f16"},     {"bfloat16", "bf16"}, {"float32", "f32"},
      {"float64", "f64"},   {"double", "f64"},   {"tfloat32", "tf32"}, {"int8", "i8"},
      {"int16", "i16"},     {"int32", "i32"},    {"int64", "i64"},     {"uint8", "u8"},
      {"uint16", "u16"},    {"uint32", "u32"},
      {"uint64", "u64"},    {"bool_", "bool"},   {"float8_e4m3fn", "f8e4m3"},
      {"float8_e5m2", "f8e5m2"}};
  for (const auto& [other, ours] : kSpellings)
    if (name == other) return ours;
  return nullptr;
}

// How many arguments a call of `sig` needs before its keyword-only ones: 1 for exp(x, *,
// approx=), 3 for where(c, a, b).
size_t required_positional(const BuiltinSig& sig) {
  return size_t(std::count_if(sig.params.begin(), sig.params.end(),
                              [](const BuiltinParam& p) { return p.required && !p.keyword_only && !p.rest; }));
}

bool is_comparison(Op op) {
  return op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge || op == Op::Eq || op == Op::Ne;
}

int kind_rank(DType t) {
  switch (dtype_kind(t)) {
    case DTypeKind::Bool: return 0;
    case DTypeKind::Signed:
    case DTypeKind::Unsigned: return 1;
    default: return 2;
  }
}

// The dtype an untyped integer literal takes alone: i32, else i64, else u64.
DType int_literal_dtype(uint64_t v) {
  if (v <= 0x7fffffffu) return DType::I32;
  if (v <= 0x7fffffffffffffffull) return DType::I64;
  return DType::U64;
}

}  // namespace

std::string const_spelling(const Value& v) {
  std::string s = v.str();
  size_t eq = s.find(" = ");
  return eq == std::string::npos ? "value" : s.substr(eq + 3);
}

Value Checker::cast_value(const Value& v, DType to) const {
  Value r = v;
  r.weak = false;
  r.tile.dtype = to;
  if (v.constant) r.constant = convert_scalar(*v.constant, v.tile.dtype, to);
  return r;
}

Value Checker::check_expr(Expr& e) {
  if (e.poisoned) return e.value = Value::error();
  if (in_grid_) {
    bool ok = e.kind == ExprKind::Name || e.kind == ExprKind::Int || e.kind == ExprKind::Call ||
              (e.kind == ExprKind::Binary &&
               (e.op == Op::Add || e.op == Op::Sub || e.op == Op::Mul || e.op == Op::FloorDiv)) ||
              (e.kind == ExprKind::Unary && e.op != Op::Invert);
    if (!ok) {
      diag_.error(e.range, "not allowed in grid=: use integers, dimension symbols, integer scalar parameters, "
                           "constants, + - * //, cdiv, min, max, num_tiles and num_sms()");
      return e.value = Value::error();
    }
  }
  Value v;
  switch (e.kind) {
    case ExprKind::Name: v = check_name(e); break;
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Bool:
    case ExprKind::String:
    case ExprKind::None: v = check_literal(e); break;
    case ExprKind::Tuple: v = check_tuple(e); break;
    case ExprKind::List:
      // A list display parses only for configs= (check_configs reads it there).
      diag_.error(e.range, list_message(ListForm::Literal));
      v = Value::error();
      break;
    case ExprKind::Unary: v = check_unary(e); break;
    case ExprKind::Not: v = check_not(e); break;
    case ExprKind::Binary: v = check_binary(e); break;
    case ExprKind::BoolOp: v = check_boolop(e); break;
    case ExprKind::Compare: v = check_compare(e); break;
    case ExprKind::IfExp: v = check_ifexp(e); break;
    case ExprKind::Call: v = check_call(e); break;
    case ExprKind::Attribute: v = check_attribute(e); break;
    case ExprKind::Subscript: v = check_subscript(e); break;
    case ExprKind::Slice:
      diag_.error(e.range, "a slice is only allowed inside t[...]");
      v = Value::error();
      break;
  }
  e.value = v;
  return v;
}

Value Checker::check_literal(Expr& e) {
  switch (e.kind) {
    case ExprKind::Int:
      if (e.overflow) return Value::error();
      return Value::make_const(int_literal_dtype(e.int_value), Scalar{int64_t(e.int_value), 0}, true);
    case ExprKind::Float: return Value::make_const(DType::F32, Scalar{0, e.float_value}, true);
    case ExprKind::Bool: return Value::make_const(DType::Bool, Scalar{int64_t(e.int_value), 0}, true);
    case ExprKind::String: {
      Value v;
      v.kind = ValueKind::String;
      v.text = e.text;
      return v;
    }
    default: {
      Value v;
      v.kind = ValueKind::None;
      return v;
    }
  }
}

const LocalVar* Checker::lookup_local(const std::string& name) const { return fn_ ? fn_->vars.find(name) : nullptr; }

const Global* Checker::lookup_global(const std::string& name, ModuleScope& ms, const SourceRange& r) {
  if (auto it = ms.globals.find(name); it != ms.globals.end()) return &it->second;
  // `import common` also makes common's names visible unqualified, if unambiguous.
  const Global* found = nullptr;
  std::string from;
  for (auto& [alias, m] : ms.imports) {
    if (!m) continue;
    auto it = m->globals.find(name);
    if (it == m->globals.end() || it->second.kind == Global::Kind::Module) continue;
    if (found && found != &it->second) {
      diag_.error(r, "'" + name + "' is defined in both '" + from + "' and '" + alias + "'; write " + alias + "." + name);
      return found;
    }
    found = &it->second;
    from = alias;
  }
  return found;
}

std::vector<std::string> Checker::visible_names() const {
  std::vector<std::string> names = builtin_names();
  if (fn_)
    for (const auto& [name, var] : fn_->vars.all()) names.push_back(name);
  if (module_) {
    for (const auto& [name, g] : module_->globals) names.push_back(name);
    for (const auto& [alias, m] : module_->imports)
      if (m)
        for (const auto& [name, g] : m->globals)
          if (g.kind != Global::Kind::Module) names.push_back(name);
  }
#define X(e, spelling, ...) names.push_back(spelling);
  TILEC_DTYPES(X)
#undef X
  for (const char* name : {"inf", "nan", "True", "False", "None"}) names.push_back(name);  // `true` means True
  return names;
}

Value Checker::check_name(Expr& e) {
  if (const LocalVar* lv = lookup_local(e.name)) {
    // Changes go through set(): a branch's are rolled back before the other branch.
    auto as_error = [&] {
      LocalVar now = *lv;
      now.state = LocalVar::State::Assigned;
      now.value = Value::error();
      fn_->vars.set(e.name, now);
      return Value::error();
    };
    if (lv->state == LocalVar::State::MaybeUnassigned && module_ && module_->broken)
      return as_error();  // a line that did not parse may have assigned it
    if (lv->state != LocalVar::State::Assigned) {
      Diagnostic& d = diag_.error(e.range, lv->state != LocalVar::State::Conflict ? "'" + e.name + "' may be used before it is assigned"
                                           : lv->value.kind == ValueKind::Array
                                               ? "'" + e.name + "' refers to different arrays on different paths"
                                               : "'" + e.name + "' has a different type on different paths");
      DiagnosticEngine::note(d, lv->why_at, lv->why);
      return as_error();  // report once
    }
    if (in_grid_) {
      bool dim = kernel_ && std::any_of(kernel_->dims.begin(), kernel_->dims.end(),
                                        [&](const DimSymbol& s) { return s.name == e.name; });
      bool int_scalar = lv->value.is_scalar() && is_integer(lv->value.tile.dtype);
      if (!dim && !(int_scalar && !lv->value.is_error())) {
        diag_.error(e.range, "'" + e.name + "' cannot be used in grid=: only dimension symbols, integer scalar "
                                            "parameters and constants can");
        return Value::error();
      }
    }
    e.var = lv->id;
    return lv->value;
  }
  if (module_)
    if (const Global* g = lookup_global(e.name, *module_, e.range)) {
      if (g->value.is_error()) return g->value;  // its definition failed: reported there
      if (in_grid_ && g->kind != Global::Kind::Constant) {
        diag_.error(e.range, "'" + e.name + "' cannot be used in grid=");
        return Value::error();
      }
      return g->value;
    }
  if (auto dt = parse_dtype(e.name)) {
    Value v;
    v.kind = ValueKind::DTypeVal;
    v.dtype = *dt;
    return v;
  }
  if (const BuiltinSig* b = find_builtin(e.name)) {
    Value v;
    v.kind = ValueKind::Builtin;
    v.builtin = int(b->id);
    v.text = e.name;
    return v;
  }
  if (e.name == "inf") return Value::make_const(DType::F32, Scalar{0, INFINITY}, true);
  if (e.name == "nan") return Value::make_const(DType::F32, Scalar{0, NAN}, true);
  if (!definitions_may_be_lost()) {
    std::string msg = "use of undefined name '" + e.name + "'";
    if (const char* keyword = python_keyword_message(e.name))
      msg = keyword;  // `raise` alone: the construct, not the name, is what is missing
    else if (const char* dtype = dtype_spelled_elsewhere(e.name))
      msg += std::string("; the dtype is spelled '") + dtype + "'";
    else if (std::optional<std::string> hint = python_name_hint(e.name))
      msg += *hint;  // `math`, `len`, `sort`: a Python name, not a typo
    else
      msg += did_you_mean(e.name, visible_names());
    diag_.error(e.range, msg);
  }
  return Value::error();
}

bool Checker::definitions_may_be_lost() const {
  // A module with syntax errors (this one or an import) may have lost the definition, and an
  // import that failed (null) may have held it (`import m` makes m's names visible unqualified):
  // their errors were reported.
  return module_ && (module_->broken || std::any_of(module_->imports.begin(), module_->imports.end(),
                                                    [](const auto& i) { return !i.second || i.second->broken; }));
}

Value Checker::check_tuple(Expr& e) {
  Value v;
  v.kind = ValueKind::Tuple;
  for (ExprPtr& a : e.args) {
    Value ev = check_expr(*a);
    if (ev.is_error()) return Value::error();
    v.elems.push_back(ev);
  }
  return v;
}

std::optional<DType> Checker::promote(const Value& a, const Value& b, Expr& where, Expr& lhs, Expr& rhs) {
  DType ta = a.tile.dtype, tb = b.tile.dtype;
  for (auto [t, e] : {std::pair{ta, &lhs}, std::pair{tb, &rhs}})
    if (is_restricted(t)) {
      diag_.error(e->range, "dtype " + std::string(dtype_name(t)) +
                                " is only for mma operands; convert with astype() before arithmetic");
      return std::nullopt;
    }
  if (a.weak && b.weak) {
    if (kind_rank(ta) != kind_rank(tb)) return kind_rank(ta) > kind_rank(tb) ? ta : tb;
    return dtype_bits(ta) >= dtype_bits(tb) ? ta : tb;
  }
  if (a.weak || b.weak) {
    const Value& weak = a.weak ? a : b;
    const Value& strong = a.weak ? b : a;
    Expr& weak_expr = a.weak ? lhs : rhs;
    DType t = strong.tile.dtype;
    if (kind_rank(weak.tile.dtype) > kind_rank(t)) return weak.tile.dtype;  // float literal + int tile → f32
    // The literal adopts the tile's dtype; its value must fit.
    if (weak.constant && is_integer(t) && is_integer(weak.tile.dtype) &&
        !int_fits(*weak.constant, weak.tile.dtype, t)) {
      diag_.error(weak_expr.range, "literal " + const_spelling(weak) + " does not fit in " +
                                       std::string(dtype_name(t)) + ", the other operand's dtype");
      return std::nullopt;
    }
    return t;
  }
  if (ta == tb) return ta;
  if (kind_rank(ta) != kind_rank(tb)) return kind_rank(ta) > kind_rank(tb) ? ta : tb;
  if (is_integer(ta) && is_signed_int(ta) != is_signed_int(tb)) {
    diag_.error(where.range, fmt::format("mixing {} and {} needs an explicit astype", dtype_name(ta), dtype_name(tb)));
    return std::nullopt;
  }
  if ((ta == DType::F16 && tb == DType::BF16) || (ta == DType::BF16 && tb == DType::F16)) {
    diag_.error(where.range, "mixing f16 and bf16 needs an explicit astype");
    return std::nullopt;
  }
  return dtype_bits(ta) >= dtype_bits(tb) ? ta : tb;
}

bool Checker::check_tile_shape(const std::vector<int64_t>& shape, const Expr& where) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0 || (d & (d - 1)) != 0) {
      note_defines(diag_.error(where.range, fmt::format("tile dimension {} is not a power of two", d)), where);
      return false;
    }
    // n <= 2^24 here; a dimension past 2^24 is too many on its own (and n * d could wrap).
    n = d > (int64_t(1) << 24) ? d : n * d;
    if (n > (int64_t(1) << 24)) {
      note_defines(diag_.error(where.range, fmt::format("tile shape {} has more than 2^24 elements", shape_str(shape))),
                   where);
      return false;
    }
  }
  return true;
}

void Checker::note_defines(Diagnostic& d, const Expr& e) {
  if (e.kind == ExprKind::Name && e.var < 0) {
    auto it = defines_.find(e.name);
    if (it != defines_.end() && it->second.used)
      DiagnosticEngine::note(d, it->second.target, "'" + e.name + "' is set by -D " + it->second.option);
    return;
  }
  for (const ExprPtr& a : e.args) note_defines(d, *a);
  for (const Keyword& k : e.kwargs) note_defines(d, *k.value);
}

std::optional<std::vector<int64_t>> Checker::broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                                       Expr& where) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) {
      diag_.error(where.range, "cannot broadcast " + shape_str(a) + " with " + shape_str(b));
      return std::nullopt;
    }
    out[i] = std::max(x, y);
  }
  if (!check_tile_shape(out, where)) return std::nullopt;
  return out;
}

Value Checker::check_binary(Expr& e) {
  Value a = check_expr(*e.args[0]);
  Value b = check_expr(*e.args[1]);
  if (a.is_error() || b.is_error()) return Value::error();
  if (e.op == Op::FloorDiv && grid_divides_by_zero(b, *e.args[1])) return Value::error();
  return binary_values(e.op, a, b, e, *e.args[0], *e.args[1]);
}

bool Checker::grid_divides_by_zero(const Value& divisor, const Expr& where) {
  // The kernel computes x // 0 as some value (§8.4), but the launch stub evaluates grid= in C
  // on the host, where it is undefined behaviour (SIGFPE on x86). A constant dividend was folded
  // already ("integer division by zero in a constant expression").
  if (!in_grid_ || !divisor.is_const() || !is_integer(divisor.tile.dtype) || divisor.constant->i != 0) return false;
  diag_.error(where.range, "division by zero in grid=: the launch stub evaluates the grid in C on the host, where "
                           "it is undefined behaviour");
  return true;
}

Value Checker::binary_values(Op op, const Value& a, const Value& b, Expr& e, Expr& lhs, Expr& rhs) {
  for (auto [v, x] : {std::pair{&a, &lhs}, std::pair{&b, &rhs}})
    if (v->kind != ValueKind::Tile) {
      Diagnostic& d = diag_.error(x->range, std::string("operator ") + op_spelling(op) +
                                                " needs tiles or scalars, not " + describe(*v));
      // Triton's `tl.load(ptr + offs)`: arrays are not pointers.
      if (v->kind == ValueKind::Array) {
        std::string a = x->kind == ExprKind::Name ? x->name : "a";
        DiagnosticEngine::note(d, x->range, "an array is not a pointer: load(" + a + ", index=..., shape=...) reads a tile "
                                            "of it, gather(" + a + ", offsets) the elements at computed offsets; "
                                            "docs/language.md §10");
      }
      return Value::error();
    }
  if (op == Op::MatMul) {
    // a @ b: the operands promote to one dtype, which the result keeps (f32 accumulate inside).
    std::optional<DType> t = promote(a, b, e, lhs, rhs);
    if (!t) return Value::error();
    if (*t == DType::Bool) {
      diag_.error(e.range, "@ is not defined for bool tiles; convert them with astype()");
      return Value::error();
    }
    Value ca = cast_value(a, *t), cb = cast_value(b, *t);
    int ra = ca.tile.rank(), rb = cb.tile.rank();
    if (ra < 2 || ra > 3 || ra != rb) {
      diag_.error(e.range, "@ needs two 2-D or two 3-D tiles, got " + describe(a) + " and " + describe(b));
      return Value::error();
    }
    const auto &sa = ca.tile.shape, &sb = cb.tile.shape;
    if (sa[ra - 1] != sb[rb - 2] || (ra == 3 && sa[0] != sb[0])) {
      diag_.error(e.range, "@ shapes do not match: " + shape_str(sa) + " @ " + shape_str(sb));
      return Value::error();
    }
    std::vector<int64_t> shape = sa;
    shape[ra - 1] = sb[rb - 1];
    DType out = (*t == DType::TF32 || *t == DType::F8E4M3 || *t == DType::F8E5M2) ? DType::F32 : *t;
    return Value::make_tile(TileType{out, shape});
  }
  std::optional<DType> t = promote(a, b, e, lhs, rhs);
  if (!t) return Value::error();
  std::optional<std::vector<int64_t>> shape = broadcast(a.tile.shape, b.tile.shape, e);
  if (!shape) return Value::error();
  bool weak = a.weak && b.weak;
  DType compute = *t, result = *t;
  if (is_comparison(op)) {
    result = DType::Bool;
  } else if (op == Op::Div) {
    if (!is_float(compute)) compute = result = dtype_bits(compute) == 64 && !weak ? DType::F64 : DType::F32;
  } else if (op == Op::BitAnd || op == Op::BitOr || op == Op::BitXor) {
    if (is_float(compute)) {
      diag_.error(e.range, std::string("operator ") + op_spelling(op) + " needs integer or bool operands, not " +
                               std::string(dtype_name(compute)));
      return Value::error();
    }
  } else if (op == Op::Shl || op == Op::Shr) {
    if (!is_integer(compute)) {
      diag_.error(e.range, std::string("operator ") + op_spelling(op) + " needs integer operands, not " +
                               std::string(dtype_name(compute)));
      return Value::error();
    }
  } else if (compute == DType::Bool) {
    diag_.error(e.range, std::string("arithmetic operator ") + op_spelling(op) +
                             " on bool values; convert with astype(i32) first");
    return Value::error();
  }
  Value r = Value::make_tile(TileType{result, *shape});
  r.weak = weak;
  if (a.constant && b.constant && weak && is_integer(compute)) {
    // Literal-only integer arithmetic is exact, like Python ints; the result then takes the
    // smallest of i32/i64/u64 that holds it.
    std::string error;
    std::optional<ExactInt> v = fold_exact(op, exact_int(*a.constant, a.tile.dtype),
                                           exact_int(*b.constant, b.tile.dtype), error);
    if (!v) {
      diag_.error(e.range, error);
      return Value::error();
    }
    r.constant = exact_int_scalar(*v);
    if (!is_comparison(op)) r.tile.dtype = exact_int_dtype(*v);
    return r;
  }
  if (a.constant && b.constant) {
    DType fold_t = compute, fold_r = result;
    if (weak && is_float(compute)) fold_t = DType::F64, fold_r = is_comparison(op) ? DType::Bool : DType::F64;
    Scalar x = convert_scalar(*a.constant, a.tile.dtype, fold_t);
    Scalar y = convert_scalar(*b.constant, b.tile.dtype, fold_t);
    if (a.weak && is_float(fold_t) && is_float(a.tile.dtype)) x.f = a.constant->f;  // keep literal precision
    if (b.weak && is_float(fold_t) && is_float(b.tile.dtype)) y.f = b.constant->f;
    std::string error;
    std::optional<Scalar> folded = fold_binary(op, fold_t, x, y, fold_r, error);
    if (!folded) {
      diag_.error(e.range, error);
      return Value::error();
    }
    r.constant = folded;
  }
  return r;
}

Value Checker::check_unary(Expr& e) {
  Value a = check_expr(*e.args[0]);
  if (a.is_error()) return a;
  if (a.kind != ValueKind::Tile) {
    diag_.error(e.args[0]->range, std::string("unary ") + op_spelling(e.op) + " needs a tile or scalar, not " + describe(a));
    return Value::error();
  }
  DType t = a.tile.dtype;
  if (is_restricted(t)) {
    diag_.error(e.range, "dtype " + std::string(dtype_name(t)) + " is only for mma operands; convert with astype()");
    return Value::error();
  }
  if (e.op == Op::Neg && t == DType::Bool) {
    diag_.error(e.range, "unary - on bool; use 'not' or ~");
    return Value::error();
  }
  if (e.op == Op::Invert && is_float(t)) {
    diag_.error(e.range, "unary ~ needs an integer or bool operand, not " + std::string(dtype_name(t)));
    return Value::error();
  }
  Value r = a;
  if (a.constant && a.weak && is_integer(t)) {
    // A negated literal is a Python int: -2147483648 is i32, -(2**63) is i64, -(2**64) is
    // out of range.
    ExactInt x = exact_int(*a.constant, t);
    ExactInt v = e.op == Op::Neg ? -x : e.op == Op::Invert ? -x - 1 : x;
    if (v < INT64_MIN || v > ExactInt(UINT64_MAX)) {
      diag_.error(e.range, "the value of this constant expression does not fit in 64 bits");
      return Value::error();
    }
    r.constant = exact_int_scalar(v);
    r.tile.dtype = exact_int_dtype(v);
  } else if (a.constant) {
    r.constant = fold_unary(e.op, t, *a.constant);
  }
  return r;
}

Value Checker::check_not(Expr& e) {
  Value a = check_expr(*e.args[0]);
  if (a.is_error()) return a;
  if (!a.is_scalar()) {
    diag_.error(e.range, "'not' needs a scalar, not " + describe(a) + "; use ~ on bool tiles");
    return Value::error();
  }
  Value r = Value::make_scalar(DType::Bool);
  if (a.constant) r.constant = Scalar{!scalar_truth(*a.constant, a.tile.dtype), 0};
  return r;
}

Value Checker::check_boolop(Expr& e) {
  Value a = check_expr(*e.args[0]);
  Value b = check_expr(*e.args[1]);
  if (a.is_error() || b.is_error()) return Value::error();
  for (auto [v, x] : {std::pair{&a, e.args[0].get()}, std::pair{&b, e.args[1].get()}})
    if (!v->is_scalar()) {
      diag_.error(x->range, std::string("'") + op_spelling(e.op) + "' needs scalars, not " + describe(*v) +
                                "; use " + (e.op == Op::And ? "&" : "|") + " on bool tiles");
      return Value::error();
    }
  Value r = Value::make_scalar(DType::Bool);
  if (a.constant && b.constant) {
    bool x = scalar_truth(*a.constant, a.tile.dtype), y = scalar_truth(*b.constant, b.tile.dtype);
    r.constant = Scalar{e.op == Op::And ? (x && y) : (x || y), 0};
  } else if (a.constant) {
    // `False and x` / `True or x` are decided by the left side alone.
    bool x = scalar_truth(*a.constant, a.tile.dtype);
    if ((e.op == Op::And && !x) || (e.op == Op::Or && x)) r.constant = Scalar{x, 0};
  }
  return r;
}

Value Checker::check_compare(Expr& e) {
  std::vector<Value> vals;
  for (ExprPtr& a : e.args) {
    vals.push_back(check_expr(*a));
    if (vals.back().is_error()) return Value::error();
  }
  // dtype == dtype compares at compile time (`if T == f16:`).
  if (vals[0].kind == ValueKind::DTypeVal || vals[1].kind == ValueKind::DTypeVal) {
    if (e.cmp_ops.size() != 1 || (e.cmp_ops[0] != Op::Eq && e.cmp_ops[0] != Op::Ne) ||
        vals[0].kind != vals[1].kind) {
      diag_.error(e.range, "dtypes can only be compared with == and != against another dtype");
      return Value::error();
    }
    bool eq = vals[0].dtype == vals[1].dtype;
    return Value::make_const(DType::Bool, Scalar{e.cmp_ops[0] == Op::Eq ? eq : !eq, 0});
  }
  if (e.cmp_ops.size() > 1)
    for (size_t i = 0; i < vals.size(); ++i)
      if (vals[i].kind == ValueKind::Tile && !vals[i].is_scalar()) {
        diag_.error(e.range, "chained comparisons need scalars; combine tile comparisons with &");
        return Value::error();
      }
  Value result;
  e.cmp_dtypes.clear();
  for (size_t i = 0; i < e.cmp_ops.size(); ++i) {
    Value r = binary_values(e.cmp_ops[i], vals[i], vals[i + 1], e, *e.args[i], *e.args[i + 1]);
    if (r.is_error()) return r;
    e.cmp_dtypes.push_back(*promote(vals[i], vals[i + 1], e, *e.args[i], *e.args[i + 1]));
    if (i == 0) {
      result = r;
    } else {
      bool both = result.constant && r.constant;
      bool v = both && result.constant->i && r.constant->i;
      result = Value::make_scalar(DType::Bool);
      if (both) result.constant = Scalar{v, 0};
    }
  }
  result.weak = false;
  return result;
}

Value Checker::check_ifexp(Expr& e) {
  Value c = check_expr(*e.args[0]);
  if (c.is_error()) return c;
  if (!c.is_scalar()) {
    diag_.error(e.args[0]->range, "the condition of 'x if c else y' must be a scalar, not " + describe(c) +
                                      "; use where(c, x, y) for tiles");
    return Value::error();
  }
  if (c.constant) {
    // Only the branch taken is checked, as with a constant `if`.
    Expr& taken = scalar_truth(*c.constant, c.tile.dtype) ? *e.args[1] : *e.args[2];
    return check_expr(taken);
  }
  Value a = check_expr(*e.args[1]);
  Value b = check_expr(*e.args[2]);
  if (a.is_error() || b.is_error()) return Value::error();
  if (a.kind != ValueKind::Tile || b.kind != ValueKind::Tile) {
    diag_.error(e.range, "both sides of 'x if c else y' must be tiles or scalars");
    return Value::error();
  }
  std::optional<DType> t = promote(a, b, e, *e.args[1], *e.args[2]);
  if (!t) return Value::error();
  std::optional<std::vector<int64_t>> shape = broadcast(a.tile.shape, b.tile.shape, e);
  if (!shape) return Value::error();
  Value r = Value::make_tile(TileType{*t, *shape});
  r.weak = a.weak && b.weak;
  return r;
}

Value Checker::check_attribute(Expr& e) {
  Value base = check_expr(*e.args[0]);
  if (base.is_error()) return base;
  if (base.kind == ValueKind::Module) {
    ModuleScope* m = nullptr;
    for (auto& [alias, ms] : module_->imports)
      if (ms && ms->ast && base.text.substr(base.text.find_last_of('.') + 1) == alias) m = ms;
    auto it = m ? m->globals.find(e.name) : decltype(m->globals.end()){};
    if (!m || it == m->globals.end()) {
      std::vector<std::string> names;
      if (m)
        for (const auto& [name, g] : m->globals) names.push_back(name);
      if (!m || !m->broken)
        diag_.error(e.range, "module '" + base.text + "' has no name '" + e.name + "'" + did_you_mean(e.name, names));
      return Value::error();
    }
    return it->second.value;
  }
  if (base.kind == ValueKind::Tile) {
    if (e.name == "dtype") {
      Value v;
      v.kind = ValueKind::DTypeVal;
      v.dtype = base.tile.dtype;
      return v;
    }
    if (e.name == "ndim") return Value::make_const(DType::I32, Scalar{base.tile.rank(), 0}, true);
    if (e.name == "shape") {
      Value v;
      v.kind = ValueKind::Tuple;
      for (int64_t d : base.tile.shape) v.elems.push_back(Value::make_const(DType::I32, Scalar{d, 0}, true));
      return v;
    }
  }
  if (base.kind == ValueKind::Array) {
    if (e.name == "dtype") {
      Value v;
      v.kind = ValueKind::DTypeVal;
      v.dtype = base.array->dtype;
      return v;
    }
    if (e.name == "ndim") return Value::make_const(DType::I32, Scalar{int64_t(base.array->dims.size()), 0}, true);
    if (e.name == "shape") {
      Value v;
      v.kind = ValueKind::Tuple;
      for (const ArrayDim& d : base.array->dims)
        v.elems.push_back(d.symbol.empty() ? Value::make_const(DType::I64, Scalar{d.constant, 0})
                                           : Value::make_scalar(DType::I64));
      return v;
    }
  }
  // t.exp(), t.where(...): a built-in that takes a tile first but has no method form (§5.9).
  const BuiltinSig* fn = base.kind == ValueKind::Tile ? find_builtin(e.name) : nullptr;
  if (fn && (builtin_family(fn->id) == BuiltinFamily::Elementwise || builtin_family(fn->id) == BuiltinFamily::Shape)) {
    std::string self = sm_.file(e.args[0]->range.file).snippet(e.args[0]->range);
    diag_.error(e.range, describe(base) + " has no method '" + e.name + "'; write " + e.name + "(" +
                             (self.empty() ? "x" : self) + (required_positional(*fn) > 1 ? ", ...)" : ")"));
    return Value::error();
  }
  diag_.error(e.range, describe(base) + " has no attribute '" + e.name + "'" +
                           (base.kind == ValueKind::Tile ? " (tiles have .dtype, .shape, .ndim and methods such as .astype())" : ""));
  return Value::error();
}

Value Checker::check_subscript(Expr& e) {
  Value base = check_expr(*e.args[0]);
  if (base.is_error()) return base;
  if (base.kind == ValueKind::Tuple) {
    if (e.args.size() != 2) {
      diag_.error(e.range, "a tuple takes one index");
      return Value::error();
    }
    if (e.args[1]->kind == ExprKind::Slice || e.args[1]->kind == ExprKind::None) {
      diag_.error(e.args[1]->range, "a tuple takes one constant integer index, not a slice");
      return Value::error();
    }
    check_expr(*e.args[1]);
    std::optional<int64_t> i = const_int(e.args[1].get(), "a tuple index");
    if (!i) return Value::error();
    int64_t n = int64_t(base.elems.size());
    if (*i < -n || *i >= n) {
      diag_.error(e.args[1]->range, fmt::format("tuple index {} is out of range for a tuple of {}", *i, n));
      return Value::error();
    }
    return base.elems[size_t(*i < 0 ? *i + n : *i)];
  }
  if (base.kind != ValueKind::Tile) {
    diag_.error(e.range, describe(base) + " cannot be subscripted" +
                             (base.kind == ValueKind::Array ? "; read arrays with load() or gather()" : ""));
    return Value::error();
  }
  // t[:, None]: ':' keeps an axis, None inserts one of size 1; missing trailing axes are kept.
  std::vector<int64_t> shape;
  size_t axis = 0;
  for (size_t i = 1; i < e.args.size(); ++i) {
    Expr& s = *e.args[i];
    if (s.kind == ExprKind::None) {
      shape.push_back(1);
      s.value.kind = ValueKind::None;
      continue;
    }
    if (s.kind == ExprKind::Slice && !s.args[0] && !s.args[1] && !s.args[2]) {
      if (axis >= base.tile.shape.size()) {
        diag_.error(s.range, fmt::format("too many ':' for a tile of rank {}", base.tile.rank()));
        return Value::error();
      }
      shape.push_back(base.tile.shape[axis++]);
      continue;
    }
    diag_.error(s.range, "tiles are indexed only with ':' and None (t[:, None]); use extract() for a sub-tile");
    return Value::error();
  }
  for (; axis < base.tile.shape.size(); ++axis) shape.push_back(base.tile.shape[axis]);
  Value r = base;
  r.tile.shape = shape;
  return r;
}

Value Checker::check_call(Expr& e) {
  Expr& callee = *e.args[0];
  // Methods: t.astype(f32) is astype(t, f32), t.sum(axis=1) is sum(t, axis=1), ...
  if (callee.kind == ExprKind::Attribute) {
    static const char* kMethods[] = {"astype", "bitcast", "reshape", "permute", "transpose", "expand_dims",
                                     "broadcast_to", "extract", "sum", "prod", "max", "min", "argmax",
                                     "argmin", "cumsum", "cumprod"};
    bool method = std::find_if(std::begin(kMethods), std::end(kMethods),
                               [&](const char* m) { return callee.name == m; }) != std::end(kMethods);
    if (method) {
      Value base = check_expr(*callee.args[0]);
      if (base.is_error()) return base;
      if (base.kind == ValueKind::Tile) {
        ExprPtr self = std::move(callee.args[0]);
        ExprPtr name = make_expr(ExprKind::Name, callee.range);
        name->name = callee.name;
        e.args[0] = std::move(name);
        e.args.insert(e.args.begin() + 1, std::move(self));
        const BuiltinSig* sig = find_builtin(e.args[0]->name);
        e.args[0]->value.kind = ValueKind::Builtin;
        e.args[0]->value.builtin = int(sig->id);
        e.args[0]->value.text = sig->name;
        return call_builtin(*sig, e);
      }
    }
  }
  // float('-inf'): Python's spelling of a special float, here the predeclared -inf.
  if (callee.kind == ExprKind::Name && callee.name == "float" && e.args.size() == 2 && e.kwargs.empty() &&
      e.args[1]->kind == ExprKind::String && !lookup_local(callee.name) &&
      !(module_ && lookup_global(callee.name, *module_, callee.range)) && !definitions_may_be_lost())
    if (std::optional<std::string> msg = python_special_float_message(e.args[1]->text)) {
      diag_.error(e.range, *msg);
      return Value::error();
    }
  Value f = check_expr(callee);
  if (f.is_error()) return f;
  switch (f.kind) {
    case ValueKind::Builtin: {
      const BuiltinSig& sig = builtin_sig(Builtin(f.builtin));
      if (in_grid_ && sig.id != Builtin::Cdiv && sig.id != Builtin::Min && sig.id != Builtin::Max &&
          sig.id != Builtin::NumTiles && sig.id != Builtin::NumSms) {
        diag_.error(callee.range, "'" + std::string(sig.name) + "' cannot be used in grid=");
        return Value::error();
      }
      if (sig.id == Builtin::Kernel) {
        diag_.error(callee.range, "'kernel' is a decorator: write @kernel(grid=...) above a def");
        return Value::error();
      }
      if (sig.id == Builtin::ByTarget) {
        diag_.error(e.range, "by_target(...) is a value of the @kernel options " + by_target_option_list() +
                                 " only: @kernel(..., num_stages=by_target(sm_90=4))");
        return Value::error();
      }
      if (sig.id == Builtin::Config) {
        diag_.error(e.range, "config(...) is an entry of the @kernel option configs= only: "
                             "@kernel(..., configs=[config(BM=128), config(BM=64)])");
        return Value::error();
      }
      if (in_grid_ && sig.id == Builtin::NumTiles) {
        // Its arguments are an array and constants, which the grid rule would refuse.
        in_grid_ = false;
        Value v = call_builtin(sig, e);
        in_grid_ = true;
        return v;
      }
      return call_builtin(sig, e);
    }
    case ValueKind::Function: {
      if (in_grid_) {
        diag_.error(callee.range, "helper functions cannot be called in grid=");
        return Value::error();
      }
      // A kernel's def carries @kernel (looked up from the value: `m.f` must not be
      // resolved again as an unqualified `f`).
      const Expr* dec = f.func && !f.func->decorators.empty() ? f.func->decorators[0].get() : nullptr;
      const Expr* dec_name = dec && dec->kind == ExprKind::Call ? dec->args[0].get() : dec;
      bool is_kernel = dec_name && dec_name->kind == ExprKind::Name && dec_name->name == "kernel";
      if (is_kernel && find_builtin(f.text)) {
        // A kernel may share a built-in's name (a `transpose` kernel); kernels cannot be
        // called, so the call means the built-in.
        callee.value.kind = ValueKind::Builtin;
        callee.value.builtin = int(find_builtin(f.text)->id);
        return call_builtin(*find_builtin(f.text), e);
      }
      if (is_kernel) {
        diag_.error(callee.range, "kernel '" + f.text + "' cannot be called from device code");
        return Value::error();
      }
      if (!fn_) {
        diag_.error(e.range, "helper functions can only be called inside kernels and helpers");
        return Value::error();
      }
      for (size_t i = 1; i < e.args.size(); ++i)
        if (check_expr(*e.args[i]).is_error()) return Value::error();
      for (Keyword& k : e.kwargs)
        if (check_expr(*k.value).is_error()) return Value::error();
      return inline_helper(*f.func, e);
    }
    case ValueKind::DTypeVal: {
      // f32(x) converts like x.astype(f32).
      if (e.args.size() != 2 || !e.kwargs.empty()) {
        diag_.error(e.range, "a dtype conversion takes one argument: " + std::string(dtype_name(f.dtype)) + "(x)");
        return Value::error();
      }
      Value x = check_expr(*e.args[1]);
      if (x.is_error()) return x;
      if (x.kind != ValueKind::Tile) {
        diag_.error(e.args[1]->range, "cannot convert " + describe(x) + " to " + std::string(dtype_name(f.dtype)));
        return Value::error();
      }
      return cast_value(x, f.dtype);
    }
    default:
      diag_.error(callee.range, describe(f) + " is not callable");
      return Value::error();
  }
}

}  // namespace tilec
