// The code paths' table (paths.h).
#include "codegen/paths/paths.h"

#include "basic/diagnostics.h"
#include "codegen/abi.h"
#include "codegen/launch/entry_names.h"
#include "codegen/paths/path_plan.h"
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

const CodePathInfo& code_path(CodePath p) {
  for (const CodePathInfo& info : code_paths())
    if (info.id == p) return info;
  TILEC_ASSERT(false, "a code path without a row in the table");
  return code_paths().front();
}

const char* code_path_name(CodePath p) { return code_path(p).name; }

const CodePathInfo* specific_path(const Target& target) {
  for (const CodePathInfo& info : code_paths())
    if (info.specific && info.on_target(target)) return &info;
  return nullptr;
}

std::string entry_name(const std::string& kernel, const EntryVariant& v) { return kernel + v.suffix; }

const CodePathInfo* entry_path(const std::string& kernel, const std::string& entry) {
  for (const CodePathInfo& info : code_paths())
    for (const EntryVariant& v : info.entries)
      if (entry == entry_name(kernel, v)) return &info;
  return nullptr;
}

}  // namespace tilec::codegen
