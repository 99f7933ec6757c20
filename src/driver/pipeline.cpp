// The pipeline: load → lex → parse → check → build IR → optimize → lower → PTX → assemble →
// header. Each stage can print its text form (--emit); the driver stops at checkpoints.
#include "driver/pipeline.h"

#include <filesystem>
#include <unistd.h>

#include <cstdlib>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "driver/output.h"
#include "driver/torch.h"
#include "frontend/ast.h"
#include "frontend/check.h"
#include "basic/diagnostics.h"
#include "basic/stage_timer.h"
#include "frontend/parse.h"
#include "codegen/parallel.h"
#include "codegen/abi.h"
#include "codegen/header/header.h"
#include "codegen/limits.h"
#include "codegen/lower.h"
#include "codegen/lowering_steps.h"
#include "codegen/occupancy.h"
#include "codegen/ptx/module.h"
#include "codegen/ptxas_report.h"
#include "codegen/target.h"
#include "codegen/toolchain.h"
#include "ir/build.h"
#include "ir/passes/passes.h"

namespace tilec {
namespace {

bool want_color(ColorMode m) {
  if (m != ColorMode::Auto) return m == ColorMode::Always;
  const char* term = std::getenv("TERM");
  return isatty(STDERR_FILENO) && term && std::string(term) != "dumb";
}

// The output kind from the -o extension when --emit is not given.
EmitKind kind_from_output(const std::string& out) {
  auto ends = [&](const char* ext) {
    std::string e(ext);
    return out.size() > e.size() && out.compare(out.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".ptx")) return EmitKind::Ptx;
  if (ends(".cubin")) return EmitKind::Cubin;
  if (ends(".fatbin")) return EmitKind::Fatbin;
  if (ends(".tir")) return EmitKind::TirOpt;
  return EmitKind::Header;
}

// Default output path: the input's stem plus the kind's extension; text forms go to stdout.
std::string default_output(const std::string& input, EmitKind k) {
  const char* ext = nullptr;
  switch (k) {
    case EmitKind::Ptx: ext = ".ptx"; break;
    case EmitKind::Cubin: ext = ".cubin"; break;
    case EmitKind::Fatbin: ext = ".fatbin"; break;
    case EmitKind::Header: ext = ".h"; break;
    case EmitKind::Torch: ext = "_ops.cpp"; break;
    default: return "-";
  }
  if (input == "-") return "-";
  std::string base = input.substr(input.find_last_of('/') + 1);
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".tile") == 0) base.resize(base.size() - 5);
  return base + ext;
}

// The outputs made of kernels, named as a diagnostic says "a ... needs at least one kernel".
const char* kernel_output_name(EmitKind k) {
  switch (k) {
    case EmitKind::Ptx: return "a PTX file";
    case EmitKind::Cubin: return "a cubin";
    case EmitKind::Fatbin: return "a fatbin";
    case EmitKind::Header: return "a header";
    default: return nullptr;
  }
}

// Where kernel `k` declares the parameter or dimension symbol `name`; its def without one.
SourceRange declaration_range(const ir::Signature& k, const std::string& name) {
  for (const ir::Param& p : k.params)
    if (p.name == name) return p.range;
  for (const ir::DimSymbol& s : k.dims)
    if (s.name == name) return s.first;
  return k.range;
}

