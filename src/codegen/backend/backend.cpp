// The backend's policy (backend.h): the code paths of each target, one plan of the portable
// path for every target, the checks of each lowering, the PTX of each target and the launch
// interface of each kernel; then the assembly under register caps.
#include "codegen/backend/backend.h"

#include <algorithm>
#include <optional>

#include <spdlog/spdlog.h>

#include "basic/parallel.h"
#include "basic/stage_timer.h"
#include "codegen/backend/path_warnings.h"
#include "codegen/backend/ptxas_report.h"
#include "codegen/lowering/abi.h"
#include "codegen/lowering/limits.h"
#include "codegen/lowering/lowered_text.h"
#include "codegen/ptx/module.h"

namespace tilec::codegen {
namespace {

// One lowering: kernel i for target t, on the portable path or an arch-specific one, on its own
// copy of the kernel. `low` is empty when the kernel does not fit the path (`why`).
struct Lowering {
  size_t t, i;
  CodePath path;
  std::unique_ptr<ir::Function> copy;
  std::optional<LoweredKernel> low;
  std::string why;
};

// The lowerings of one compilation and the limits they are planned for.
//
// The portable path's entries have the same names in every arch's code, so its pipelines are
// planned once for all targets (one set of launch data, kernel_abi.h AbiPath): for the smallest
// shared memory among them, and when that plan needs more than a GPU the image also loads on
// allows (sm_80 SASS runs on 8.6 and 8.9 too, PTX on 12.x: 99 KB; image_shared_per_cta),
// planned again for that. The plan is the same for the single-arch outputs, so that a cubin or
// PTX file holds the code the header holds. Options given by_target (language.md §3) are
// resolved per lowering: an arch-specific path's for its target; the portable path's, planned
// once for every target, for the oldest of them (the one whose limits the plan must keep, like
// the shared memory).
struct Planner {
  const std::vector<std::unique_ptr<ir::Function>>& kernels;
  const std::vector<Target>& targets;
  int64_t smem_limit = INT64_MAX;
  int64_t image_limit = 0;
  const Target* plan_target = nullptr;
  std::string* trace = nullptr;  // --print-after-all

  Planner(const std::vector<std::unique_ptr<ir::Function>>& k, const std::vector<Target>& t, std::string* tr)
      : kernels(k), targets(t), trace(tr) {
    std::vector<std::string> archs;
    for (const Target& target : targets) {
      archs.push_back(target.arch);
      smem_limit = std::min(smem_limit, target.max_shared_per_cta());
    }
    image_limit = image_shared_per_cta(targets, forward_compatible_ptx_arch(archs));
    plan_target = &*std::min_element(targets.begin(), targets.end(), [](const auto& a, const auto& b) { return a.sm < b.sm; });
  }

  std::unique_ptr<ir::Function> clone_for(size_t i, const Target& t) const {
    std::unique_ptr<ir::Function> copy = ir::clone(*kernels[i]);
    copy->sig.options = copy->sig.options.for_arch(t.arch);
    return copy;
  }

  // Every kernel's portable lowering for every target, then each arch-specific path's where
  // the target has it: independent pieces, side by side on `threads`.
  std::vector<Lowering> lower_all(int threads) const {
    std::vector<Lowering> lowerings;
    for (size_t t = 0; t < targets.size(); ++t)
      for (size_t i = 0; i < kernels.size(); ++i) lowerings.push_back({t, i, CodePath::Portable, nullptr, std::nullopt, {}});
    for (size_t t = 0; t < targets.size(); ++t)
      if (const CodePathInfo* path = specific_path(targets[t]))  // the paths table
        for (size_t i = 0; i < kernels.size(); ++i) lowerings.push_back({t, i, path->id, nullptr, std::nullopt, {}});
    std::vector<std::exception_ptr> thrown = parallel_for(lowerings.size(), threads, [&](size_t j) {
      Lowering& l = lowerings[j];
      bool portable = l.path == CodePath::Portable;
      {
        StageTimer timer("clone", kernels[l.i]->name);
        l.copy = clone_for(l.i, portable ? *plan_target : targets[l.t]);
      }
      if (portable)
        l.low = lower_kernel(*l.copy, targets[l.t], smem_limit, trace);
      else
        l.low = lower_on_path(code_path(l.path), *l.copy, targets[l.t], targets[l.t].max_shared_per_cta(), l.why,
                              trace);
    });
    for (const std::exception_ptr& e : thrown)
      if (e) std::rethrow_exception(e);
    return lowerings;
  }

