// Asserts on extents, translated to C for the launch stub (host_assert.h).
#include "codegen/host_assert.h"

#include <optional>

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

// v as a C int64_t (or 0/1 for bool) expression, or nothing when it is not host-evaluable.
std::optional<std::string> to_c(const ir::Function& fn, const ir::Value* v, int depth) {
  if (depth > 32 || v->type.is_array || !v->type.is_scalar()) return std::nullopt;
  DType d = v->type.tile.dtype;
  bool integer = is_integer(d) && dtype_bits(d) == 64;
  if (!integer && d != DType::Bool && !(is_integer(d) && dtype_bits(d) <= 32)) return std::nullopt;
  const ir::Op* op = v->def;
  if (!op) {
    int dim = ir::dimension_index(fn, v);
    if (dim < 0) return std::nullopt;
    return fmt::format("tilec_sym[{}]", dim);
  }
  auto sub = [&](int i) { return to_c(fn, op->operands[size_t(i)], depth + 1); };
  // Integer arithmetic wraps on the device: compute in uint64_t and convert back.
  auto wrap = [](const std::string& a, const char* o, const std::string& b) {
    return fmt::format("(int64_t)((uint64_t)({}) {} (uint64_t)({}))", a, o, b);
  };
  switch (op->kind) {
    case ir::OpKind::Constant:
      if (d == DType::Bool) return std::string(op->value.i ? "1" : "0");
      if (op->value.i == INT64_MIN) return std::string("INT64_MIN");
      return fmt::format("INT64_C({})", op->value.i);
    case ir::OpKind::Cast: {
      // Widening integer casts keep the value (narrower results would wrap: not translated).
      DType from = op->operands[0]->type.tile.dtype;
      if (!is_integer(from) || !is_integer(d) || dtype_bits(d) < dtype_bits(from) ||
          (is_unsigned_int(from) != is_unsigned_int(d)))
        return std::nullopt;
      return sub(0);
    }
    case ir::OpKind::Add: case ir::OpKind::Sub: case ir::OpKind::Mul: {
      if (!integer || is_unsigned_int(d)) return std::nullopt;
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      return wrap(*a, op->kind == ir::OpKind::Add ? "+" : op->kind == ir::OpKind::Sub ? "-" : "*", *b);
    }
    case ir::OpKind::FloorDiv: case ir::OpKind::Mod: {
      // Python's floor semantics, as on the device. A zero divisor, unspecified on the device,
      // gives INT64_MIN for // (tilec_floordiv) and a itself for % (a - 0 * INT64_MIN), so
      // `assert H % HK == 0` fails on the host for HK = 0 < H.
      if (!integer || is_unsigned_int(d)) return std::nullopt;
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      std::string q = fmt::format("tilec_floordiv({}, {})", *a, *b);
      if (op->kind == ir::OpKind::FloorDiv) return q;
      return wrap(*a, "-", wrap(*b, "*", q));
    }
    case ir::OpKind::Min: case ir::OpKind::Max: {
      if (!integer || is_unsigned_int(d)) return std::nullopt;
      auto a = sub(0), b = sub(1);
      if (!a || !b) return std::nullopt;
      return fmt::format("tilec_{}({}, {})", op->kind == ir::OpKind::Min ? "min" : "max", *a, *b);
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
      return fmt::format("({} {} {})", *a, op->kind == ir::OpKind::And ? "&&" : "||", *b);
    }
    case ir::OpKind::Not: {
      if (d != DType::Bool) return std::nullopt;
      auto a = sub(0);
      if (!a) return std::nullopt;
      return "(!" + *a + ")";
    }
    default: return std::nullopt;
  }
}

}  // namespace

std::vector<std::pair<const ir::Op*, std::string>> host_checked_asserts(const ir::Function& fn) {
  std::vector<std::pair<const ir::Op*, std::string>> out;
  for (const auto& op : fn.body.ops) {
    if (op->kind != ir::OpKind::Assert) continue;
    if (std::optional<std::string> c = to_c(fn, op->operands[0], 0)) out.emplace_back(op.get(), *c);
  }
  return out;
}

}  // namespace tilec::codegen
