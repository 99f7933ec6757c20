// The paths registry: the rows of the code paths' table (lowering/path_table.h), the one place
// that names each path's room (paths/<name>/path.h): its steps, plan, ABI and emitter.
#include "codegen/lowering/path_table.h"

#include "codegen/launch/entry_names.h"
#include "codegen/lowering/abi.h"
#include "codegen/lowering/path_plan.h"
#include "codegen/paths/tma_wgmma/path.h"
#include "codegen/ptx/path_emitter.h"

namespace tilec::codegen {

const std::vector<CodePathInfo>& code_paths() {
  static const std::vector<CodePathInfo> kPaths = {
      {CodePath::Portable, "portable", [](const Target&) { return true; }, false,
       {"mma-shapes", "warps", "early-loads", "vector-widths", "pipelines", "layouts", "stages", "launch-divisors"},
       nullptr, {{kVectorizedSuffix, true}, {"", false}}, "a cp.async copy", false, "", portable_abi_path, nullptr, nullptr},
      {CodePath::TmaWgmma, "tma_wgmma", [](const Target& t) { return t.has_wgmma() && t.has_tma(); }, true,
       {"tma-wgmma-plan", "mma-shapes", "warps", "early-loads", "vector-widths", "pipelines", "layouts",
        "tma-wgmma-check", "tma-stages", "specialize", "tma-stores", "launch-divisors"},
       tma_wgmma::path_steps, {{"_wgmma", true}}, "a TMA box", true,
       "smaller tiles (the tma_wgmma path runs one warpgroup per 64 accumulator rows, whatever num_warps says)",
       tma_wgmma::abi_path, tma_wgmma::new_plan, tma_wgmma::new_emitter},
  };
  return kPaths;
}

}  // namespace tilec::codegen
