// The C++ source of --emit=torch: banner, includes, the embedded headers (hidden visibility),
// the fixed runtime, per kernel its tables and the functions behind its two ops, then the
// registration through the stable ABI's STABLE_TORCH_LIBRARY macros.
//
// Every name the generated code declares or uses inside a function starts with `tilec_` or is
// qualified (`torch::stable::Tensor`), so no kernel parameter can shadow it: the header refuses
// parameter names that contain `tilec_`.
#include <fmt/format.h>

#include "codegen/header/c_text.h"
#include "codegen/torch/op.h"
#include "codegen/torch/runtime.h"

namespace tilec::codegen::torch {
namespace {

// The stable ABI version the source targets: PyTorch 2.10 (torch/csrc/stable/version.h). It
// needs new_empty with a dtype (2.9) and the current CUDA stream of the shim; 2.10 is the first
// release whose STABLE_TORCH_LIBRARY_IMPL passes the extension's ABI version.
constexpr const char* kTargetVersion = "(((0ULL + 2) << 56) | ((0ULL + 10) << 48))";

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

// `text` as `// ` comment lines (empty lines kept as `//`).
std::string comment_lines(const std::string& text, const std::string& indent = "") {
  std::string out;
  size_t start = 0;
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.empty()) return out;
  while (start <= t.size()) {
    size_t end = t.find('\n', start);
    if (end == std::string::npos) end = t.size();
    std::string line = t.substr(start, end - start);
    out += indent + (line.empty() ? "//\n" : "// " + line + "\n");
    start = end + 1;
  }
  return out;
}

std::string ns_of(const TorchOp& op) { return "tilec_op_" + op.name; }

// The tables of one kernel (tilec_torch::Kernel and what it points to).
std::string kernel_tables(const TorchInput& in, const TorchOp& op) {
  std::string out;
  std::vector<std::string> arrays;
  for (const OpArg& a : op.args) {
    if (a.array < 0) continue;
    std::vector<std::string> extents;
    for (const ArrayDim& d : a.param->dims) {
      if (d.symbol.empty()) {
        extents.push_back(fmt::format("{{-1, {}}}", d.constant));
      } else {
        size_t s = 0;
        while (op.dims[s] != d.symbol) ++s;
        extents.push_back(fmt::format("{{{}, 0}}", s));
      }
    }
    std::string extents_name = "tilec_extents_" + std::to_string(a.array);
    if (!extents.empty())
      out += fmt::format("const tilec_torch::Extent {}[] = {{{}}};  // {}\n", extents_name, join(extents, ", "),
                         a.param->name);
    arrays.push_back(fmt::format("{{{}, {}, {}, {}}}", c_string_literal(a.param->name), a.param->dims.size(),
                                 extents.empty() ? "nullptr" : extents_name, a.written ? "true" : "false"));
  }
  out += "const tilec_torch::Array tilec_arrays[] = {\n    " + join(arrays, ",\n    ") + "};\n";
  std::vector<std::string> dims;
  for (const std::string& d : op.dims) dims.push_back(c_string_literal(d));
  if (!dims.empty()) out += "const char* const tilec_dims[] = {" + join(dims, ", ") + "};\n";
  std::vector<std::string> builds, dtypes, tile_dtypes;
  for (size_t b = 0; b < in.builds.size(); ++b) {
    builds.push_back(c_string_literal(in.builds[b].defines));
    std::vector<std::string> d, t;
    for (DType x : op.dtypes[b]) {
      d.push_back("torch::headeronly::ScalarType::" + torch_scalar_type(x));
      t.push_back(c_string_literal(dtype_name(x)));
    }
    std::string label = in.builds[b].defines.empty() ? "" : "  // " + in.builds[b].defines;
    dtypes.push_back(join(d, ", ") + "," + label);
    tile_dtypes.push_back(join(t, ", ") + ",");
  }
  out += "const char* const tilec_builds[] = {" + join(builds, ", ") + "};\n";
  out += "const torch::headeronly::ScalarType tilec_dtypes[] = {  // [build][array]\n    " + join(dtypes, "\n    ") + "\n};\n";
  out += "const char* const tilec_tile_dtypes[] = {\n    " + join(tile_dtypes, "\n    ") + "\n};\n";
  out += fmt::format(
      "const tilec_torch::Kernel tilec_kernel = {{{}, {}, {}, {}, {}, tilec_arrays, {}, tilec_builds, tilec_dtypes, "
      "tilec_tile_dtypes}};\n",
      c_string_literal(op.name), c_string_literal(in.ns + "::" + op.name), op.dims.size(),
      dims.empty() ? "nullptr" : "tilec_dims", arrays.size(), in.builds.size());
  return out;
}

// A scalar argument converted to the C type of the header's launch function in build `b`.
std::string scalar_value(const OpArg& a, DType t) {
  const std::string& n = a.param->name;
  auto integer = [&](const std::string& type) {
    return fmt::format("tilec_call.integer<{}>({}, \"{}\", {})", type, c_string_literal(n), dtype_name(t), n);
  };
  // int64_t and double pass as they are; the other integers are range-checked into their C type;
  // f32, and f16/bf16, which the header rounds from float, pass as float.
  if (t == DType::Bool || t == DType::I64 || t == DType::F64) return n;
  if (is_integer(t)) return integer(c_type(t));
  return "float(" + n + ")";
}

// The parameters of a function taking every kernel parameter (the out form, the launch).
std::string all_params(const TorchOp& op) {
  std::vector<std::string> ps;
  for (const OpArg& a : op.args)
    ps.push_back(a.array >= 0 ? "const torch::stable::Tensor& " + a.param->name
                              : cpp_scalar_type(a.param->dtype) + " " + a.param->name);
  return join(ps, ", ");
}

std::string all_args(const TorchOp& op) {
  std::vector<std::string> as;
  for (const OpArg& a : op.args) as.push_back(a.param->name);
  return join(as, ", ");
}

std::string launch_function(const TorchInput& in, const TorchOp& op, size_t k) {
  std::string out = "// Launches the build the checks chose, on PyTorch's current stream of the arrays' device.\n";
  out += "void tilec_launch(const tilec_torch::Call& tilec_call, " + all_params(op) + ") {\n";
  out += "  tilec_torch::Launch tilec_env(tilec_call);\n";
  out += "  CUresult tilec_result = CUDA_ERROR_INVALID_VALUE;\n";
  out += "  switch (tilec_call.build()) {\n";
  for (size_t b = 0; b < in.builds.size(); ++b) {
    const TorchBuild& build = in.builds[b];
    const KernelAbi& abi = build.kernels[k].abi;
    std::vector<std::string> args = {"tilec_env.stream()"};
    for (size_t i = 0; i < op.args.size(); ++i) {
      const OpArg& a = op.args[i];
      const std::string& n = a.param->name;
      if (a.array < 0)
        args.push_back(scalar_value(a, abi.params[i].dtype));
      else if (a.param->dims.empty())
        args.push_back("tilec_torch::ptr(" + n + ")");
      else
        args.push_back(fmt::format("tilec_torch::ptr({0}), {0}.sizes().data(), {0}.strides().data()", n));
    }
    out += fmt::format("    case {}:{}\n", b, build.defines.empty() ? "" : "  // " + build.defines);
    if (abi.workspace_arg) {
      // A split-K configuration's workspace, as large as any configuration for these extents needs.
      std::vector<std::string> extents;
      for (size_t d = 0; d < abi.dim_symbols.size(); ++d) extents.push_back(fmt::format("tilec_call.extent({})", d));
      const OpArg* like = nullptr;
      for (size_t i = 0; i < op.args.size(); ++i) {
        if (op.args[i].array < 0) extents.push_back(scalar_value(op.args[i], abi.params[i].dtype));
        else if (!like) like = &op.args[i];
      }
      out += fmt::format("    {{\n      size_t tilec_ws_bytes = {}{}_workspace_bytes({});\n"
                         "      torch::stable::Tensor tilec_ws = tilec_call.workspace({}, tilec_ws_bytes);\n",
                         build.prefix, op.name, join(extents, ", "), like->param->name);
      args.push_back("tilec_torch::ptr(tilec_ws), tilec_ws_bytes");
      out += fmt::format("      tilec_result = {}{}_strided(\n          {});\n      break;\n    }}\n", build.prefix,
                         op.name, join(args, ",\n          "));
      continue;
    }
    out += fmt::format("      tilec_result = {}{}_strided(\n          {});\n      break;\n", build.prefix, op.name,
                       join(args, ",\n          "));
  }
  out += "  }\n  tilec_call.check(tilec_result);\n}\n";
  return out;
}

bool has_asserts(const TorchInput& in, size_t k) {
  for (const TorchBuild& b : in.builds)
    if (!b.kernels[k].abi.host_asserts.empty()) return true;
  return false;
}

// The kernel's asserts on extents, in the header's own C over `tilec_sym` (its helpers are in
// the embedded header). The header's launch function checks them too, but can only return
// CUDA_ERROR_INVALID_VALUE; checked here first, the error says which assert failed.
std::string asserts_function(const TorchInput& in, const TorchOp& op, size_t k) {
  std::string out = "// The kernel's asserts on extents, with their messages (docs/torch.md, \"Checks\").\n";
  out += "void tilec_check_asserts(const tilec_torch::Call& tilec_call) {\n";
  if (!op.dims.empty()) {  // conditions without extents (constants alone) do not read it
    out += fmt::format("  int64_t tilec_sym[{}];\n", op.dims.size());
    out += fmt::format("  for (int tilec_s = 0; tilec_s < {}; ++tilec_s) tilec_sym[tilec_s] = tilec_call.extent(tilec_s);\n",
                       op.dims.size());
  }
  out += "  switch (tilec_call.build()) {\n";
  for (size_t b = 0; b < in.builds.size(); ++b) {
    const KernelAbi& abi = in.builds[b].kernels[k].abi;
    if (abi.host_asserts.empty()) continue;
    out += fmt::format("    case {}:{}\n", b, in.builds[b].defines.empty() ? "" : "  // " + in.builds[b].defines);
    for (size_t i = 0; i < abi.host_asserts.size(); ++i)
      out += fmt::format("      if (!({})) tilec_call.fail({});\n", abi.host_asserts[i],
                         c_string_literal("the kernel's assert on extents failed: " + abi.host_assert_messages[i]));
    out += "      break;\n";
  }
  out += "  }\n}\n";
  return out;
}

// The call of tilec_check_asserts after the checks of `Call`, where the kernel has asserts.
std::string asserts_call(const TorchInput& in, size_t k) {
  return has_asserts(in, k) ? "  tilec_check_asserts(tilec_call);\n" : "";
}

std::string out_function(const TorchInput& in, const TorchOp& op, size_t k) {
  std::vector<std::string> ptrs;
  for (const OpArg& a : op.args)
    if (a.array >= 0) ptrs.push_back("&" + a.param->name);
  std::string out = "// " + out_schema(op) + "\n";
  out += "void tilec_out(" + all_params(op) + ") {\n";
  out += "  const torch::stable::Tensor* tilec_given[] = {" + join(ptrs, ", ") + "};\n";
  out += "  tilec_torch::Call tilec_call(tilec_kernel, \".out\", tilec_given);\n";
  out += asserts_call(in, k);
  out += "  tilec_launch(tilec_call, " + all_args(op) + ");\n}\n";
  return out;
}

std::string functional_function(const TorchInput& in, const TorchOp& op, size_t k) {
  std::vector<std::string> params, ptrs, outputs;
  const std::string* first_input = nullptr;
  for (const OpArg& a : op.args) {
    if (a.output) {
      ptrs.push_back("nullptr");
      outputs.push_back(a.param->name);
      continue;
    }
    if (a.array >= 0) {
      ptrs.push_back("&" + a.param->name);
      if (!first_input) first_input = &a.param->name;
      params.push_back("const torch::stable::Tensor& " + a.param->name);
    } else {
      params.push_back(cpp_scalar_type(a.param->dtype) + " " + a.param->name);
    }
  }
  for (int s : op.size_args) params.push_back("int64_t " + op.dims[size_t(s)]);
  std::string ret = outputs.size() == 1 ? "torch::stable::Tensor" : "std::tuple<";
  if (outputs.size() > 1) {
    for (size_t i = 0; i < outputs.size(); ++i) ret += i ? ", torch::stable::Tensor" : "torch::stable::Tensor";
    ret += ">";
  }
  std::string out = "// " + functional_schema(op) + "\n";
  out += ret + " tilec_functional(" + join(params, ", ") + ") {\n";
  out += "  const torch::stable::Tensor* tilec_given[] = {" + join(ptrs, ", ") + "};\n";
  std::string sizes = "nullptr";
  if (!op.size_args.empty()) {
    std::vector<std::string> v(op.dims.size(), "-1");
    for (int s : op.size_args) v[size_t(s)] = op.dims[size_t(s)];
    out += "  const int64_t tilec_sizes[] = {" + join(v, ", ") + "};  // -1: bound by an input\n";
    sizes = "tilec_sizes";
  }
  out += "  tilec_torch::Call tilec_call(tilec_kernel, \"\", tilec_given" +
         (sizes == "nullptr" ? std::string() : ", " + sizes) + ");\n";
  out += asserts_call(in, k);
  for (const OpArg& a : op.args)
    if (a.output)
      out += fmt::format("  torch::stable::Tensor {} = tilec_call.output({}, {});\n", a.param->name, a.array, *first_input);
  out += "  tilec_launch(tilec_call, " + all_args(op) + ");\n";
  out += "  return " + (outputs.size() == 1 ? outputs[0] : "{" + join(outputs, ", ") + "}") + ";\n}\n";
  return out;
}

std::string kernel_section(const TorchInput& in, const TorchOp& op, size_t k) {
  std::string out = "\n// ---- " + op.name + " ----\n";
  out += comment_lines(op.doc);
  if (!op.functional) out += "// No functional form: " + op.no_functional + ".\n";
  out += "namespace {\nnamespace " + ns_of(op) + " {\n\n";
  out += kernel_tables(in, op) + "\n";
  out += launch_function(in, op, k) + "\n";
  if (has_asserts(in, k)) out += asserts_function(in, op, k) + "\n";
  out += out_function(in, op, k);
  if (op.functional) out += "\n" + functional_function(in, op, k);
  out += "\n}  // namespace " + ns_of(op) + "\n}  // namespace\n";
  return out;
}

std::string load_function(const TorchInput& in, const std::vector<TorchOp>& ops) {
  std::string out = "\n// ---- tilec_load(int device) -> () ----\n";
  out += "// Loads every kernel of every build onto `device` (the header's <k>_load: the image, each variant in\n"
         "// the device's primary context, the shared memory limit), so that a launch inside CUDA graph\n"
         "// capture loads nothing.\n";
  out += "namespace {\nvoid tilec_load_all(int64_t tilec_device) {\n";
  out += "  torch::stable::accelerator::DeviceGuard tilec_guard{int32_t(tilec_device)};\n";
  out += "  struct {\n    const char* name;\n    CUresult (*load)(void);\n  } const tilec_loads[] = {\n";
  for (const TorchBuild& b : in.builds)
    for (const TorchOp& op : ops)
      out += fmt::format("      {{{}, {}{}_load}},\n", c_string_literal(op.name), b.prefix, op.name);
  out += "  };\n";
  out += "  for (const auto& tilec_k : tilec_loads) {\n";
  out += "    CUresult tilec_result = tilec_k.load();\n";
  out += "    if (tilec_result == CUDA_SUCCESS) continue;\n";
  out += "    const char* tilec_name = nullptr;\n";
  out += "    if (cuGetErrorName(tilec_result, &tilec_name) != CUDA_SUCCESS) tilec_name = \"an unknown CUresult\";\n";
  out += fmt::format("    throw std::runtime_error(std::string({}) + tilec_k.name + \"' failed with \" + tilec_name);\n",
                     c_string_literal(in.ns + "::tilec_load: loading kernel '"));
  out += "  }\n}\n}  // namespace\n";
  return out;
}

std::string registration(const TorchInput& in, const std::vector<TorchOp>& ops) {
  std::string out = "\n// ---- registration (torch.ops." + in.ns + ") ----\n";
  out += "STABLE_TORCH_LIBRARY(" + in.ns + ", m) {\n";
  for (const TorchOp& op : ops) {
    if (op.functional) out += "  m.def(" + c_string_literal(functional_schema(op)) + ");\n";
    out += "  m.def(" + c_string_literal(out_schema(op)) + ");\n";
  }
  out += "  m.def(\"tilec_load(int device) -> ()\");\n}\n";
  // CPU too: a CPU tensor then gets the op's message ("must be a CUDA tensor") instead of the
  // dispatcher's list of backends.
  for (const char* key : {"CUDA", "CPU"}) {
    out += fmt::format("STABLE_TORCH_LIBRARY_IMPL({}, {}, m) {{\n", in.ns, key);
    for (const TorchOp& op : ops) {
      if (op.functional)
        out += fmt::format("  m.impl(\"{0}\", TORCH_BOX(&{1}::tilec_functional));\n", op.name, ns_of(op));
      out += fmt::format("  m.impl(\"{0}.out\", TORCH_BOX(&{1}::tilec_out));\n", op.name, ns_of(op));
    }
    out += "}\n";
  }
  out += "STABLE_TORCH_LIBRARY_IMPL(" + in.ns + ", CompositeExplicitAutograd, m) {\n";
  out += "  m.impl(\"tilec_load\", TORCH_BOX(&tilec_load_all));\n}\n";
  return out;
}

std::string banner(const TorchInput& in, const std::vector<TorchOp>& ops) {
  std::string out = fmt::format("// Generated by tilec {} from {} (--emit=torch); do not edit.\n//\n", in.tilec_version,
                                in.source_name);
  out += "// PyTorch custom operators for its kernels (docs/torch.md):\n";
  for (const TorchOp& op : ops) {
    if (op.functional) out += "//   torch.ops." + in.ns + "." + functional_schema(op) + "\n";
    out += "//   torch.ops." + in.ns + "." + out_schema(op) + "\n";
  }
  if (in.builds.size() > 1) {
    std::vector<std::string> d;
    for (const TorchBuild& b : in.builds) d.push_back(b.defines);
    out += "// Builds: " + join(d, ", ") + "; each op launches the one whose dtypes match its arguments.\n";
  }
  out += "//\n// Build and load it (" + in.module + ".py beside it does this in load(), then registers the fake\n"
         "// implementations that torch.compile needs):\n";
  out += "//   from torch.utils.cpp_extension import load, include_paths\n";
  out += "//   load(\"" + in.module + "\", [\"" + in.module +
         ".cpp\"], extra_include_paths=include_paths(\"cuda\"),\n"
         "//        extra_ldflags=[\"-ltorch_cuda\", \"-lcuda\"], is_python_module=False)\n";
  out += "// It uses only the LibTorch stable ABI (torch/csrc/stable) of PyTorch 2.10, so the library works with\n"
         "// PyTorch 2.10 and later.\n\n";
  return out;
}

std::string includes() {
  std::string out = std::string("#ifndef TORCH_TARGET_VERSION\n#define TORCH_TARGET_VERSION ") + kTargetVersion + "\n#endif\n";
  out += "#ifndef USE_CUDA\n#define USE_CUDA  // the shim's CUDA part: aoti_torch_get_current_cuda_stream\n#endif\n\n";
  // The headers' own includes come first, outside the hidden-visibility region: declarations
  // of libcuda and libc functions must keep default visibility.
  out += "#include <cuda.h>\n#include <pthread.h>\n#include <stdbool.h>\n#include <stdint.h>\n#include <string.h>\n\n";
  out += "#include <limits>\n#include <stdexcept>\n#include <string>\n#include <tuple>\n#include <type_traits>\n#include <vector>\n\n";
  out += "#include <torch/csrc/stable/accelerator.h>\n#include <torch/csrc/stable/library.h>\n"
         "#include <torch/csrc/stable/ops.h>\n#include <torch/csrc/stable/tensor.h>\n"
         "#include <torch/headeronly/core/ScalarType.h>\n";
  return out;
}

std::string embedded_headers(const TorchInput& in) {
  std::string out = "\n// ---- the generated header of each build (docs/header.md), its symbols hidden inside this library ----\n";
  out += "#pragma GCC visibility push(hidden)\n";
  for (const TorchBuild& b : in.builds) {
    std::string what = b.defines.empty() ? "" : " -D " + b.defines;
    out += fmt::format("\n// -- tilec {}{} --prefix '{}' --\n", in.source_name, what, b.prefix);
    out += b.header;
  }
  out += "\n#pragma GCC visibility pop\n\n";
  return out;
}

}  // namespace

std::string generate_torch_cpp(const TorchInput& in) {
  std::vector<TorchOp> ops;
  for (size_t k = 0; k < in.builds[0].kernels.size(); ++k) ops.push_back(make_op(in, k));
  std::string out = banner(in, ops) + includes() + embedded_headers(in);
  out += cpp_runtime_section();
  for (size_t k = 0; k < ops.size(); ++k) out += kernel_section(in, ops[k], k);
  out += load_function(in, ops);
  out += registration(in, ops);
  return out;
}

}  // namespace tilec::codegen::torch