  // The portable lowerings of kernels whose plan needs more shared memory than the image allows,
  // planned again for that.
  void replan_for_image(std::vector<TargetCode>& code) const {
    for (size_t i = 0; i < kernels.size() && image_limit < smem_limit; ++i) {
      int64_t needs = 0;
      for (const TargetCode& c : code) needs = std::max(needs, c.kernels[i].shared_bytes());
      if (needs <= image_limit) continue;
      spdlog::trace("{}: the portable path needs {} bytes of shared memory; planned again for {}", kernels[i]->name,
                    needs, image_limit);
      for (TargetCode& c : code) {
        std::unique_ptr<ir::Function> copy = clone_for(i, *plan_target);
        c.kernels[i] = lower_kernel(*copy, c.target, image_limit, trace);
        c.functions[i] = std::move(copy);
      }
    }
  }
};

// Puts the lowerings into each target's code: the portable ones first (kernel i at i), then,
// after the portable plan is final, the arch-specific ones, with -Wwgmma for the mmas that stay
// on mma.sync and a note for --emit=tir-lowered when a kernel does not fit a path.
void take_lowerings(const Planner& plan, std::vector<Lowering>& lowerings, DiagnosticEngine& diag,
                    CompiledModule& out) {
  for (Lowering& l : lowerings)
    if (l.path == CodePath::Portable) {
      TargetCode& c = out.targets[l.t];
      c.functions.push_back(std::move(l.copy));
      c.kernels.push_back(std::move(*l.low));
      c.specific.push_back(-1);
    }
  plan.replan_for_image(out.targets);
  for (Lowering& l : lowerings) {
    if (l.path == CodePath::Portable) continue;
    TargetCode& c = out.targets[l.t];
    const ir::Function& f = *plan.kernels[l.i];
    if (!l.low) {
      spdlog::trace("{} on {}: no tma_wgmma path: {}", f.name, c.target.arch, l.why);
      out.no_path_notes.push_back("// kernel " + f.name + ": no tma_wgmma path for " + c.target.arch + ": " + l.why +
                                  "\n");
      warn_no_wgmma(f, c.target, l.why, diag);
      continue;
    }
    warn_sync_mmas(*l.low, f.name, c.target, diag);
    c.functions.push_back(std::move(l.copy));
    c.specific[l.i] = int(c.kernels.size());
    c.kernels.push_back(std::move(*l.low));
  }
}

int thread_count(const BackendOptions& o) {
  // The results are taken in a fixed order, so the output does not depend on the count.
  // --print-after-all's trace is one string written in order: one thread then.
  return o.print_after_all ? 1 : o.jobs ? o.jobs : available_cpus();
}

// Target t's PTX module with `caps` (entry → .maxnreg); its errors go to `into`.
bool emit_target(const CompiledModule& m, size_t t, const std::map<std::string, int>& caps, std::string& text,
                 DiagnosticEngine& into) {
  EmitOptions eo;
  eo.target = m.targets[t].target;
  eo.fast_math = m.options.fast_math;
  eo.fmad = m.options.fmad;
  eo.lineinfo = m.options.lineinfo;
  eo.device_asserts = m.options.device_asserts;
  eo.register_caps = caps;
  eo.threads = thread_count(m.options);
  text = emit_module(m.targets[t].kernels, eo, *m.sources, into);
  if (into.has_errors()) return false;
  spdlog::trace("emitted {} bytes of PTX for {}", text.size(), eo.target.arch);
  return true;
}

// Every target's module side by side; the first that fails (in target order) reports its
// errors, as a loop over the targets would.
bool emit_all(CompiledModule& m, DiagnosticEngine& diag) {
  size_t n = m.targets.size();
  std::vector<std::unique_ptr<DiagnosticEngine>> errors(n);
  std::vector<char> ok(n, 0);
  std::vector<std::exception_ptr> failed = parallel_for(n, thread_count(m.options), [&](size_t t) {
    errors[t] = std::make_unique<DiagnosticEngine>(*m.sources);
    ok[t] = emit_target(m, t, {}, m.targets[t].ptx, *errors[t]);
  });
  for (size_t t = 0; t < n; ++t) {
    if (failed[t]) std::rethrow_exception(failed[t]);
    if (!ok[t]) {
      for (const Diagnostic& d : errors[t]->diagnostics()) diag.error(d.range, d.message);
      return false;
    }
  }
  return true;
}

// Each kernel's launch interface: the portable path as the first target describes it (every
// target's portable lowering has the same launch data), after the arch-specific paths.
void describe_launches(CompiledModule& m) {
  for (size_t i = 0; i < m.targets[0].specific.size(); ++i) {
    std::vector<const LoweredKernel*> paths;
    for (const TargetCode& c : m.targets)
      if (c.specific[i] >= 0) paths.push_back(&c.kernels[size_t(c.specific[i])]);
    m.abis.push_back(make_kernel_abi(m.targets[0].kernels[i], paths));
  }
}

// While a configuration's kernel is reported on, its diagnostics carry a note at the
// config(...) call naming the configuration (the loop a -Wnum-stages warning points at is the
// same line in every configuration).
class ConfigContext {
 public:
  ConfigContext(DiagnosticEngine& diag, const ir::Function& f) : diag_(f.sig.config.text.empty() ? nullptr : &diag) {
    if (diag_) diag_->push_context(f.sig.config.range, f.sig.config.text);
  }
  ~ConfigContext() {
    if (diag_) diag_->pop_context();
  }
  ConfigContext(const ConfigContext&) = delete;
  ConfigContext& operator=(const ConfigContext&) = delete;

