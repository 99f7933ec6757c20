// KernelAbi construction: the grid expressions become C over int64_t.
#include "codegen/lowering/abi.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "basic/diagnostics.h"
#include "codegen/launch/host_expr.h"
#include "codegen/lowering/path_table.h"
#include "codegen/lowering/vector_access.h"
#include "ir/split_k.h"

namespace tilec::codegen {
namespace {

// C for a grid term over int64_t variables named after the dimension symbols and integer
// scalars (kernel_abi.h AbiGrid), with the header's Python-semantics helpers.
std::string grid_c(const ir::Signature& sig, const ir::GridExpr& e, bool& uses_sms) {
  using K = ir::GridExpr::Kind;
  auto arg = [&](size_t i) { return grid_c(sig, e.args[i], uses_sms); };
  switch (e.kind) {
    case K::Const: return fmt::format("{}", e.value);
    case K::Dim: return sig.dims[size_t(e.index)].name;
    case K::Scalar: return sig.params[size_t(e.index)].name;
    case K::Neg: return "(-" + arg(0) + ")";
    case K::Add: return "(" + arg(0) + " + " + arg(1) + ")";
    case K::Sub: return "(" + arg(0) + " - " + arg(1) + ")";
    case K::Mul: return "(" + arg(0) + " * " + arg(1) + ")";
    case K::FloorDiv: return "tilec_floordiv(" + arg(0) + ", " + arg(1) + ")";
    case K::Cdiv: return "tilec_cdiv(" + arg(0) + ", " + arg(1) + ")";
    case K::Min: return "tilec_min(" + arg(0) + ", " + arg(1) + ")";
    case K::Max: return "tilec_max(" + arg(0) + ", " + arg(1) + ")";
    case K::NumSms: uses_sms = true; return "num_sms";
  }
  return "0";
}

}  // namespace

std::vector<AbiDivisor> abi_divisors(const LoweredKernel& low) {
  std::vector<AbiDivisor> out;
  for (const LaunchDivisor& d : low.launch_divisors) out.push_back({d.c_expr, d.value->type.tile.dtype});
  return out;
}

AbiPath portable_abi_path(const LoweredKernel& low) {
  const std::string& k = low.fn->sig.name;
  AbiPath path;
  path.variants = {{vectorized_entry(k), true}, {general_entry(k), false}};
  path.threads_per_cta = low.threads();
  path.num_warps = low.num_warps;
  path.num_stages = low.num_stages();
  path.dynamic_shared_bytes = int(low.shared_bytes());  // conversion buffer and pipeline stages
  path.divisors = abi_divisors(low);
  return path;
}

KernelAbi make_kernel_abi(const LoweredKernel& low, const std::vector<const LoweredKernel*>& specific) {
  const ir::Signature& k = low.fn->sig;
  KernelAbi abi;
  abi.name = k.name;
  abi.doc = k.doc;
  std::set<const ir::ArrayParam*> written;
  ir::walk(low.fn->body, [&](ir::Op& op) {
    // Stores, scatters and atomics write their array (operand 0).
    if (op.kind == ir::OpKind::Store || op.kind == ir::OpKind::Scatter || op.kind == ir::OpKind::Atomic)
      written.insert(op.operands[0]->type.array);
  });
  std::map<const ir::ArrayParam*, int> vector_bytes = array_vector_bytes(low);
  for (const ir::Param& p : k.params) {
    AbiParam ap;
    ap.kind = p.is_array ? AbiParam::Kind::Array : AbiParam::Kind::Scalar;
    ap.name = p.name;
    ap.dtype = p.dtype;
    if (p.is_array) {
      ap.workspace = k.split.slices > 1 && p.name == ir::kPartialsParam;
      if (ap.workspace) {
        int64_t bytes = dtype_bytes(p.dtype) * k.split.tile_rows;
        for (size_t d = 1; d < p.array->dims.size(); ++d) bytes *= p.array->dims[d].constant;
        abi.partial_bytes = bytes;
        abi.partial_rows = k.split.tile_rows;
      }
      ap.dims = p.array->dims;
      ap.may_write = written.count(p.array) > 0;
      if (auto it = vector_bytes.find(p.array); it != vector_bytes.end()) ap.vector_bytes = it->second;
    }
    abi.params.push_back(ap);
  }
  abi.split_k = k.split.slices;
  abi.split_reduce = k.split.reduce;
  for (const ir::DimSymbol& d : k.dims) abi.dim_symbols.push_back(d.name);
  for (const ir::GridExpr& g : k.grid) abi.grid.dims_c.push_back(grid_c(k, g, abi.grid.uses_num_sms));
  // Dimension symbols are identifiers: no escapes needed in the string key.
  HostLeaves python{[&k](int dim) { return "e[\"" + k.dims[size_t(dim)].name + "\"]"; }, nullptr};
  for (const auto& [op, condition] : low.host_asserts) {
    abi.host_asserts.push_back(condition);
    abi.host_assert_messages.push_back(op->text);
    std::optional<std::string> py = host_python_expr(*low.fn, op->operands[0], python);
    TILEC_ASSERT(py.has_value(), "an assert on extents with a C condition and no Python one");
    abi.host_asserts_python.push_back(*py);
  }
  for (const LoweredKernel* l : specific) abi.paths.push_back(code_path(l->path).abi(*l));
  abi.paths.push_back(code_path(low.path).abi(low));
  return abi;
}

KernelAbi public_view(KernelAbi abi) {
  if (abi.split_k <= 1) return abi;
  // The workspace is the last parameter: no other parameter's index moves.
  int workspace = int(abi.params.size()) - 1;
  TILEC_ASSERT(abi.params.back().workspace, "a split-K kernel's last parameter is not its workspace");
  abi.params.pop_back();
  for (AbiPath& p : abi.paths) std::erase_if(p.tensor_maps, [&](const AbiTensorMap& m) { return m.param == workspace; });
  if (!abi.split_reduce) abi.grid.dims_c.pop_back();
  abi.split_k = 1;
  abi.split_reduce = false;
  abi.partial_bytes = 0;
  abi.partial_rows = 0;
  return abi;
}

}  // namespace tilec::codegen
