// The compilation pipeline: one readable function from source to output.
#pragma once

#include "driver/options.h"

namespace tilec {

/// Runs one compilation as `opts` asks. Diagnostics go to stderr, the output to `opts.output`
/// (written atomically). Returns the exit code: 0 success, 1 compile error.
int compile(const Options& opts);

}  // namespace tilec
