// The kernels of a .tile file as tile IR, for the reference interpreter: the library pipeline
// up to the optimizer (parse, check, build IR, passes), without lowering or PTX.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace tilec::difftest {

/// Builds the IR of every kernel in `text` (named `path` in diagnostics) with the `-D` values
/// `defines` (NAME=VALUE, as tilec's -D: a kernel's configuration is its constants given this
/// way) and runs `passes` on each (empty: the IR as built, which is what -O0 compiles). Returns
/// false with the compiler's diagnostics in `errors` when the source does not compile or a pass
/// fails.
bool build_kernels(const std::string& path, const std::string& text, const std::vector<std::string>& defines,
                   const std::vector<std::string>& passes, std::vector<std::unique_ptr<ir::Function>>& out,
                   std::string& errors);

/// Reads a file; false with `error` set when it cannot.
bool read_file(const std::string& path, std::string& text, std::string& error);

}  // namespace tilec::difftest
