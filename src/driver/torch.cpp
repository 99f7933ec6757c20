// --emit=torch: the builds (--dispatch), the checks of the op interface, and the two files.
#include "driver/torch.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "basic/diagnostics.h"
#include "basic/source.h"
#include "codegen/header/c_text.h"
#include "driver/output.h"

namespace tilec {
namespace {

// The file name without folders and without `ext` ("k_ops" of "out/k_ops.cpp").
std::string stem(const std::string& path, const std::string& ext) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  if (base.size() > ext.size() && base.compare(base.size() - ext.size(), ext.size(), ext) == 0)
    base.resize(base.size() - ext.size());
  return base;
}

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() > end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

// The cartesian product of the --dispatch values, in command-line order (the last option varies
// fastest); one build without extra values when there is no --dispatch.
bool make_builds(const std::vector<std::string>& options, std::vector<TorchOps::Build>& builds, std::string& error) {
  builds.assign(1, TorchOps::Build{});
  for (const std::string& option : options) {
    std::string name;
    std::vector<std::string> values = dispatch_values(option, name);
    if (values.empty()) {
      error = "--dispatch needs NAME=VALUE,VALUE,..., not '" + option + "'";
      return false;
    }
    std::vector<TorchOps::Build> next;
    for (const TorchOps::Build& b : builds)
      for (const std::string& v : values) {
        TorchOps::Build n = b;
        n.defines.push_back(name + "=" + v);
        n.label += (n.label.empty() ? "" : " ") + name + "=" + v;
        next.push_back(n);
      }
    builds = next;
  }
  return true;
}

}  // namespace

std::vector<std::string> dispatch_values(const std::string& option, std::string& name) {
  size_t eq = option.find('=');
  if (eq == std::string::npos || eq == 0) return {};
  name = option.substr(0, eq);
  std::vector<std::string> values;
  std::string current;
  int depth = 0;
  for (size_t i = eq + 1; i <= option.size(); ++i) {
    char c = i < option.size() ? option[i] : ',';
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      size_t a = current.find_first_not_of(' '), z = current.find_last_not_of(' ');
      if (a == std::string::npos) return {};
      values.push_back(current.substr(a, z - a + 1));
      current.clear();
    } else {
      current += c;
    }
  }
  return values;
}

namespace {

// Prints a usage error of --emit=torch (exit code 2).
int usage_error(const std::string& message) {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  diag.error(SourceRange{}, message);
  diag.flush(stderr);
  return 2;
}

}  // namespace

int TorchOps::plan(const Options& opts, const std::string& out) {
  output = out;
  if (output == "-" || !(ends_with(output, ".cpp") || ends_with(output, ".cc") || ends_with(output, ".cxx")))
    return usage_error("--emit=torch writes a C++ source and a Python module beside it: name the output NAME.cpp");
  std::string ext = output.substr(output.find_last_of('.'));
  std::string module = stem(output, ext);
  if (!is_c_identifier(module))
    return usage_error("the output's name '" + module + "' is not a Python module name (letters, digits and '_')");
  py = output.substr(0, output.size() - ext.size()) + ".py";
  std::string error;
  if (!make_builds(opts.dispatch, builds, error)) return usage_error(error);
  // The file name without its folder, as in the header: the output's bytes do not depend on how
  // the input's path was typed (CMake passes absolute paths).
  in.source_name = opts.input == "-" ? "<stdin>" : std::filesystem::path(opts.input).filename().string();
  in.tilec_version = TILEC_VERSION;
  in.ns = !opts.torch_namespace.empty() ? opts.torch_namespace
          : opts.input == "-"           ? module
                                        : stem(opts.input, ".tile");
  in.module = module;
  return -1;
}

Options TorchOps::build_options(const Options& opts, size_t i) const {
  Options o = opts;
  o.defines.insert(o.defines.end(), builds[i].defines.begin(), builds[i].defines.end());
  if (builds.size() > 1) o.prefix = opts.prefix + "build" + std::to_string(i) + "_";
  return o;
}

void TorchOps::failed(size_t i) const {
  if (builds.size() > 1) std::fprintf(stderr, "tilec: note: in the build %s (--dispatch)\n", builds[i].label.c_str());
}

void TorchOps::add(size_t i, const std::string& prefix, const std::string& header, const std::vector<KernelAbi>& abis,
                   const std::vector<const ir::Function*>& kernels, const std::vector<std::string>& build_deps) {
  codegen::torch::TorchBuild b;
  b.header = header;
  for (size_t k = 0; k < kernels.size(); ++k) b.kernels.push_back({abis[k], codegen::torch::arrays_read(*kernels[k])});
  b.defines = builds[i].label;
  b.prefix = prefix;
  in.builds.push_back(std::move(b));
  for (const std::string& d : build_deps)
    if (std::find(deps.begin(), deps.end(), d) == deps.end()) deps.push_back(d);
}

int TorchOps::write(const Options& opts) const {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  std::vector<std::string> errors;
  if (!codegen::torch::check_torch_input(in, errors)) {
    for (const std::string& e : errors) diag.error(SourceRange{}, e);
    diag.flush(stderr);
    return 1;
  }
  std::vector<std::pair<std::string, std::string>> files;
  if (opts.md) {
    std::string depfile = opts.mf.empty() ? output + ".d" : opts.mf;
    files.push_back({depfile, make_depfile(opts.mt.empty() ? output : opts.mt, deps, opts.mp)});
  }
  files.push_back({output, codegen::torch::generate_torch_cpp(in)});
  files.push_back({py, codegen::torch::generate_torch_python(in)});
  if (std::string problem = replaced_source(files, deps); !problem.empty()) {
    diag.error(SourceRange{}, problem);
    diag.flush(stderr);
    return 1;
  }
  std::string failed, error;
  if (!write_files_atomic(files, failed, error)) {
    diag.error(SourceRange{}, "cannot write '" + failed + "': " + error);
    diag.flush(stderr);
    return 1;
  }
  return 0;
}

}  // namespace tilec
