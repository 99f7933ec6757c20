// KernelAbi construction: the grid expressions become C over int64_t.
#include "codegen/abi.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "codegen/host_assert.h"
#include "frontend/builtins.h"

namespace tilec::codegen {
namespace {

// C for a checked grid expression: integers, dimension symbols, integer scalar parameters,
// + - * //, cdiv, min, max, num_tiles, num_sms(). Constants are folded by the checker.
std::string grid_c(const Expr& e, bool& uses_sms) {
  const Value& v = e.value;
  if (v.is_const()) return fmt::format("{}", v.constant->i);
  switch (e.kind) {
    case ExprKind::Name: return e.name;
    case ExprKind::Unary: return "(-" + grid_c(*e.args[0], uses_sms) + ")";
    case ExprKind::Binary: {
      std::string a = grid_c(*e.args[0], uses_sms), b = grid_c(*e.args[1], uses_sms);
      if (e.op == Op::FloorDiv) return "tilec_floordiv(" + a + ", " + b + ")";
      return "(" + a + " " + op_spelling(e.op) + " " + b + ")";
    }
    case ExprKind::Call: {
      const Value& callee = e.args[0]->value;
      Builtin b = Builtin(callee.builtin);
      auto arg = [&](size_t i) { return grid_c(*e.args[i + 1], uses_sms); };
      switch (b) {
        case Builtin::Cdiv: return "tilec_cdiv(" + arg(0) + ", " + arg(1) + ")";
        case Builtin::Min: return "tilec_min(" + arg(0) + ", " + arg(1) + ")";
        case Builtin::Max: return "tilec_max(" + arg(0) + ", " + arg(1) + ")";
        case Builtin::NumSms: uses_sms = true; return "num_sms";
        case Builtin::NumTiles: {
          // cdiv(extent of the (permuted) axis, tile size)
          const ArrayParam* arr = e.args[1]->value.array;
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
          const Value& sv = shape->value;
          int64_t t = sv.kind == ValueKind::Tuple ? sv.elems[size_t(ax)].constant->i : sv.constant->i;
          const ArrayDim& d = arr->dims[size_t(src)];
          std::string extent = d.symbol.empty() ? fmt::format("{}", d.constant) : d.symbol;
          return fmt::format("tilec_cdiv({}, {})", extent, t);
        }
        default: break;
      }
      break;
    }
    default: break;
  }
  return "0";  // the checker admits nothing else
}

}  // namespace

std::string vectorized_entry(const std::string& kernel) { return kernel + "_v16"; }
std::string general_entry(const std::string& kernel) { return kernel; }

KernelAbi make_kernel_abi(const KernelInfo& k, const LoweredKernel& low) {
  KernelAbi abi;
  abi.name = k.name;
  abi.doc = k.doc;
  std::set<const ArrayParam*> written;
  ir::walk(low.fn->body, [&](ir::Op& op) {
    // Stores, scatters and atomics write their array (operand 0).
    if (op.kind == ir::OpKind::Store || op.kind == ir::OpKind::Scatter || op.kind == ir::OpKind::Atomic)
      written.insert(op.operands[0]->type.array);
  });
  std::map<const ArrayParam*, int> vector_bytes = array_vector_bytes(low);
  for (const KernelParam& p : k.params) {
    AbiParam ap;
    ap.kind = p.is_array ? AbiParam::Kind::Array : AbiParam::Kind::Scalar;
    ap.name = p.name;
    ap.dtype = p.dtype;
    if (p.is_array) {
      ap.dims = p.array->dims;
      ap.may_write = written.count(p.array) > 0;
      if (auto it = vector_bytes.find(p.array); it != vector_bytes.end()) ap.vector_bytes = it->second;
    }
    abi.params.push_back(ap);
  }
  for (const DimSymbol& d : k.dims) abi.dim_symbols.push_back(d.name);
  for (const Expr* g : k.grid) abi.grid.dims_c.push_back(grid_c(*g, abi.grid.uses_num_sms));
  abi.variants = {{vectorized_entry(k.name), true}, {general_entry(k.name), false}};
  for (const auto& [op, condition] : host_checked_asserts(*low.fn)) abi.host_asserts.push_back(condition);
  abi.threads_per_cta = low.threads();
  abi.num_warps = low.num_warps;
  abi.num_stages = k.num_stages ? k.num_stages : 1;
  abi.dynamic_shared_bytes = int(low.shared_bytes());  // conversion buffer and pipeline stages
  return abi;
}

}  // namespace tilec::codegen
