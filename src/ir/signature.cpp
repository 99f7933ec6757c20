// Kernel signatures: look-ups and the grid's text form.
#include "ir/signature.h"

#include <fmt/format.h>

namespace tilec::ir {

int Signature::dim_index(const std::string& name) const {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].name == name) return int(i);
  return -1;
}

namespace {

std::string text(const Signature& s, const GridExpr& e, bool nested) {
  using K = GridExpr::Kind;
  auto arg = [&](size_t i, bool inner) { return text(s, e.args[i], inner); };
  auto infix = [&](const char* op) {
    std::string t = arg(0, true) + " " + op + " " + arg(1, true);
    return nested ? "(" + t + ")" : t;
  };
  switch (e.kind) {
    case K::Const: return fmt::format("{}", e.value);
    case K::Dim: return s.dims[size_t(e.index)].name;
    case K::Scalar: return s.params[size_t(e.index)].name;
    case K::Neg: return "-" + arg(0, true);
    case K::Add: return infix("+");
    case K::Sub: return infix("-");
    case K::Mul: return infix("*");
    case K::FloorDiv: return infix("//");
    case K::Cdiv: return "cdiv(" + arg(0, false) + ", " + arg(1, false) + ")";
    case K::Min: return "min(" + arg(0, false) + ", " + arg(1, false) + ")";
    case K::Max: return "max(" + arg(0, false) + ", " + arg(1, false) + ")";
    case K::NumSms: return "num_sms()";
  }
  return "?";
}

}  // namespace

std::string grid_text(const Signature& s, const GridExpr& e) { return text(s, e, false); }

}  // namespace tilec::ir
