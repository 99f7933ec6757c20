// The op model of a kernel (schemas, mutation marks, functional outputs) and the checks of a
// TorchInput.
#include "codegen/torch/op.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "basic/diagnostics.h"
#include "codegen/header/c_text.h"

namespace tilec::codegen::torch {
namespace {

bool is_array(const AbiParam& p) { return p.kind == AbiParam::Kind::Array; }

// Python's keywords and the soft keywords a parameter name could not be (3.12).
bool is_python_keyword(const std::string& s) {
  static const std::set<std::string> kw = {
      "False", "None",   "True",    "and",      "as",     "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally",  "for",
      "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",    "while",  "with",   "yield"};
  return kw.count(s) > 0;
}

// "a", "b", ..., "z", "ba", "bb", ...: alias set names of the schema (letters only).
std::string alias_name(int i) {
  std::string s;
  do {
    s.insert(s.begin(), char('a' + i % 26));
    i /= 26;
  } while (i > 0);
  return s;
}

std::string extents_text(const AbiParam& p) {
  std::string s = "[";
  for (size_t d = 0; d < p.dims.size(); ++d)
    s += (d ? ", " : "") + (p.dims[d].symbol.empty() ? std::to_string(p.dims[d].constant) : p.dims[d].symbol);
  return s + "]";
}

std::string build_name(const TorchBuild& b) { return b.defines.empty() ? "the build" : "the build " + b.defines; }

// Kernel `k` of `b` against the same kernel of the first build `a`: same names, kinds, ranks and
// extents; only dtypes may differ.
void check_same_signature(const TorchBuild& a, const TorchBuild& b, size_t k, std::vector<std::string>& errors) {
  const KernelAbi& x = a.kernels[k].abi;
  const KernelAbi& y = b.kernels[k].abi;
  auto differ = [&](const std::string& what) {
    errors.push_back(fmt::format("kernel '{}': {} differs from {} in {}; the builds of one op may differ only in dtypes",
                                 x.name, build_name(b), build_name(a), what));
  };
  if (x.name != y.name) return differ("the kernels it defines (" + y.name + ")");
  if (x.params.size() != y.params.size()) return differ("the number of parameters");
  if (x.dim_symbols != y.dim_symbols) return differ("its dimension symbols");
  for (size_t i = 0; i < x.params.size(); ++i) {
    const AbiParam& p = x.params[i];
    const AbiParam& q = y.params[i];
    if (p.name != q.name || p.kind != q.kind) return differ("parameter " + std::to_string(i + 1));
    if (!is_array(p)) continue;
    if (extents_text(p) != extents_text(q)) return differ("the extents of '" + p.name + "'");
    if (p.may_write != q.may_write || a.kernels[k].reads[i] != b.kernels[k].reads[i])
      return differ("whether it reads or writes '" + p.name + "'");
  }
}

}  // namespace

std::string schema_scalar_type(DType t) {
  if (is_bool(t)) return "bool";
  if (is_integer(t)) return "int";
  return "float";
}

std::string cpp_scalar_type(DType t) {
  if (is_bool(t)) return "bool";
  if (is_integer(t)) return "int64_t";
  return "double";
}

bool check_torch_input(const TorchInput& in, std::vector<std::string>& errors) {
  size_t before = errors.size();
  // PyTorch's own namespaces: a library there would add to (or clash with) aten's and prims' ops.
  static const std::set<std::string, std::less<>> kTorchNamespaces = {"aten", "prim", "prims", "torch", "_torch",
                                                                      "quantized", "_quantized", "cuda", "mkldnn"};
  if (!is_c_identifier(in.ns) || is_python_keyword(in.ns))
    errors.push_back("the op namespace '" + in.ns + "' is not a Python identifier; set one with --torch-namespace");
  else if (kTorchNamespaces.count(in.ns))
    errors.push_back("the op namespace '" + in.ns + "' is one of PyTorch's own; set another with --torch-namespace");
  // The companion module imports these: a module of the same name beside it would import itself.
  if (in.module == "torch" || in.module == "os")
    errors.push_back("the output's Python module would be named '" + in.module + "', which shadows the '" +
                     in.module + "' it imports; name the output otherwise");
  TILEC_ASSERT(!in.builds.empty(), "--emit=torch without a build");
  const TorchBuild& first = in.builds[0];
  size_t before_builds = errors.size();
  for (size_t b = 1; b < in.builds.size(); ++b) {
    if (in.builds[b].kernels.size() != first.kernels.size()) {
      errors.push_back(build_name(in.builds[b]) + " defines another set of kernels than " + build_name(first));
      continue;
    }
    for (size_t k = 0; k < first.kernels.size(); ++k) check_same_signature(first, in.builds[b], k, errors);
  }
  if (errors.size() > before_builds) return false;  // the rest compares builds kernel by kernel
  for (size_t k = 0; k < first.kernels.size(); ++k) {
    const KernelAbi& abi = first.kernels[k].abi;
    if (abi.name == "tilec_load") errors.push_back("kernel 'tilec_load': the name of the op that loads the kernels");
    for (const AbiParam& p : abi.params)
      if (is_python_keyword(p.name))
        errors.push_back(fmt::format("kernel '{}': parameter '{}' is a Python keyword; ops are called from Python", abi.name,
                                     p.name));
    for (const std::string& d : abi.dim_symbols)
      if (is_python_keyword(d))
        errors.push_back(fmt::format("kernel '{}': dimension symbol '{}' is a Python keyword", abi.name, d));
    // Builds must differ in some array's dtype, or the op could not tell which one to launch.
    std::set<std::vector<DType>> seen;
    for (const TorchBuild& b : in.builds) {
      std::vector<DType> dtypes;
      for (const AbiParam& p : b.kernels[k].abi.params) {
        if (!is_array(p)) continue;
        dtypes.push_back(p.dtype);
        if (torch_name(p.dtype).empty())
          errors.push_back(fmt::format("kernel '{}': array '{}' has dtype {}, which no PyTorch tensor has", abi.name, p.name,
                                       dtype_name(p.dtype)));
      }
      if (!seen.insert(dtypes).second)
        errors.push_back(fmt::format("kernel '{}': {} gives its arrays the same dtypes as an earlier build; the op could "
                                     "not tell which one to launch",
                                     abi.name, build_name(b)));
    }
  }
  return errors.size() == before;
}

TorchOp make_op(const TorchInput& in, size_t k) {
  const TorchKernel& kernel = in.builds[0].kernels[k];
  const KernelAbi& abi = kernel.abi;
  TorchOp op;
  op.name = abi.name;
  op.doc = abi.doc;
  op.dims = abi.dim_symbols;
  int arrays = 0, aliases = 0;
  for (size_t i = 0; i < abi.params.size(); ++i) {
    const AbiParam& p = abi.params[i];
    OpArg a;
    a.param = &p;
    if (is_array(p)) {
      a.array = arrays++;
      a.read = kernel.reads[i];
      a.written = p.may_write;
      if (a.written) a.alias = alias_name(aliases++);
      a.output = a.written && !a.read;
    }
    op.args.push_back(a);
  }
  for (const TorchBuild& b : in.builds) {
    std::vector<DType> dtypes;
    for (const AbiParam& p : b.kernels[k].abi.params)
      if (is_array(p)) dtypes.push_back(p.dtype);
    op.dtypes.push_back(dtypes);
  }

  // The functional form: every written array is an output, at least one input array gives the
  // device, and the inputs' dtypes choose the build.
  std::vector<std::string> both;
  bool any_output = false, any_input = false;
  for (const OpArg& a : op.args) {
    if (a.array < 0) continue;
    if (a.written && a.read) both.push_back("'" + a.param->name + "'");
    any_output = any_output || a.output;
    any_input = any_input || !a.written;
  }
  std::set<std::vector<DType>> input_dtypes;
  for (const std::vector<DType>& d : op.dtypes) {
    std::vector<DType> inputs;
    for (const OpArg& a : op.args)
      if (a.array >= 0 && !a.written) inputs.push_back(d[size_t(a.array)]);
    input_dtypes.insert(inputs);
  }
  if (!both.empty()) {
    std::string list;
    for (size_t i = 0; i < both.size(); ++i) list += (i ? (i + 1 == both.size() ? " and " : ", ") : "") + both[i];
    op.no_functional = "the kernel reads " + list + ", which it also writes (an accumulation or an in-place update)";
  } else if (!any_output) {
    op.no_functional = "the kernel writes no array";
  } else if (!any_input) {
    op.no_functional = "no input array tells the device";
  } else if (input_dtypes.size() < op.dtypes.size()) {
    op.no_functional = "the builds differ only in the dtypes of outputs, so the inputs cannot choose one";
  } else {
    op.functional = true;
  }
  if (op.functional) {
    std::set<std::string> bound;
    for (const OpArg& a : op.args)
      if (a.array >= 0 && !a.output)
        for (const ArrayDim& d : a.param->dims)
          if (!d.symbol.empty()) bound.insert(d.symbol);
    for (size_t s = 0; s < op.dims.size(); ++s)
      if (!bound.count(op.dims[s])) op.size_args.push_back(int(s));
  }
  return op;
}

std::string out_schema(const TorchOp& op) {
  std::vector<std::string> args;
  for (const OpArg& a : op.args) {
    if (a.array < 0)
      args.push_back(schema_scalar_type(a.param->dtype) + " " + a.param->name);
    else
      args.push_back((a.written ? "Tensor(" + a.alias + "!) " : "Tensor ") + a.param->name);
  }
  std::string s = op.name + ".out(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + ") -> ()";
}

std::string functional_schema(const TorchOp& op) {
  TILEC_ASSERT(op.functional, "functional_schema of an op without a functional form");
  std::vector<std::string> args;
  int outputs = 0;
  for (const OpArg& a : op.args) {
    if (a.output)
      ++outputs;
    else if (a.array < 0)
      args.push_back(schema_scalar_type(a.param->dtype) + " " + a.param->name);
    else
      args.push_back("Tensor " + a.param->name);
  }
  for (int s : op.size_args) args.push_back("SymInt " + op.dims[size_t(s)]);
  std::string s = op.name + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  s += ") -> ";
  if (outputs == 1) return s + "Tensor";
  s += "(";
  for (int i = 0; i < outputs; ++i) s += i ? ", Tensor" : "Tensor";
  return s + ")";
}

}  // namespace tilec::codegen::torch
