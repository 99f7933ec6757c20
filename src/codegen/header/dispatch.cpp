// The choice among a kernel's configurations in the generated header (docs/tuning.md "How a
// launch chooses"): the embedded tuning table, the chooser, the launch that checks the arrays
// and runs the chosen or a forced configuration, and k_config. The C helpers they call
// (tilec_device, tilec_tuned_config, tilec_estimate) are in runtime.cpp.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/header/c_text.h"
#include "codegen/header/kernel_parts.h"

namespace tilec::header_parts {
namespace {

// The arguments of a call of K_tilec_choose from a launch function: `vec` says whether the
// arrays are aligned for the vectorized and arch-specific paths, `workspace` how many bytes of
// workspace the launch has (kernels with split-K configurations).
std::string choose_args(const Kernel& k, const std::string& vec, const std::string& workspace) {
  std::vector<std::string> args = {"stream", "&tilec_dev", "tilec_sym"};
  for (const AbiParam* s : k.scalars)
    if (is_grid_scalar(*s)) args.push_back("(int64_t)" + s->name);
  args.push_back(vec);
  if (k.workspace) args.push_back(workspace);
  args.push_back("&tilec_r");
  return join(args, ", ");
}

}  // namespace

// The embedded tuning table's sections (HeaderTuningSection): K_tilec_tuning.
std::string define_tuning(const Public& pk) {
  const std::vector<HeaderTuningSection>& sections = *pk.tuning;
  std::string out;
  std::vector<std::string> rows;
  for (size_t i = 0; i < sections.size(); ++i) {
    const HeaderTuningSection& t = sections[i];
    std::vector<std::string> extents, configs;
    for (const std::vector<int64_t>& row : t.extents)
      for (int64_t e : row) extents.push_back(std::to_string(e));
    for (int c : t.configs) configs.push_back(std::to_string(c));
    if (extents.empty()) extents.push_back("0");
    if (configs.empty()) configs.push_back("0");
    out += fmt::format("static const int64_t {}_tilec_tuned{}_extents[{}] = {{{}}};\n", pk.k.sym, i, extents.size(),
                       join(extents, ", "));
    out += fmt::format("static const int {}_tilec_tuned{}_configs[{}] = {{{}}};\n", pk.k.sym, i, configs.size(),
                       join(configs, ", "));
    rows.push_back(fmt::format("{{{}, {}, {}, {}, {}_tilec_tuned{}_extents, {}_tilec_tuned{}_configs}}",
                               c_string_literal(t.gpu), t.compute_capability, t.sms, t.configs.size(), pk.k.sym, i,
                               pk.k.sym, i));
  }
  out += fmt::format("static const tilec_tuning_section {}_tilec_tuning[{}] = {{\n    {}}};\n\n", pk.k.sym,
                     rows.size(), join(rows, ",\n    "));
  return out;
}

// K_tilec_choose: the configuration a launch takes (docs/tuning.md): the one the environment
// forces, else the tuning table's for the device, else the smallest estimate (tilec_estimate)
// among the eligible ones, the first declared on a tie. -1 when none is eligible (or the forced
// one is not). Like a launch of one configuration it touches the driver only when it must: not
// when no configuration is eligible, nor when every eligible one has an empty grid (then the
// first of them: the launch does nothing). *tilec_dev is the stream's device, asked when needed
// (-1 until then).
std::string define_choose(const Public& pk) {
  const Kernel& k = pk.k;
  std::vector<std::string> ps = {"CUstream stream", "CUdevice* tilec_dev", "const int64_t* tilec_sym"};
  for (const AbiParam* s : k.scalars)
    if (is_grid_scalar(*s)) ps.push_back("int64_t " + s->name);
  ps.push_back("int tilec_vec");
  if (k.workspace) ps.push_back("uint64_t tilec_ws_bytes");
  ps.push_back("CUresult* tilec_r");
  std::string out = fmt::format("static int {}_tilec_choose({}) {{\n", k.sym, join(ps, ", "));
  out += "  static int tilec_forced = -2;\n";
  out += fmt::format("  int tilec_ok[{}] = TILEC_ABI6_ZERO;\n", pk.labels.size());
  out += "  int64_t tilec_g[3], tilec_est, tilec_best_est = 0;\n  uint32_t tilec_grid[3];\n"
         "  int tilec_c, tilec_best = -1, tilec_empty = -1;\n  const tilec_device_desc* tilec_d;\n";
  for (const AbiParam* s : k.scalars)
    if (is_grid_scalar(*s)) out += "  (void)" + s->name + ";\n";
  out += "  (void)tilec_sym;\n  (void)tilec_vec;\n  *tilec_r = CUDA_SUCCESS;\n";
  for (const Kernel& c : pk.configs) {
    std::vector<std::string> ok = c.abi.host_asserts;
    if (!c.reduce.empty())  // a split-K configuration fits in the launch's workspace
      ok.push_back(fmt::format("{}_tilec_workspace_bytes({}) <= tilec_ws_bytes", c.sym, workspace_bytes_args(c)));
    out += fmt::format("  tilec_ok[{}] = {};\n", c.index, ok.empty() ? "1" : join(ok, " && "));
  }
  out += fmt::format("  tilec_c = tilec_forced_config(&tilec_forced, {});\n"
                     "  if (tilec_c >= 0) return tilec_c < {} && tilec_ok[tilec_c] ? tilec_c : -1;\n",
                     c_string_literal("TILEC_CONFIG_" + k.sym), pk.labels.size());
  // Before the driver: whether any configuration is eligible and whether every eligible one's
  // grid is empty (a grid with num_sms() needs the device: it counts as not empty).
  std::vector<std::string> any;
  for (const Kernel& c : pk.configs) any.push_back(fmt::format("tilec_ok[{}]", c.index));
  out += "  if (!(" + join(any, " || ") + ")) return -1;\n";
  bool sms = false;
  for (const Kernel& c : pk.configs) sms = sms || c.abi.grid.uses_num_sms;
  if (!sms) {
    out += "  tilec_c = 0;\n";
    for (const Kernel& c : pk.configs) {
      out += fmt::format("  if (tilec_ok[{}]) {{\n    {}_tilec_grid_expr({});\n", c.index, c.sym,
                         symbol_function_args(c, stub_extent, "", "tilec_g"));
      out += fmt::format("    if (tilec_grid_to_u32(tilec_g, tilec_grid) != CUDA_SUCCESS || (tilec_grid[0] && tilec_grid[1] && tilec_grid[2])) tilec_c = 1;\n"
                         "    else if (tilec_empty < 0) tilec_empty = {};\n  }}\n",
                         c.index);
    }
    out += "  if (!tilec_c) return tilec_empty;\n";
  }
  out += "  if (*tilec_dev < 0) {\n"
         "    *tilec_r = tilec_stream_device(stream, tilec_dev);\n"
         "    if (*tilec_r != CUDA_SUCCESS) return -1;\n"
         "  }\n"
         "  tilec_d = tilec_device(*tilec_dev, tilec_r);\n  if (tilec_d == NULL) return -1;\n";
  if (pk.tuning && !pk.tuning->empty()) {
    out += fmt::format("  tilec_c = tilec_tuned_config({0}_tilec_tuning, {1}, tilec_d, tilec_sym, {2}, tilec_ok, {3});\n"
                       "  if (tilec_c >= 0) return tilec_c;\n",
                       k.sym, pk.tuning->size(), k.abi.dim_symbols.size(), pk.labels.size());
  }
  for (const Kernel& c : pk.configs) {
    out += fmt::format("  if (tilec_ok[{}]) {{\n", c.index);
    out += fmt::format("    {}_tilec_grid_expr({});\n", c.sym,
                       symbol_function_args(c, stub_extent, c.abi.grid.uses_num_sms ? "(int64_t)tilec_d->sms" : "",
                                            "tilec_g"));
    out += "    if (tilec_grid_to_u32(tilec_g, tilec_grid) == CUDA_SUCCESS) {\n"
           "      int64_t tilec_ctas = (int64_t)tilec_grid[0] * tilec_grid[1] * tilec_grid[2];\n";
    // The path this device would take (an arch-specific one needs aligned arrays; a TMA path
    // also takes tensor maps, which the estimate assumes encode).
    std::string ind = "      ";
    for (size_t i = 0; i < c.abi.paths.size(); ++i) {
      const AbiPath& p = c.abi.paths[i];
      std::string est = fmt::format("tilec_est = tilec_estimate(tilec_d, tilec_ctas, {}, {}, {}, {});", p.threads_per_cta,
                                    p.dynamic_shared_bytes, p.persistent ? 1 : 0, c.work);
      if (i + 1 == c.abi.paths.size())
        out += (c.abi.paths.size() > 1 ? ind + "else\n" + ind + "  " : ind) + est + "\n";
      else
        out += fmt::format("{}{}if (tilec_vec && tilec_d->compute_capability == {})\n{}  {}\n", ind, i ? "else " : "",
                           path_compute_capability(p), ind, est);
    }
    out += fmt::format("      if (tilec_best < 0 || tilec_est < tilec_best_est) {{\n"
                       "        tilec_best = {};\n        tilec_best_est = tilec_est;\n      }}\n    }}\n  }}\n",
                       c.index);
  }
  out += "  return tilec_best;\n}\n\n";
  return out;
}

// K_tilec_run: checks the arrays, takes configuration `config` (-1: the launch's choice) and
// launches it; what K_strided and K_launch_config_strided do.
std::string define_run(const Public& pk) {
  const Kernel& k = pk.k;
  const KernelAbi& a = k.abi;
  size_t na = k.arrays.size(), ns = std::max<size_t>(1, a.dim_symbols.size());
  std::string out = fmt::format("static CUresult {}_tilec_run(int config, {}) {{\n", k.sym, strided_params(k));
  std::vector<std::string> bases, shapes, strides;
  for (const AbiParam* p : k.arrays) {
    bases.push_back(p->name);
    shapes.push_back(p->dims.empty() ? "NULL" : array_argument_name(p->name, "shape"));
    strides.push_back(p->dims.empty() ? "NULL" : array_argument_name(p->name, "strides"));
  }
  if (na > 0) {
    out += array_tables(k, pk.vector_bytes);
    out += fmt::format("  const CUdeviceptr tilec_base[{}] = {{{}}};\n", na, join(bases, ", "));
    out += fmt::format("  const int64_t* const tilec_shape[{}] = {{{}}};\n", na, join(shapes, ", "));
    out += fmt::format("  const int64_t* const tilec_strides[{}] = {{{}}};\n", na, join(strides, ", "));
    out += fmt::format("  uint64_t tilec_lo[{0}], tilec_hi[{0}];\n  int tilec_nonempty[{0}];\n", na);
  }
  out += fmt::format("  int64_t tilec_sym[{}];\n", ns);
  out += "  int tilec_vec = 1;\n  CUdevice tilec_dev = -1;\n  CUresult tilec_r = CUDA_SUCCESS;\n";
  if (na > 0) {
    out += fmt::format(
        "  tilec_r = tilec_check_arrays({}, tilec_desc, tilec_base, tilec_shape, tilec_strides, tilec_sym, {},\n"
        "                              tilec_lo, tilec_hi, tilec_nonempty, &tilec_vec);\n"
        "  if (tilec_r != CUDA_SUCCESS) return tilec_r;\n",
        na, a.dim_symbols.size());
  } else {
    out += "  tilec_sym[0] = 0;\n";
  }
  if (pk.choose) {
    out += fmt::format("  if (config < 0) {{\n"
                       "    config = {}_tilec_choose({});\n"
                       "    if (config < 0) return tilec_r != CUDA_SUCCESS ? tilec_r : CUDA_ERROR_INVALID_VALUE;\n"
                       "  }}\n",
                       k.sym, choose_args(k, "tilec_vec", "(uint64_t)workspace_bytes"));
  } else {
    out += "  if (config < 0) config = 0;\n";
  }
  // A split-K configuration's launch takes the workspace, the others not.
  std::vector<std::string> call = {"stream"}, split;
  for (const std::string& x : strided_args(k)) call.push_back(x);
  split = call;
  if (k.workspace) call.pop_back();
  for (std::vector<std::string>* c : {&call, &split}) {
    c->push_back("tilec_sym");
    c->push_back("tilec_vec");
    c->push_back("tilec_dev");
  }
  out += "  switch (config) {\n";
  for (const Kernel& c : pk.configs)
    out += fmt::format("    case {}: return {}_{}({});\n", c.index, c.sym, c.reduce.empty() ? "launch" : "split",
                       join(c.reduce.empty() ? call : split, ", "));
  out += "    default: return CUDA_ERROR_INVALID_VALUE;\n  }\n}\n\n";
  // The public strided launches.
  std::vector<std::string> args = {"stream"};
  for (const std::string& x : strided_args(k)) args.push_back(x);
  out += fmt::format("TILEC_ABI6_WEAK CUresult {0}_strided({1});\nCUresult {0}_strided({1}) {{\n"
                     "  return {0}_tilec_run(-1, {2});\n}}\n\n",
                     k.sym, strided_params(k), join(args, ", "));
  out += fmt::format("TILEC_ABI6_WEAK CUresult {0}_launch_config_strided(int config, {1});\n"
                     "CUresult {0}_launch_config_strided(int config, {1}) {{\n"
                     "  if (config < 0) return CUDA_ERROR_INVALID_VALUE;\n"
                     "  return {0}_tilec_run(config, {2});\n}}\n\n",
                     k.sym, strided_params(k), join(args, ", "));
  return out;
}

// K_config: the configuration a launch with these extents would take.
std::string define_config_function(const Public& pk) {
  const Kernel& k = pk.k;
  const KernelAbi& a = k.abi;
  std::string out = fmt::format("TILEC_ABI6_WEAK int {0}_config({1});\nint {0}_config({1}) {{\n", k.sym,
                                config_params(k));
  std::vector<std::string> dims;
  for (const std::string& d : a.dim_symbols) dims.push_back(d);
  if (dims.empty()) dims.push_back("0");
  out += fmt::format("  const int64_t tilec_sym[{}] = {{{}}};\n", dims.size(), join(dims, ", "));
  out += "  CUdevice tilec_dev = -1;\n  CUresult tilec_r = CUDA_SUCCESS;\n  (void)stream;\n  (void)tilec_dev;\n"
         "  (void)tilec_r;\n  (void)tilec_sym;\n";
  for (const AbiParam* s : k.scalars)
    if (!pk.choose || !is_grid_scalar(*s)) out += "  (void)" + s->name + ";\n";
  for (const std::string& d : a.dim_symbols) out += "  if (" + d + " < 0) return -1;\n";
  if (!pk.choose) {
    const KernelAbi& c = pk.configs[0].abi;
    out += fmt::format("  return {} ? {} : -1;\n}}\n\n",
                       c.host_asserts.empty() ? "1" : "(" + join(c.host_asserts, " && ") + ")", pk.configs[0].index);
    return out;
  }
  out += fmt::format("  return {}_tilec_choose({});\n}}\n\n", k.sym, choose_args(k, "1", "UINT64_MAX"));
  return out;
}

}  // namespace tilec::header_parts
