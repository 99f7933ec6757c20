// Printing tile types and checker values.
#include "frontend/types.h"

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "frontend/ast.h"

namespace tilec {

namespace {

// Shortest text that reads back as the same double ("0.5", "1e+30", "inf", "nan").
std::string float_text(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  for (int prec = 1; prec <= 17; ++prec) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*g", prec, f);
    if (std::strtod(buf, nullptr) == f) return buf;
  }
  return fmt::format("{}", f);
}

}  // namespace

std::string Value::str() const {
  switch (kind) {
    case ValueKind::Error: return "<error>";
    case ValueKind::Tile: {
      std::string s = tile.str();
      if (weak) s += " (literal)";
      if (constant) {
        if (is_float(tile.dtype)) s += " = " + float_text(constant->f);
        else if (tile.dtype == DType::Bool) s += constant->i ? " = True" : " = False";
        else if (is_unsigned_int(tile.dtype)) s += " = " + std::to_string(uint64_t(constant->i));
        else s += " = " + std::to_string(constant->i);
      }
      return s;
    }
    case ValueKind::Array: {
      std::string s = "array<" + std::string(dtype_name(array->dtype)) + "[";
      for (size_t i = 0; i < array->dims.size(); ++i) {
        const ArrayDim& d = array->dims[i];
        s += (i ? ", " : "") + (d.symbol.empty() ? std::to_string(d.constant) : d.symbol);
      }
      return s + "]>";
    }
    case ValueKind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < elems.size(); ++i) s += (i ? ", " : "") + elems[i].str();
      if (elems.size() == 1) s += ",";
      return s + ")";
    }
    case ValueKind::DTypeVal: return "dtype " + std::string(dtype_name(dtype));
    case ValueKind::String: return "str";
    case ValueKind::None: return "None";
    case ValueKind::Function: return "function " + text;
    case ValueKind::Builtin: return "builtin " + text;
    case ValueKind::Module: return "module " + text;
    case ValueKind::Range: return "range";
  }
  return "?";
}

}  // namespace tilec
