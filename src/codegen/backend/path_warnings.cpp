// -Wwgmma and -Wby-target (path_warnings.h).
#include "codegen/backend/path_warnings.h"

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

// Whether `op` sits in the body of a for or while loop (at any depth).
bool in_loop(const ir::Op& op) {
  for (const ir::Op* o = op.parent ? op.parent->parent : nullptr; o; o = o->parent ? o->parent->parent : nullptr)
    if (o->kind == ir::OpKind::For || o->kind == ir::OpKind::While) return true;
  return false;
}

// The mma that -Wwgmma points at when `f` gets no tma_wgmma path (warn_no_wgmma); null:
// nothing to say.
const ir::Op* wgmma_candidate(const ir::Function& f, const Target& t) {
  if (f.sig.options.for_arch(t.arch).num_stages == 1) return nullptr;
  const ir::Op* found = nullptr;
  ir::walk(const_cast<ir::Block&>(f.body), [&](ir::Op& op) {
    if (!found && op.kind == ir::OpKind::Mma && op.operands[0]->type.tile.dtype != DType::F64 && in_loop(op))
      found = &op;
  });
  return found;
}

}  // namespace

void warn_no_wgmma(const ir::Function& f, const Target& t, const std::string& why, DiagnosticEngine& diag) {
  if (const ir::Op* mma = wgmma_candidate(f, t))
    diag.warning(Warning::Wgmma, mma->loc,
                 fmt::format("this mma runs on mma.sync on {}, not wgmma: kernel {} has no tma_wgmma path: {}", t.arch,
                             f.name, why));
}

void warn_sync_mmas(const LoweredKernel& low, const std::string& name, const Target& t, DiagnosticEngine& diag) {
  for (const auto& [mma, why] : mmas_off_path(low))
    if (in_loop(*mma))
      diag.warning(Warning::Wgmma, mma->loc,
                   fmt::format("this mma runs on mma.sync on {}, not wgmma (the other mmas of kernel {} run "
                               "wgmma): {}",
                               t.arch, name, why));
}

void warn_unused_target_values(const std::vector<std::unique_ptr<ir::Function>>& kernels,
                               const std::vector<Target>& targets, const Target& plan_target,
                               const std::vector<std::vector<int>>& specific, DiagnosticEngine& diag) {
  auto portable = [&](const Target& t) {
    return fmt::format("on {} the kernel runs the portable path, planned once for every target of the build with "
                       "the values for {}, the oldest",
                       t.arch, plan_target.arch);
  };
  for (size_t i = 0; i < kernels.size(); ++i)
    for (const TargetValue& v : kernels[i]->sig.options.by_target) {
      if (target_key_covers(v.arch, plan_target.arch)) continue;
      std::string why;  // empty: used as written, or no target of the build is v.arch
      bool used = false;
      for (size_t t = 0; t < targets.size() && why.empty() && !used; ++t) {
        if (!target_key_covers(v.arch, targets[t].arch)) continue;
        bool tma = specific[t][i] >= 0;
        if (tma && v.option != "num_warps")
          used = true;  // the tma_wgmma path takes it
        else if (tma)
          why = fmt::format("on {} the kernel runs the tma_wgmma path, whose warps are its warpgroups (num_warps "
                            "applies to the portable path)",
                            targets[t].arch);
        else if (targets[t].has_wgmma() && v.option == "num_stages" && v.value == 1)
          why = fmt::format("num_stages=1 keeps the kernel off the tma_wgmma path (it needs a pipelined loop), and "
                            "{}",
                            portable(targets[t]));
        else
          why = portable(targets[t]);
      }
      if (!used && !why.empty())
        diag.warning(Warning::ByTarget, v.range,
                     fmt::format("{}: the value for {} is not used as written: {}", v.option, v.arch, why));
    }
}

}  // namespace tilec::codegen