 private:
  DiagnosticEngine* diag_;
};

}  // namespace

bool compile_module(const std::vector<std::unique_ptr<ir::Function>>& kernels, const std::vector<Target>& targets,
                    const BackendOptions& options, DiagnosticEngine& diag, CompiledModule& out) {
  TILEC_ASSERT(!targets.empty(), "no target: parse_command_line gives the default's");
  out.options = options;
  out.sources = &diag.sources();
  for (const Target& t : targets) out.targets.push_back({t, {}, {}, {}, {}});
  Planner plan(kernels, targets, options.print_after_all ? &out.lowering_trace : nullptr);
  std::vector<Lowering> lowerings = plan.lower_all(thread_count(options));
  take_lowerings(plan, lowerings, diag, out);
  std::vector<std::vector<int>> specific;
  for (const TargetCode& c : out.targets) specific.push_back(c.specific);
  warn_unused_target_values(kernels, targets, *plan.plan_target, specific, diag);
  for (const TargetCode& c : out.targets)
    for (const LoweredKernel& low : c.kernels) {
      StageTimer timer("limits", low.fn->name + ", " + c.target.arch);
      ConfigContext context(diag, *low.fn);
      check_registers(low, diag);
      for (const LoweringWarning& w : low.warnings) diag.warning(w.id, w.loc, w.text);
    }
  if (diag.has_errors() || options.lower_only) return !diag.has_errors();
  for (const TargetCode& c : out.targets)
    for (const LoweredKernel& low : c.kernels) {
      ConfigContext context(diag, *low.fn);
      check_shared_memory(low, c.target, diag);
    }
  if (diag.has_errors() || !emit_all(out, diag)) return false;
  describe_launches(out);
  return true;
}

std::string print_lowered_module(const CompiledModule& m) {
  std::string text;
  for (const TargetCode& c : m.targets) {
    if (m.targets.size() > 1) text += "// ---- target " + c.target.arch + " ----\n";
    for (const LoweredKernel& k : c.kernels) {
      StageTimer timer("print", k.fn->name + ", " + c.target.arch);
      text += print_lowered(k);
    }
  }
  for (const std::string& n : m.no_path_notes) text += n;
  return text;
}

std::vector<CapCandidate> cap_candidates(const std::vector<LoweredKernel>& lowered) {
  std::vector<CapCandidate> out;
  for (const LoweredKernel& low : lowered) {
    const ir::Signature& k = low.fn->sig;
    if (k.options.max_registers || k.options.min_ctas_per_sm) continue;
    bool has_mma = false;
    ir::walk(low.fn->body, [&](ir::Op& op) { has_mma = has_mma || op.kind == ir::OpKind::Mma; });
    if (has_mma) continue;
    CapCandidate c{{}, low.threads(), low.shared_bytes()};
    for (const EntryVariant& v : code_path(CodePath::Portable).entries) c.entries.push_back(entry_name(k.name, v));
    out.push_back(std::move(c));
  }
  return out;
}

bool assemble_module(const CudaToolkit& tk, const CompiledModule& m,
                     const std::vector<std::unique_ptr<ir::Function>>& kernels, bool cubin_only,
                     const std::string& failed_ptx_prefix, DiagnosticEngine& diag, AssembledCode& out) {
  AssembleOptions ao;
  ao.failed_ptx_prefix = failed_ptx_prefix;
  if (m.options.lineinfo) ao.ptxas_flags.push_back("-lineinfo");
  if (!m.options.fmad) ao.ptxas_flags.push_back("--fmad=false");
  ao.jobs = m.options.jobs ? m.options.jobs : available_cpus();
  // A cubin is the first target's (sm_90a's for -arch sm_90): only that one is assembled.
  size_t assembled = cubin_only ? 1 : m.targets.size();
  std::vector<Target> targets;
  std::vector<std::vector<CapCandidate>> candidates;
  std::vector<std::string> ptx;
  for (size_t t = 0; t < m.targets.size(); ++t) {
    if (t < assembled) targets.push_back(m.targets[t].target);
    candidates.push_back(cap_candidates(m.targets[t].kernels));
    ptx.push_back(m.targets[t].ptx);
  }
  auto emit = [&](size_t t, const std::map<std::string, int>& caps, std::string& text) {
    return emit_target(m, t, caps, text, diag);
  };
  std::string error;
  PtxasPool ptxas(tk, ao);
  if (!assemble_for_occupancy(ptxas, targets, candidates, ptx, emit, out.modules, error)) {
    if (!error.empty()) report_ptxas_message(diag, kernels, true, error);
    return false;
  }
  if (!cubin_only) {
    std::vector<ArchPtx> inputs;
    std::vector<Cubin> cubins;
    for (AssembledModule& a : out.modules) {
      inputs.push_back({a.arch, a.ptx});
      cubins.push_back(a.cubin);
    }
    if (!bundle_fatbin(tk, inputs, std::move(cubins), ao, out.fatbin, error)) {
      report_ptxas_message(diag, kernels, true, error);
      return false;
    }
  }
  std::vector<const Cubin*> cubins;
  for (const AssembledModule& a : out.modules) cubins.push_back(&a.cubin);
  std::vector<int> warps;  // the portable path's warps per kernel (the same for every target)
  for (const LoweredKernel& low : m.targets[0].kernels)
    if (low.path == CodePath::Portable) warps.push_back(low.num_warps);
  report_ptxas_results(diag, kernels, cubins, warps);
  return !diag.has_errors();
}

}  // namespace tilec::codegen