std::string print_all(const std::vector<std::unique_ptr<ir::Function>>& kernels) {
  std::string out;
  for (const auto& f : kernels) {
    StageTimer timer("print", f->name);
    out += ir::print(*f);
  }
  return out;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string::npos) comma = list.size();
    if (comma > pos) out.push_back(list.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

// The arch keys of by_target(...): each one an arch that -arch takes (codegen::parse_target,
// the same table), at the entry's range.
void check_target_keys(const std::vector<KernelInfo>& kernels, DiagnosticEngine& diag) {
  for (const KernelInfo& k : kernels)
    for (const TargetValue& v : k.options.by_target)
      if (!codegen::parse_target(v.arch)) {
        SourceRange key = v.range;  // the entry starts with its key
        key.end = key.begin;
        key.end.col += uint32_t(v.arch.size());
        key.end.offset += uint32_t(v.arch.size());
        diag.error(key, "'" + v.arch + "' is not a target of by_target: an arch that -arch takes (sm_80 or newer: sm_90, "
                   "sm_90a, sm_100f, ...) or default");
      }
}

// -Wby-target: an entry of by_target(...) for an arch the build has whose value no code takes,
// or takes in a way the user may not expect. The portable path is planned once for every
// target with the oldest target's values; the tma_wgmma path takes its own target's num_stages,
// max_registers and min_ctas_per_sm (the last two make its producer inline, §7.9) but not
// num_warps (its warps are its warpgroups), and num_stages=1 keeps a kernel off it.
// `specific[t][i]` >= 0: kernel i has the tma_wgmma path on target t.
// Whether `op` sits in the body of a for or while loop (at any depth).
bool in_loop(const ir::Op& op) {
  for (const ir::Op* o = op.parent ? op.parent->parent : nullptr; o; o = o->parent ? o->parent->parent : nullptr)
    if (o->kind == ir::OpKind::For || o->kind == ir::OpKind::While) return true;
  return false;
}

// The mma that -Wwgmma points at when `f` gets no tma_wgmma path: the first one in a loop (an
// mma outside loops gains nothing from a pipeline), unless num_stages=1 asked for no pipeline
// or its operands are f64 (no wgmma form: PTX ISA §9.7.15.5). Null: nothing to say.

const ir::Op* wgmma_candidate(const ir::Function& f, const codegen::Target& t) {
  if (f.sig.options.for_arch(t.arch).num_stages == 1) return nullptr;
  const ir::Op* found = nullptr;
  ir::walk(const_cast<ir::Block&>(f.body), [&](ir::Op& op) {
    if (!found && op.kind == ir::OpKind::Mma && op.operands[0]->type.tile.dtype != DType::F64 && in_loop(op))
      found = &op;
  });
  return found;
}

void warn_unused_target_values(const std::vector<std::unique_ptr<ir::Function>>& kernels,
                               const std::vector<codegen::Target>& targets, const codegen::Target& plan_target,
                               const std::vector<std::vector<int>>& specific, DiagnosticEngine& diag) {
  auto portable = [&](const codegen::Target& t) {
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

// The stages from the source to `output` of kind `emit`; with `torch`, up to the header, which
// is stored there with the kernels instead of written (one build of --emit=torch).
int compile_stages(const Options& opts, EmitKind emit, const std::string& output, TorchBuildResult* torch);

}  // namespace

int compile(const Options& opts) {
  // Tracing (-v) goes through spdlog's default logger; user diagnostics never do.
  if (!spdlog::get("tilec")) spdlog::set_default_logger(spdlog::stderr_logger_st("tilec"));
  spdlog::set_pattern("tilec: [%l] %v");
  spdlog::set_level(opts.verbose ? spdlog::level::trace : spdlog::level::warn);
  install_cleanup_handlers();

  if (opts.list_passes) {
    for (const ir::PassInfo& p : ir::all_passes()) std::printf("%-13s %s\n", p.name, p.summary);
    // Then the lowering steps: each code path's order, and the table.
    std::printf("\n");
    for (const codegen::CodePathInfo& path : codegen::code_paths()) {
      std::string steps;
      for (const std::string& s : path.steps) steps += (steps.empty() ? "" : ", ") + s;
      std::printf("lowering, %s path: %s\n", path.name, steps.c_str());
    }
    for (const codegen::LoweringStep& s : codegen::all_lowering_steps()) std::printf("%-16s %s\n", s.name, s.summary);
    return 0;
  }
  EmitKind emit = opts.emit_given ? opts.emit
                  : opts.output.empty() ? EmitKind::Header
                                        : kind_from_output(opts.output);
  std::string output = opts.output.empty() ? default_output(opts.input, emit) : opts.output;
  if (emit == EmitKind::Torch) return compile_torch(opts, output);
  return compile_stages(opts, emit, output, nullptr);
}

int compile_torch_build(const Options& opts, const std::string& output, TorchBuildResult& result) {
  return compile_stages(opts, EmitKind::Header, output, &result);
}

namespace {

int compile_stages(const Options& opts, EmitKind emit, const std::string& output, TorchBuildResult* torch) {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  diag.set_color(want_color(opts.color));
  diag.set_max_errors(opts.max_errors);
  diag.set_warnings(opts.warnings);

  // An output (or depfile) that is the input file would replace the source: a usage error,
  // and the only message (the output's extension no longer matters).
  for (const std::string& out : {output, opts.mf}) {
    std::error_code ec;
    if (opts.input != "-" && !out.empty() && out != "-" && std::filesystem::equivalent(opts.input, out, ec)) {
      diag.error(SourceRange{}, "the output '" + out + "' is the input file; name another one");
      diag.flush(stderr);
      return 2;
    }
  }

  if (std::string problem = output_extension_problem(output, emit, opts.emit_given); !problem.empty())
    diag.warning(Warning::OutputExtension, SourceRange{}, problem);

  // Ends the run: in --verify-diagnostics mode the verdict is the comparison, else the count.
  auto finish = [&](int code_if_clean) {
    if (opts.verify_diagnostics) return diag.verify(stderr) ? 0 : 1;
    diag.flush(stderr);
    return diag.has_errors() ? 1 : code_if_clean;
  };
  // Every source file read so far (the input, then imports): the depfile's prerequisites.
  std::vector<std::string> deps{opts.input};
  auto write = [&](const std::string& text) {
    // -MD: a Make depfile beside the output (-MF overrides), written only after a success and
    // together with the output (both complete before either is renamed into place).
    std::vector<std::pair<std::string, std::string>> files;
    if (opts.md) {
      if (opts.mf.empty() && output == "-") {
        diag.error(SourceRange{}, "-MD with output to stdout needs -MF to name the depfile");
        return finish(1);
      }
      std::string depfile = opts.mf.empty() ? output + ".d" : opts.mf;
      std::string target = opts.mt.empty() ? output : opts.mt;
      files.push_back({depfile, make_depfile(target, deps, opts.mp)});
    }
    files.push_back({output, text});
    std::string failed, error;
    if (!write_files_atomic(files, failed, error)) {
      diag.error(SourceRange{}, "cannot write '" + failed + "': " + error);
      return finish(1);
    }
    return finish(0);
  };

  std::string error;
  uint32_t main_file = sm.load(opts.input, error);
  if (!main_file) {
    diag.error(SourceRange{}, "cannot read '" + opts.input + "': " + error);
    return finish(1);
  }
  spdlog::trace("loaded {} ({} bytes)", opts.input, sm.file(main_file).text.size());

  if (emit == EmitKind::Tokens) {
    std::string text = dump_tokens(sm, main_file, diag);
    if (diag.has_errors()) return finish(1);
    return write(text);
  }

  auto module = std::make_unique<Module>();
  {
    StageTimer timer("parse", opts.input);
    parse_file(sm, main_file, diag, *module);
  }
  // After syntax errors the checker still runs on the statements that parsed, as it does for
  // an imported module, so that their errors are reported in the same run.
  if (diag.has_errors() && (emit == EmitKind::Syntax || diag.too_many())) return finish(1);
  if (emit == EmitKind::Syntax) return write(print_ast(*module, sm, false));

  Program program;
  CheckOptions check_opts{opts.defines, opts.include_dirs};
  {
    StageTimer timer("check", opts.input);
    check_program(sm, diag, check_opts, std::move(module), program);
  }
  check_target_keys(program.kernels, diag);
  deps = program.dependencies;
  if (program.kernels.empty() && kernel_output_name(emit) && !diag.has_errors()) {
    Diagnostic& d = diag.error(SourceRange::whole_file(main_file), std::string("no @kernel in this file: ") +
                                                                       kernel_output_name(emit) + " needs at least one");
    DiagnosticEngine::note(d, SourceRange{}, "a module of constants and helpers is imported by a kernel's file, or "
                                             "checked alone with --emit=none");
  }
  if (diag.has_errors()) return finish(0);
  if (emit == EmitKind::Ast) return write(print_ast(*program.modules[0], sm, true));

  // Tile IR, one function per kernel, then the optimizer. From here on, nothing reads the AST
  // or the checker's output: each function carries its signature (ir/signature.h).
  std::vector<std::unique_ptr<ir::Function>> kernels;
  for (const KernelInfo& k : program.kernels) {
    {
      StageTimer timer("build-ir", k.name);
      kernels.push_back(ir::build_kernel(k, diag, opts.device_asserts));
    }
    if (diag.has_errors()) return finish(1);
    std::string problem;
    {
      StageTimer timer("verify", k.name);
      problem = ir::verify(*kernels.back());
    }
    TILEC_ASSERT(problem.empty(), "the IR built for '" + k.name + "' is invalid: " + problem);
    codegen::check_param_space(kernels.back()->sig, diag);
  }
  if (diag.has_errors() || emit == EmitKind::None) return finish(0);
  if (emit == EmitKind::Tir) return write(print_all(kernels));
  std::vector<std::string> passes = opts.passes.empty() ? ir::default_pipeline(opts.opt_level, opts.fmad) : split(opts.passes);
  std::string trace;
  for (auto& f : kernels) {
    std::string problem = ir::run_passes(*f, passes, opts.print_after_all, trace);
    if (!problem.empty()) {
      diag.error(SourceRange{}, problem);
      return finish(1);
    }
  }
  if (opts.print_after_all) std::fwrite(trace.data(), 1, trace.size(), stderr);
  if (emit == EmitKind::TirOpt) return write(print_all(kernels));

  // Lowering, once per target, each on its own copy of the optimized IR (lowering inserts
  // layout conversions). The portable path's entries have the same names in every arch's code,
  // so its pipelines are planned once for all targets (one set of launch data, kernel_abi.h
  // AbiPath): for the smallest shared memory among them, and when that plan needs more than a
  // GPU the image also loads on allows (sm_80 SASS runs on 8.6 and 8.9 too, PTX on 12.x: 99 KB;
  // codegen::image_shared_per_cta), planned again for that. The plan is the same for the
  // single-arch outputs, so that a cubin or PTX file holds the code the header holds.
  std::vector<codegen::Target> targets = opts.targets;
  TILEC_ASSERT(!targets.empty(), "no target: parse_command_line gives the default's");
  std::vector<std::string> archs;
  int64_t smem_limit = INT64_MAX;
  for (const codegen::Target& t : targets) {
    archs.push_back(t.arch);
    smem_limit = std::min(smem_limit, t.max_shared_per_cta());
  }
  int64_t image_limit = codegen::image_shared_per_cta(targets, codegen::forward_compatible_ptx_arch(archs));
  // Options given by_target (language.md §3) are resolved per lowering: the tma_wgmma path's for
  // its target; the portable path's, planned once for every target, for the oldest of them (the
  // one whose limits the plan must keep, like the shared memory above).
  const codegen::Target& plan_target =
      *std::min_element(targets.begin(), targets.end(), [](const auto& a, const auto& b) { return a.sm < b.sm; });
  auto clone_for = [&](size_t i, const codegen::Target& t) {
    std::unique_ptr<ir::Function> copy = ir::clone(*kernels[i]);
    copy->sig.options = copy->sig.options.for_arch(t.arch);
    return copy;
  };
  // On targets with wgmma, kernels whose mma loops fit it also get the tma_wgmma path (its own
  // lowering, after the portable ones in the module; `specific[t][i]` is kernel i's or null).
  std::vector<std::vector<std::unique_ptr<ir::Function>>> copies(targets.size());
  std::vector<std::vector<codegen::LoweredKernel>> lowered(targets.size());
  std::vector<std::vector<int>> specific(targets.size());
  std::vector<std::string> no_path_notes;
  // --print-after-all: the lowered form after each lowering step of each kernel and target.
  std::string lowering_trace;
  std::string* lower_trace = opts.print_after_all ? &lowering_trace : nullptr;
  // Threads for the work before ptxas (-j, like ptxas's jobs): each kernel's lowering for each
  // target, then each target's module and within it each entry, side by side; the results are
  // taken in a fixed order, so the output does not depend on the count. --print-after-all's
  // trace is one string written in order: one thread then.
  int threads = opts.print_after_all ? 1 : opts.jobs ? opts.jobs : available_cpus();
  // The portable lowering of every kernel for every target, and the tma_wgmma lowering where the
  // target has wgmma: independent pieces, each on its own copy of the kernel.
  struct Lowering {
    size_t t, i;
    bool wgmma;
    std::unique_ptr<ir::Function> copy;
    std::optional<codegen::LoweredKernel> low;
    std::string why;
  };
  std::vector<Lowering> lowerings;
  for (size_t t = 0; t < targets.size(); ++t)
    for (size_t i = 0; i < kernels.size(); ++i) lowerings.push_back({t, i, false, nullptr, std::nullopt, {}});
  for (size_t t = 0; t < targets.size(); ++t)
    if (codegen::specific_path(targets[t]))
      for (size_t i = 0; i < kernels.size(); ++i) lowerings.push_back({t, i, true, nullptr, std::nullopt, {}});
  std::vector<std::exception_ptr> thrown = codegen::parallel_for(lowerings.size(), threads, [&](size_t j) {
    Lowering& l = lowerings[j];
    {
      StageTimer timer("clone", kernels[l.i]->name);
      l.copy = clone_for(l.i, l.wgmma ? targets[l.t] : plan_target);
    }
    if (l.wgmma)
      l.low = codegen::lower_on_path(*codegen::specific_path(targets[l.t]), *l.copy, targets[l.t],
                                     targets[l.t].max_shared_per_cta(), l.why, lower_trace);
    else
      l.low = codegen::lower_kernel(*l.copy, targets[l.t], smem_limit, lower_trace);
  });
  for (const std::exception_ptr& e : thrown)
    if (e) std::rethrow_exception(e);
  for (Lowering& l : lowerings)
    if (!l.wgmma) {
      copies[l.t].push_back(std::move(l.copy));
      lowered[l.t].push_back(std::move(*l.low));
      specific[l.t].push_back(-1);
    }
  for (size_t i = 0; i < kernels.size() && image_limit < smem_limit; ++i) {
    int64_t needs = 0;
    for (size_t t = 0; t < targets.size(); ++t) needs = std::max(needs, lowered[t][i].shared_bytes());
    if (needs <= image_limit) continue;
    spdlog::trace("{}: the portable path needs {} bytes of shared memory; planned again for {}", kernels[i]->name,
                  needs, image_limit);
    for (size_t t = 0; t < targets.size(); ++t) {
      std::unique_ptr<ir::Function> copy = clone_for(i, plan_target);
      lowered[t][i] = codegen::lower_kernel(*copy, targets[t], image_limit, lower_trace);
      copies[t][i] = std::move(copy);
    }
  }
  for (Lowering& l : lowerings) {
    if (!l.wgmma) continue;
    size_t t = l.t, i = l.i;
    if (!l.low) {
      spdlog::trace("{} on {}: no tma_wgmma path: {}", kernels[i]->name, targets[t].arch, l.why);
      no_path_notes.push_back("// kernel " + kernels[i]->name + ": no tma_wgmma path for " + targets[t].arch + ": " + l.why + "\n");
      if (const ir::Op* mma = wgmma_candidate(*kernels[i], targets[t]))
        diag.warning(Warning::Wgmma, mma->loc,
                     fmt::format("this mma runs on mma.sync on {}, not wgmma: kernel {} has no tma_wgmma path: {}",
                                 targets[t].arch, kernels[i]->name, l.why));
      continue;
    }
    // -Wwgmma also for an mma in a loop that stays on mma.sync beside the ones that run wgmma.
    for (const auto& [mma, why] : codegen::mmas_off_path(*l.low))
      if (in_loop(*mma))
        diag.warning(Warning::Wgmma, mma->loc,
                     fmt::format("this mma runs on mma.sync on {}, not wgmma (the other mmas of kernel {} run "
                                 "wgmma): {}",
                                 targets[t].arch, kernels[i]->name, why));
    copies[t].push_back(std::move(l.copy));
    specific[t][i] = int(lowered[t].size());
    lowered[t].push_back(std::move(*l.low));
  }
  warn_unused_target_values(kernels, targets, plan_target, specific, diag);
  if (opts.print_after_all) std::fwrite(lowering_trace.data(), 1, lowering_trace.size(), stderr);
  for (size_t t = 0; t < targets.size(); ++t)
    for (const codegen::LoweredKernel& low : lowered[t]) {
      StageTimer timer("limits", low.fn->name + ", " + targets[t].arch);
      codegen::check_registers(low, diag);
      for (const codegen::LoweringWarning& w : low.warnings) diag.warning(w.id, w.loc, w.text);
    }
  if (diag.has_errors()) return finish(1);
  if (emit == EmitKind::TirLowered) {
    std::string text;
    for (size_t t = 0; t < targets.size(); ++t) {
      if (targets.size() > 1) text += "// ---- target " + targets[t].arch + " ----\n";
      for (const auto& k : lowered[t]) {
        StageTimer timer("print", k.fn->name + ", " + targets[t].arch);
        text += codegen::print_lowered(k);
      }
    }
    for (const std::string& n : no_path_notes) text += n;
    return write(text);
  }
  for (size_t t = 0; t < targets.size(); ++t)
    for (const codegen::LoweredKernel& low : lowered[t]) codegen::check_shared_memory(low, targets[t], diag);
  if (diag.has_errors()) return finish(1);

  // PTX for every -arch, without register caps (occupancy.h adds them where they pay off).
  // `into`: where its errors go (the compilation's engine, or one of a thread's own).
  auto emit_ptx_into = [&](size_t a, const std::map<std::string, int>& caps, std::string& text,
                           DiagnosticEngine& into) {
    codegen::EmitOptions eo;
    eo.target = targets[a];
    eo.fast_math = opts.fast_math;
    eo.fmad = opts.fmad;
    eo.lineinfo = opts.lineinfo;
    eo.device_asserts = opts.device_asserts;
    eo.register_caps = caps;
    eo.threads = threads;
    text = codegen::emit_module(lowered[a], eo, sm, into);
    if (into.has_errors()) return false;
    spdlog::trace("emitted {} bytes of PTX for {}", text.size(), archs[a]);
    return true;
  };
  auto emit_ptx = [&](size_t a, const std::map<std::string, int>& caps, std::string& text) {
    return emit_ptx_into(a, caps, text, diag);
  };
  // Every target's module side by side; the first that fails (in -arch order) reports its
  // errors, as a loop over the targets would.
  std::vector<std::string> ptx(archs.size());
  {
    std::vector<std::unique_ptr<DiagnosticEngine>> errors(archs.size());
    std::vector<char> ok(archs.size(), 0);
    std::vector<std::exception_ptr> failed = codegen::parallel_for(archs.size(), threads, [&](size_t a) {
      errors[a] = std::make_unique<DiagnosticEngine>(sm);
      ok[a] = emit_ptx_into(a, {}, ptx[a], *errors[a]);
    });
    for (size_t a = 0; a < archs.size(); ++a) {
      if (failed[a]) std::rethrow_exception(failed[a]);
      if (!ok[a]) {
        for (const Diagnostic& d : errors[a]->diagnostics()) diag.error(d.range, d.message);
        return finish(1);
      }
    }
  }
  if (emit == EmitKind::Ptx) return write(ptx[0]);

  // Assemble with the CUDA toolkit: one cubin, or a fatbin of every arch.
  CudaToolkit tk;
  std::string tool_error;
  if (!find_cuda_toolkit(ToolkitSearch::from_environment(), tk, tool_error)) {
    diag.error(SourceRange{}, tool_error);
    return finish(1);
  }
  if (emit == EmitKind::Cubin && opts.archs.size() > 1) {
    diag.error(SourceRange{}, "a cubin holds one architecture; give at most one -arch (or write a .fatbin)");
    return finish(1);
  }
  // A cubin is the first target's (sm_90a's for -arch sm_90): only that one is assembled.
  size_t assembled = emit == EmitKind::Cubin ? 1 : targets.size();
  AssembleOptions ao;
  ao.failed_ptx_prefix = output == "-" ? std::string("tilec") : output;
  if (opts.lineinfo) ao.ptxas_flags.push_back("-lineinfo");
  if (!opts.fmad) ao.ptxas_flags.push_back("--fmad=false");
  ao.jobs = opts.jobs ? opts.jobs : available_cpus();
  std::vector<codegen::AssembledModule> modules;
  PtxasPool ptxas(tk, ao);
  std::vector<codegen::Target> to_assemble(targets.begin(), targets.begin() + long(assembled));
  if (!codegen::assemble_for_occupancy(ptxas, to_assemble, lowered, ptx, emit_ptx, modules, tool_error)) {
    if (!tool_error.empty()) codegen::report_ptxas_message(diag, kernels, true, tool_error);
    return finish(1);
  }
  Fatbin fatbin;
  if (emit != EmitKind::Cubin) {
    std::vector<ArchPtx> inputs;
    std::vector<Cubin> cubins;
    for (codegen::AssembledModule& m : modules) {
      inputs.push_back({m.arch, m.ptx});
      cubins.push_back(m.cubin);
    }
    if (!bundle_fatbin(tk, inputs, std::move(cubins), ao, fatbin, tool_error)) {
      codegen::report_ptxas_message(diag, kernels, true, tool_error);
      return finish(1);
    }
  }
  std::vector<const Cubin*> cubins;
  for (const codegen::AssembledModule& m : modules) cubins.push_back(&m.cubin);
  std::vector<int> warps;  // the portable path's warps per kernel (the same for every target)
  for (const codegen::LoweredKernel& low : lowered[0])
    if (low.path == codegen::CodePath::Portable) warps.push_back(low.num_warps);
  codegen::report_ptxas_results(diag, kernels, cubins, warps);
  if (diag.has_errors()) return finish(1);
  if (emit == EmitKind::Cubin) return write(modules[0].cubin.bytes);
  if (emit == EmitKind::Fatbin) return write(fatbin.bytes);

  // The header.
  HeaderInput hi;
  // The file name without its folder: the header's bytes do not depend on where the checkout
  // or the build folder is (CMake passes absolute paths).
  hi.source_name = opts.input == "-" ? "<stdin>" : std::filesystem::path(opts.input).filename().string();
  hi.archs = archs;
  hi.prefix = opts.prefix;
  hi.tilec_version = TILEC_VERSION;
  if (!ptxas_version(tk, hi.cuda_version, tool_error)) hi.cuda_version = "unknown";
  hi.image = fatbin.bytes;
  std::vector<std::string> names;
  for (const auto& f : kernels) names.push_back(f->sig.name);
  // Every target's portable lowering has the same launch data (planned for the smallest shared
  // memory); the first target's describes the portable path.
  for (size_t i = 0; i < kernels.size(); ++i) {
    const codegen::LoweredKernel& low = lowered[0][i];
    const ir::Signature& k = low.fn->sig;
    std::string name_error;
    if (!check_kernel_name(opts.prefix, k.name, names, name_error)) diag.error(k.range, name_error);
    std::vector<const codegen::LoweredKernel*> paths;
    for (size_t t = 0; t < targets.size(); ++t)
      if (specific[t][i] >= 0) paths.push_back(&lowered[t][size_t(specific[t][i])]);
    KernelAbi abi = codegen::make_kernel_abi(low, paths);
    std::vector<std::string> abi_errors, subjects;
    if (!check_kernel_abi(abi, abi_errors, &subjects))
      for (size_t e = 0; e < abi_errors.size(); ++e) diag.error(declaration_range(k, subjects[e]), abi_errors[e]);
    hi.kernels.push_back(abi);
  }
  if (diag.has_errors()) return finish(1);
  for (const auto& [name, value] : program.constants) hi.constants.push_back({name, value});
  if (torch) {  // one build of --emit=torch (driver/torch.cpp): its header and the kernels' reads
    torch->build.header = generate_header(hi);
    for (size_t k = 0; k < kernels.size(); ++k)
      torch->build.kernels.push_back({hi.kernels[k], codegen::torch::arrays_read(*kernels[k])});
    torch->deps = deps;
    return finish(0);
  }
  std::string header;
  {
    StageTimer timer("header", hi.source_name);
    header = generate_header(hi);
  }
  return write(header);
}

}  // namespace
}  // namespace tilec
