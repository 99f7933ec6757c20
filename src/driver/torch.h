// --emit=torch: a writer over one or more compilations (one per combination of the --dispatch
// values) that writes the PyTorch ops' C++ source and its companion Python module
// (codegen/torch/). driver/pipeline.cpp runs the builds.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/launch/kernel_abi.h"
#include "codegen/torch/torch_ops.h"
#include "driver/options.h"
#include "ir/ir.h"

namespace tilec {

/// The ops of one --emit=torch output, gathered build by build.
struct TorchOps {
  /// One build: its -D values and its label.
  struct Build {
    std::vector<std::string> defines;  ///< NAME=VALUE
    std::string label;                 ///< "T=f16 BLOCK=64"
  };
  std::string output;  ///< the C++ source (`.cpp`, `.cc` or `.cxx`)
  std::string py;      ///< the Python module beside it
  /// The cartesian product of the --dispatch values, in command-line order (the last option
  /// varies fastest); one build without extra values when there is no --dispatch.
  std::vector<Build> builds;
  codegen::torch::TorchInput in;
  std::vector<std::string> deps;  ///< the source files every build read, each once (for -MD)

  /// Checks the output's name and the --dispatch values and plans the builds. Returns -1, or 2
  /// after printing a usage error.
  int plan(const Options& opts, const std::string& output);
  /// The options of build `i`: its -D values after the command line's, and with several
  /// builds, a prefix of its own (`build<i>_`) for the header's symbols.
  Options build_options(const Options& opts, size_t i) const;
  /// Notes which build failed, when there are several.
  void failed(size_t i) const;
  /// Adds what build `i` made: its header (generated with `prefix`), its kernels' launch
  /// interfaces and optimized IR (for the arrays each reads), the files it read.
  void add(size_t i, const std::string& prefix, const std::string& header, const std::vector<KernelAbi>& abis,
           const std::vector<const ir::Function*>& kernels, const std::vector<std::string>& build_deps);
  /// Checks the builds against each other and writes the two files (and with -MD the depfile)
  /// together. Returns the exit code: 0, or 1 after printing the errors.
  int write(const Options& opts) const;
};

/// The values of one --dispatch option, `NAME=v1,v2,...` split at the commas outside
/// parentheses (`BLOCK=(64, 32),(128, 64)` has two values). Empty when it is malformed.
std::vector<std::string> dispatch_values(const std::string& option, std::string& name);

}  // namespace tilec
