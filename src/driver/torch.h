// --emit=torch: compiles the module once per build (--dispatch) and writes the PyTorch ops'
// C++ source and its companion Python module (codegen/torch/).
#pragma once

#include <string>
#include <vector>

#include "codegen/torch/torch_ops.h"
#include "driver/options.h"

namespace tilec {

/// What one build of --emit=torch produced.
struct TorchBuildResult {
  codegen::torch::TorchBuild build;  ///< header and kernels (defines and prefix set by the caller)
  std::vector<std::string> deps;     ///< the source files read (for -MD)
};

/// Runs the stages of `opts` up to the header and stores the result in `result` instead of
/// writing it (pipeline.cpp). `output` names failed PTX files. Returns the exit code.
int compile_torch_build(const Options& opts, const std::string& output, TorchBuildResult& result);

/// --emit=torch: one build per combination of the --dispatch values (or the one build of the
/// -D values), then `output` (a `.cpp`) and the Python module beside it (`.py`), written
/// together. Returns the exit code: 0, 1 for a compile error, 2 for a usage error.
int compile_torch(const Options& opts, const std::string& output);

/// The values of one --dispatch option, `NAME=v1,v2,...` split at the commas outside
/// parentheses (`BLOCK=(64, 32),(128, 64)` has two values). Empty when it is malformed.
std::vector<std::string> dispatch_values(const std::string& option, std::string& name);

}  // namespace tilec
