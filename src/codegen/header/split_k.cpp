// Split-K configurations in the generated header (ir/split_k.h; docs/tuning.md "Split-K"): the
// workspace a configuration needs, its launch of the partials kernel then the reduce kernel,
// and K_workspace_bytes.
#include <fmt/format.h>

#include "codegen/header/c_text.h"
#include "codegen/header/kernel_parts.h"
#include "ir/split_k.h"

namespace tilec::header_parts {
namespace {

// The workspace's extents and strides (in elements) for a partials kernel of `c`, as C
// initializers over int64_t tilec_rows (slices x CTAs x tile rows): [rows, accumulator dims but
// the first], dense.
void workspace_shape(const Kernel& c, std::string& shape, std::string& strides) {
  const AbiParam& ws = c.abi.params.back();
  std::vector<std::string> extents(ws.dims.size()), stride(ws.dims.size());
  int64_t inner = 1;
  for (size_t d = ws.dims.size(); d-- > 1;) {
    extents[d] = std::to_string(ws.dims[d].constant);
    stride[d] = std::to_string(inner);
    inner *= ws.dims[d].constant;
  }
  extents[0] = "tilec_rows";
  stride[0] = std::to_string(inner);
  shape = join(extents, ", ");
  strides = join(stride, ", ");
}

// The scalar parameters the grid depends on, each as `prefix` + name (a parameter list with
// "int64_t ", an argument list with "(int64_t)"), after `first`.
std::string with_grid_scalars(const Kernel& c, std::string first, std::string_view prefix) {
  std::vector<std::string> out = {std::move(first)};
  for (const AbiParam* s : c.scalars)
    if (is_grid_scalar(*s)) out.push_back(std::string(prefix) + s->name);
  return join(out, ", ");
}

// The workspace's bytes for the partials grid in int64_t tilec_g[3]: the original grid times
// the slices (already in tilec_g) times one slice's accumulator.
std::string workspace_bytes_expr(const KernelAbi& a) {
  return fmt::format("(uint64_t)tilec_g[0] * (uint64_t)tilec_g[1] * (uint64_t)tilec_g[2] * {}u", a.partial_bytes);
}

}  // namespace

std::string workspace_bytes_args(const Kernel& c) { return with_grid_scalars(c, "tilec_sym", "(int64_t)"); }

std::string define_split_launch(const Public& pk, const Kernel& c) {
  const KernelAbi& a = c.abi;
  const Kernel& r = c.reduce.at(0);
  const std::string grid_call =
      fmt::format("  {}_tilec_grid_expr({});\n", c.sym, symbol_function_args(c, stub_extent, "", "tilec_g"));
  std::string out = fmt::format("static uint64_t {}_tilec_workspace_bytes({}) {{\n  int64_t tilec_g[3];\n", c.sym,
                                with_grid_scalars(c, "const int64_t* tilec_sym", "int64_t "));
  out += grid_call;
  out += fmt::format("  if (tilec_g[0] <= 0 || tilec_g[1] <= 0 || tilec_g[2] <= 0) return 0;\n  return {};\n}}\n\n",
                     workspace_bytes_expr(a));
  // The launch: the same checks as one kernel's (asserts, empty grid), then the workspace, then
  // the two kernels. The partials kernel's arguments are the public ones with the workspace
  // array (its last) described over the caller's buffer.
  std::string shape, strides;
  workspace_shape(c, shape, strides);
  size_t rank = a.params.back().dims.size();
  out += fmt::format("static CUresult {}_split({},\n    const int64_t* tilec_sym, int tilec_vec, CUdevice tilec_dev) {{\n",
                     c.sym, strided_params(pk.k));
  out += "  int64_t tilec_g[3], tilec_rows;\n  CUresult tilec_r;\n";
  out += fmt::format("  CUdeviceptr {} = workspace;\n", ir::kPartialsParam);
  if (!a.host_asserts.empty())
    out += fmt::format("  if (!({})) return CUDA_ERROR_INVALID_VALUE;  /* the kernel's asserts on extents */\n",
                       join(a.host_asserts, " && "));
  out += grid_call;
  out += "  if (tilec_g[0] < 0 || tilec_g[1] < 0 || tilec_g[2] < 0) return CUDA_ERROR_INVALID_VALUE;\n"
         "  if (tilec_g[0] == 0 || tilec_g[1] == 0 || tilec_g[2] == 0) return CUDA_SUCCESS;\n";
  // The partials kernel's grid is the original one times the slices.
  out += fmt::format("  if (tilec_g[0] * tilec_g[1] * tilec_g[2] > {} / {}) return CUDA_ERROR_INVALID_VALUE;  "
                     "/* the workspace's constant extent */\n",
                     ir::kWorkspaceRows, a.partial_rows);
  out += fmt::format("  tilec_rows = tilec_g[0] * tilec_g[1] * tilec_g[2] * {};\n", a.partial_rows);
  out += fmt::format("  if (workspace % 16 != 0 || workspace_bytes < {}) return CUDA_ERROR_INVALID_VALUE;\n",
                     workspace_bytes_expr(a));
  out += fmt::format("  int64_t {}[{}] = {{{}}};\n", array_argument_name(ir::kPartialsParam, "shape"), rank, shape);
  out += fmt::format("  int64_t {}[{}] = {{{}}};\n", array_argument_name(ir::kPartialsParam, "strides"), rank, strides);
  std::vector<std::string> call = {"stream"};
  for (const std::string& x : strided_args(c)) call.push_back(x);
  call.push_back("tilec_sym");
  call.push_back("tilec_vec");
  call.push_back("tilec_dev");
  out += fmt::format("  tilec_r = {}_launch({});\n  if (tilec_r != CUDA_SUCCESS) return tilec_r;\n", c.sym,
                     join(call, ", "));
  out += fmt::format("  return {}_launch({});\n}}\n\n", r.sym, join(call, ", "));
  return out;
}

std::string define_workspace_function(const Public& pk) {
  const Kernel& k = pk.k;
  std::string out = fmt::format("TILEC_ABI6_WEAK size_t {0}_workspace_bytes({1});\nsize_t {0}_workspace_bytes({1}) {{\n",
                                k.sym, extent_params(k));
  std::vector<std::string> dims;
  for (const std::string& d : k.abi.dim_symbols) dims.push_back(d);
  if (dims.empty()) dims.push_back("0");
  out += fmt::format("  const int64_t tilec_sym[{}] = {{{}}};\n  uint64_t tilec_most = 0, tilec_b;\n  (void)tilec_sym;\n",
                     dims.size(), join(dims, ", "));
  for (const AbiParam* s : k.scalars) out += "  (void)" + s->name + ";\n";
  for (const std::string& d : k.abi.dim_symbols) out += "  if (" + d + " < 0) return 0;\n";
  for (const Kernel& c : pk.configs) {
    if (c.reduce.empty()) continue;
    std::string ok = c.abi.host_asserts.empty() ? "1" : join(c.abi.host_asserts, " && ");
    out += fmt::format("  if ({}) {{\n    tilec_b = {}_tilec_workspace_bytes({});\n"
                       "    if (tilec_b > tilec_most) tilec_most = tilec_b;\n  }}\n",
                       ok, c.sym, workspace_bytes_args(c));
  }
  out += "  return (size_t)tilec_most;\n}\n\n";
  return out;
}

}  // namespace tilec::header_parts
