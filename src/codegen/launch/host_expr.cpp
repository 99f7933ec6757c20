// Scalar values the launch stub computes on the host (host_expr.h).
#include "codegen/launch/host_expr.h"

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

// Which text: C for the launch stub, or Python for the fake implementations of --emit=torch
// (host_python_expr).
enum class Lang { C, Python };

// Integer arithmetic wraps on the device: compute in uint64_t and convert back. Python's
// integers are exact (host_python_expr says why that is enough).
std::string wrap(Lang lang, const std::string& a, const char* o, const std::string& b) {
  if (lang == Lang::Python) return fmt::format("({} {} {})", a, o, b);
  return fmt::format("(int64_t)((uint64_t)({}) {} (uint64_t)({}))", a, o, b);
}

// `x` (an int64_t expression for a value of any integer dtype) cast to integer dtype `d`, as an
// int64_t: the device's wrap into 8 to 32 bits; `x` itself for 64-bit `d` (a widening cast keeps
// the value, a cast between i64 and u64 the bits).
std::string narrow(Lang lang, const std::string& x, DType d) {
  int bits = dtype_bits(d);
  if (bits == 64) return x;
  if (lang == Lang::Python)
    return fmt::format("_tilec_wrap({}, {}, {})", x, bits, is_unsigned_int(d) ? "False" : "True");
  std::string u = fmt::format("uint{}_t", bits);
  if (is_unsigned_int(d)) return fmt::format("(int64_t)({})({})", u, x);
  return fmt::format("(int64_t)(int{}_t)({})({})", bits, u, x);
}

std::optional<std::string> to_c(Lang lang, const ir::Function& fn, const ir::Value* v, const HostLeaves& leaves,
                                int depth) {
  if (depth > 32 || v->type.is_array || !v->type.is_scalar()) return std::nullopt;
  DType d = v->type.tile.dtype;
  if (!is_integer(d) && d != DType::Bool) return std::nullopt;
  bool signed64 = is_integer(d) && !is_unsigned_int(d) && dtype_bits(d) == 64;
  const ir::Op* op = v->def;
  if (!op) {
    if (int dim = ir::dimension_index(fn, v); dim >= 0) return leaves.dim(dim);
    int param = integer_scalar_index(fn, v);
    if (param < 0 || !leaves.scalar) return std::nullopt;
    return leaves.scalar(param);
  }
  auto sub = [&](int i) { return to_c(lang, fn, op->operands[size_t(i)], leaves, depth + 1); };
  bool py = lang == Lang::Python;
  switch (op->kind) {
    case ir::OpKind::Constant:
      if (d == DType::Bool && py) return std::string(op->value.i ? "True" : "False");
      if (d == DType::Bool) return std::string(op->value.i ? "1" : "0");
      if (py) return op->value.i < 0 ? fmt::format("({})", op->value.i) : std::to_string(op->value.i);
      if (op->value.i == INT64_MIN) return std::string("INT64_MIN");
      return fmt::format("INT64_C({})", op->value.i);
    case ir::OpKind::Cast: {
      DType from = op->operands[0]->type.tile.dtype;
      if (!is_integer(from) || !is_integer(d)) return std::nullopt;
      auto a = sub(0);
      if (!a) return std::nullopt;
      // Into 64 bits the value is kept (or, from 64 bits, its bits); narrower, it wraps.
      return narrow(lang, *a, d);
    }
    case ir::OpKind::Neg: {
      if (!signed64) return std::nullopt;
      auto a = sub(0);
      if (!a) return std::nullopt;
      return wrap(lang, "0", "-", *a);
    }
    case ir::OpKind::Add: case ir::OpKind::Sub: case ir::OpKind::Mul: {
      if (!signed64) return std::nullopt;
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      return wrap(lang, *a, op->kind == ir::OpKind::Add ? "+" : op->kind == ir::OpKind::Sub ? "-" : "*", *b);
    }
    case ir::OpKind::FloorDiv: case ir::OpKind::Mod: {
      // Python's floor semantics, as on the device (tilec_floordiv_wrap: INT64_MIN // -1
      // wraps). A zero divisor, unspecified on the device, gives INT64_MIN for // and a itself
      // for % (a - 0 * INT64_MIN), so `assert H % HK == 0` fails on the host for HK = 0 < H.
      if (!signed64) return std::nullopt;
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      if (py) return fmt::format("_tilec_{}({}, {})", op->kind == ir::OpKind::FloorDiv ? "floordiv" : "mod", *a, *b);
      std::string q = fmt::format("tilec_floordiv_wrap({}, {})", *a, *b);
      if (op->kind == ir::OpKind::FloorDiv) return q;
      return wrap(lang, *a, "-", wrap(lang, *b, "*", q));
    }
    case ir::OpKind::Min: case ir::OpKind::Max: {
      if (!signed64) return std::nullopt;
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      // sym_min/sym_max take SymInts without a guard, and ints.
      return fmt::format("{}_{}({}, {})", py ? "_torch.sym" : "tilec", op->kind == ir::OpKind::Min ? "min" : "max",
                         *a, *b);
    }
    case ir::OpKind::Cmp: {
      DType od = op->operands[0]->type.tile.dtype;
      if (!is_integer(od) || is_unsigned_int(od) || dtype_bits(od) != 64) return std::nullopt;
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      const char* c = nullptr;
      switch (op->pred) {
        case tilec::Op::Lt: c = "<"; break;
        case tilec::Op::Le: c = "<="; break;
        case tilec::Op::Gt: c = ">"; break;
        case tilec::Op::Ge: c = ">="; break;
        case tilec::Op::Eq: c = "=="; break;
        case tilec::Op::Ne: c = "!="; break;
        default: return std::nullopt;
      }
      return fmt::format("({} {} {})", *a, c, *b);
    }
    case ir::OpKind::And: case ir::OpKind::Or: {
      if (d != DType::Bool) return std::nullopt;
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      // & and | on Python's bools and SymBools: `and`/`or` would ask a SymBool for its value.
      const char* o = op->kind == ir::OpKind::And ? (py ? "&" : "&&") : (py ? "|" : "||");
      return fmt::format("({} {} {})", *a, o, *b);
    }
    case ir::OpKind::Not: {
      if (d != DType::Bool) return std::nullopt;
      auto a = sub(0);
      if (!a) return std::nullopt;
      return py ? "_torch.sym_not(" + *a + ")" : "(!" + *a + ")";
    }
    default: return std::nullopt;
  }
}

}  // namespace

int integer_scalar_index(const ir::Function& fn, const ir::Value* v) {
  if (v->def || v->owner != &fn.body || !is_integer(v->type.tile.dtype) || !v->type.is_scalar()) return -1;
  for (size_t i = 0; i < fn.sig.params.size(); ++i) {
    const ir::Param& p = fn.sig.params[i];
    if (!p.is_array && p.name == v->name) return int(i);
  }
  return -1;
}

std::optional<std::string> host_c_expr(const ir::Function& fn, const ir::Value* v, const HostLeaves& leaves) {
  return to_c(Lang::C, fn, v, leaves, 0);
}

std::optional<std::string> host_python_expr(const ir::Function& fn, const ir::Value* v, const HostLeaves& leaves) {
  return to_c(Lang::Python, fn, v, leaves, 0);
}

}  // namespace tilec::codegen
