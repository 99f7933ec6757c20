// A kernel's configurations (configs.h): one re-check of the main module per configuration, for
// that kernel only, and a lowering of each alone before the module's.
#include "driver/configs.h"

#include <algorithm>

#include <fmt/format.h>
#define XXH_INLINE_ALL  // header-only: no libxxhash to link
#include <xxhash.h>

#include "basic/stage_timer.h"
#include "codegen/backend/backend.h"
#include "codegen/lowering/limits.h"
#include "driver/stages.h"
#include "frontend/parse.h"
#include "ir/build.h"
#include "ir/passes/passes.h"
#include "ir/split_k.h"

namespace tilec {
namespace {

// -Wconfig at the configuration, with the first error of its own compilation as a note: the
// message the user would have seen with the configuration's values given by -D.
void report_dropped(Compilation& c, const KernelInfo& k, size_t index, const DiagnosticEngine& own,
                    const std::string& where = "") {
  const KernelConfig& cfg = k.configs[index];
  auto first = std::find_if(own.diagnostics().begin(), own.diagnostics().end(),
                            [](const Diagnostic& d) { return d.severity == Severity::Error; });
  std::string why = first == own.diagnostics().end() ? "it fails to build" : first->message;
  Diagnostic& d = c.diag.warning(Warning::Config, cfg.range,
                                 fmt::format("configuration {} of '{}' ({}) is left out{}: {}", index, k.name,
                                             cfg.label, where, why));
  if (first != own.diagnostics().end() && first->range.file != 0)
    DiagnosticEngine::note(d, first->range, "with this configuration's values: " + first->message);
}

// The error when -Wconfig has left out every configuration of `k`.
void report_all_left_out(Compilation& c, const KernelInfo& k) {
  c.diag.error(k.configs.front().range, "every configuration of '" + k.name + "' is left out (see the warnings above)");
}

// The tile IR of configuration `index` of `k` (and, for split_k=, its reduce kernel in
// `reduce`), or null after errors (in `own`).
std::unique_ptr<ir::Function> build_one(Compilation& c, const KernelInfo& k, size_t index, DiagnosticEngine& own,
                                        std::unique_ptr<ir::Function>& reduce) {
  const KernelConfig& cfg = k.configs[index];
  auto module = std::make_unique<Module>();
  parse_file(c.sm, c.main_file, own, *module);
  CheckOptions opts{c.opts.defines, c.opts.include_dirs, k.name};
  // After the command line's: a -D of the same constant that disagrees has left this
  // configuration out already (KernelConfig::pinned_out).
  opts.defines.insert(opts.defines.end(), cfg.defines.begin(), cfg.defines.end());
  Program p;
  check_program(c.sm, own, opts, std::move(module), p);
  if (own.has_errors() || p.kernels.size() != 1) return nullptr;
  KernelInfo& info = p.kernels[0];
  std::span<const KernelOptionInfo> options = kernel_options();
  for (const auto& [option, value] : cfg.options) {
    info.options.*options[option].field = value;
    std::erase_if(info.options.by_target, [&](const TargetValue& v) { return v.option == options[option].name; });
  }
  std::unique_ptr<ir::Function> f = ir::build_kernel(info, own, c.opts.device_asserts);
  if (own.has_errors()) return nullptr;
  std::string problem = ir::verify(*f);
  TILEC_ASSERT(problem.empty(), "the IR built for configuration " + std::to_string(index) + " of '" + k.name +
                                    "' is invalid: " + problem);
  codegen::check_param_space(f->sig, own);
  if (own.has_errors()) return nullptr;
  f->name = f->sig.name = config_function_name(k.name, int(index));
  f->sig.config = {cfg.range, fmt::format("in configuration {} of '{}' ({})", index, k.name, cfg.label)};
  if (!split_if_asked(f, reduce, own)) return nullptr;
  return f;
}

}  // namespace

bool split_if_asked(std::unique_ptr<ir::Function>& f, std::unique_ptr<ir::Function>& reduce, DiagnosticEngine& diag) {
  int slices = f->sig.options.split_k;
  if (slices <= 1) return true;
  ir::SplitKernels parts;
  std::string error;
  SourceRange where;
  if (!ir::split_k(*f, slices, parts, error, where)) {
    diag.error(where, error);
    return false;
  }
  for (const ir::Function* g : {parts.partials.get(), parts.reduce.get()}) {
    std::string problem = ir::verify(*g);
    TILEC_ASSERT(problem.empty(), "split_k made invalid IR for '" + g->name + "': " + problem);
  }
  f = std::move(parts.partials);
  reduce = std::move(parts.reduce);
  return true;
}

void append_reduce_kernels(Compilation& c) {
  int base = int(c.kernels.size());
  for (KernelGroup& g : c.groups)
    for (int& r : g.reduce)
      if (r >= 0) r += base;
  for (auto& f : c.pending_reduce) c.kernels.push_back(std::move(f));
  c.pending_reduce.clear();
}

std::string config_function_name(const std::string& kernel, int index) {
  return kernel + "_config" + std::to_string(index);
}

bool build_config_functions(Compilation& c, const KernelInfo& k, KernelGroup& group,
                            std::vector<std::unique_ptr<ir::Function>>& out) {
  group.count = 0;
  group.num_declared = k.configs.size();
  for (size_t i = 0; i < k.configs.size(); ++i) {
    if (k.configs[i].pinned_out) continue;
    StageTimer timer("build-config", config_function_name(k.name, int(i)));
    DiagnosticEngine own(c.sm);
    std::unique_ptr<ir::Function> reduce;
    std::unique_ptr<ir::Function> f = build_one(c, k, i, own, reduce);
    if (!f) {
      report_dropped(c, k, i, own);
      continue;
    }
    out.push_back(std::move(f));
    group.reduce.push_back(reduce ? int(c.pending_reduce.size()) : -1);
    if (reduce) c.pending_reduce.push_back(std::move(reduce));
    group.indices.push_back(int(i));
    group.labels.push_back(k.configs[i].label);
    ++group.count;
  }
  if (group.count == 0) {
    bool pinned = std::all_of(k.configs.begin(), k.configs.end(), [](const KernelConfig& x) { return x.pinned_out; });
    if (pinned)
      c.diag.error(k.configs.front().range,
                   "no configuration of '" + k.name + "' has the values the -D options give its constants");
    else
      report_all_left_out(c, k);
    return false;
  }
  return true;
}

bool drop_unbuildable_configs(Compilation& c) {
  std::vector<std::unique_ptr<ir::Function>> kept;
  std::vector<KernelGroup> groups;
  bool ok = true;
  for (const KernelGroup& g : c.groups) {
    size_t first = kept.size();
    KernelGroup out = g;
    out.first = first;
    out.count = 0;
    out.indices.clear();
    out.labels.clear();
    out.reduce.clear();
    for (size_t j = 0; j < g.count; ++j) {
      std::unique_ptr<ir::Function>& f = c.kernels[g.first + j];
      int r = g.reduce[j];
      if (g.info && !g.info->configs.empty()) {
        // A split-K configuration is its two kernels: both build, or it is left out.
        DiagnosticEngine own(c.sm);
        codegen::CompiledModule scratch;
        codegen::BackendOptions bo = c.backend_options(false);
        bo.print_after_all = false;
        std::vector<std::unique_ptr<ir::Function>> one;
        one.push_back(std::move(f));
        if (r >= 0) one.push_back(std::move(c.kernels[size_t(r)]));
        bool built = codegen::compile_module(one, c.opts.targets, bo, own, scratch);
        f = std::move(one[0]);
        if (r >= 0) c.kernels[size_t(r)] = std::move(one[1]);
        if (!built) {
          report_dropped(c, *g.info, size_t(g.indices[j]), own, "");
          continue;
        }
      }
      kept.push_back(std::move(f));
      out.indices.push_back(g.indices[j]);
      out.labels.push_back(g.labels[j]);
      out.reduce.push_back(r >= 0 ? int(c.pending_reduce.size()) : -1);
      if (r >= 0) c.pending_reduce.push_back(std::move(c.kernels[size_t(r)]));
      ++out.count;
    }
    if (out.count == 0) {
      report_all_left_out(c, *g.info);
      ok = false;
    }
    groups.push_back(std::move(out));
  }
  c.kernels = std::move(kept);
  c.groups = std::move(groups);
  append_reduce_kernels(c);
  return ok && !c.diag.has_errors();
}

std::string config_space(const KernelAbi& abi, const std::vector<std::string>& labels) {
  std::string text = abi.name + "\n";
  for (const AbiParam& p : abi.params) {
    text += p.name + ":" + std::string(dtype_name(p.dtype));
    for (const ArrayDim& d : p.dims) text += "," + (d.symbol.empty() ? std::to_string(d.constant) : d.symbol);
    text += "\n";
  }
  for (const std::string& l : labels) text += "config " + l + "\n";
  return fmt::format("{:016x}", XXH3_64bits(text.data(), text.size()));
}

int64_t largest_tile_elements(const ir::Function& f) {
  int64_t most = 1;
  for (const auto& v : f.values)
    if (!v->type.is_array) most = std::max(most, v->type.tile.numel());
  return most;
}

int64_t cta_work(const ir::Function& f) {
  // The operand intensity of the kernel's largest product, M*N / (M + N) elements of output per
  // element of A and B streamed in; under kComputeBound, a CTA waits on its operands.
  constexpr double kComputeBound = 72;
  double intensity = 0;
  ir::walk(f.body, [&](const ir::Op& op) {
    if (op.kind != ir::OpKind::Mma || op.results.empty()) return;
    const std::vector<int64_t>& acc = op.results[0]->type.tile.shape;
    if (acc.size() < 2) return;
    double m = double(acc[acc.size() - 2]), n = double(acc.back());
    intensity = std::max(intensity, m * n / (m + n));
  });
  double work = double(largest_tile_elements(f));
  if (intensity > 0 && intensity < kComputeBound) work *= kComputeBound / intensity;
  // A split-K partials CTA runs 1/S of the K loop, and the launch pays for the partials' round
  // trip through memory and a second kernel: counted as doubling the work. On the H100 (bench/
  // results/2026-12-07-splitk-h100) 4 slices of 64x128 tiles ran 1.25x the time of unsplit 64x64
  // tiles at M = 77, N = K = 4096, where a quarter more predicted them faster; at M <= 8 they
  // tie, and at N = 1024 or K = 14336 they win by 15-20 %, as this weight predicts.
  if (f.sig.split.slices > 1) work = work * 2 / f.sig.split.slices;
  return int64_t(work + 0.5);
}

}  // namespace tilec
