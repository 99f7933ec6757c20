// The stages of one compilation (stages.h): load, lex, parse, check, build IR, optimize, the
// backend, assemble, header.
#include "driver/stages.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "basic/stage_timer.h"
#include "codegen/lowering/abi.h"
#include "codegen/header/header.h"
#include "codegen/header/tuning_table.h"
#include "codegen/lowering/limits.h"
#include "codegen/target/target.h"
#include "codegen/toolchain/ptxas_pool.h"
#include "driver/output.h"
#include "frontend/parse.h"
#include "ir/build.h"
#include "ir/passes/passes.h"

namespace tilec {
namespace {

bool want_color(ColorMode m) {
  if (m != ColorMode::Auto) return m == ColorMode::Always;
  const char* term = std::getenv("TERM");
  return isatty(STDERR_FILENO) && term && std::string(term) != "dumb";
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

// Where kernel `k` declares the parameter or dimension symbol `name`; its def without one.
SourceRange declaration_range(const ir::Signature& k, const std::string& name) {
  for (const ir::Param& p : k.params)
    if (p.name == name) return p.range;
  for (const ir::DimSymbol& s : k.dims)
    if (s.name == name) return s.first;
  return k.range;
}

}  // namespace

Compilation::Compilation(const Options& o, std::string out) : opts(o), output(std::move(out)), diag(sm) {
  diag.set_color(want_color(opts.color));
  diag.set_max_errors(opts.max_errors);
  diag.set_warnings(opts.warnings);
}

bool Compilation::usage_ok(EmitKind emit) {
  // An output (or depfile) that is the input file would replace the source: a usage error,
  // and the only message (the output's extension no longer matters).
  for (const std::string& out : {output, opts.mf}) {
    std::error_code ec;
    if (opts.input != "-" && !out.empty() && out != "-" && std::filesystem::equivalent(opts.input, out, ec)) {
      diag.error(SourceRange{}, "the output '" + out + "' is the input file; name another one");
      diag.flush(stderr);
      return false;
    }
  }
  if (std::string problem = output_extension_problem(output, emit, opts.emit_given);
      !problem.empty())
    diag.warning(Warning::OutputExtension, SourceRange{}, problem);
  return true;
}

int Compilation::finish(int code_if_clean) {
  if (opts.verify_diagnostics) return diag.verify(stderr) ? 0 : 1;
  diag.flush(stderr);
  return diag.has_errors() ? 1 : code_if_clean;
}

int Compilation::write(const std::string& text) {
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
  if (std::string problem = replaced_source(files, deps); !problem.empty()) {
    diag.error(SourceRange{}, problem);
    return finish(1);
  }
  std::string failed, error;
  if (!write_files_atomic(files, failed, error)) {
    diag.error(SourceRange{}, "cannot write '" + failed + "': " + error);
    return finish(1);
  }
  return finish(0);
}

bool Compilation::load() {
  deps = {opts.input};
  std::string error;
  main_file = sm.load(opts.input, error);
  if (!main_file) {
    diag.error(SourceRange{}, "cannot read '" + opts.input + "': " + error);
    return false;
  }
  spdlog::trace("loaded {} ({} bytes)", opts.input, sm.file(main_file).text.size());
  return true;
}

bool Compilation::lex() {
  tokens = dump_tokens(sm, main_file, diag);
  return !diag.has_errors();
}

void Compilation::parse() {
  module = std::make_unique<Module>();
  StageTimer timer("parse", opts.input);
  parse_file(sm, main_file, diag, *module);
}

bool Compilation::check(const OutputKind& kind) {
  CheckOptions check_opts{opts.defines, opts.include_dirs, ""};
  {
    StageTimer timer("check", opts.input);
    check_program(sm, diag, check_opts, std::move(module), program);
  }
  check_target_keys(program.kernels, diag);
  deps = program.dependencies;
  if (program.kernels.empty() && kind.kernel_output && !diag.has_errors()) {
    Diagnostic& d = diag.error(SourceRange::whole_file(main_file), std::string("no @kernel in this file: ") +
                                                                       kind.kernel_output + " needs at least one");
    DiagnosticEngine::note(d, SourceRange{}, "a module of constants and helpers is imported by a kernel's file, or "
                                             "checked alone with --emit=none");
  }
  return !diag.has_errors();
}

// Tile IR, one function per kernel. From here on, nothing reads the AST or the checker's
// output: each function carries its signature (ir/signature.h).
bool Compilation::build_ir() {
  for (const KernelInfo& k : program.kernels) {
    KernelGroup group{k.name, &k, kernels.size(), 1, {0}, {""}, 1, {-1}};
    if (!k.configs.empty()) {
      group.indices.clear();
      group.labels.clear();
      group.reduce.clear();
      bool built = build_config_functions(*this, k, group, kernels);
      groups.push_back(std::move(group));
      if (!built) return false;
      continue;
    }
    groups.push_back(std::move(group));
    int errors = diag.error_count();  // an earlier kernel's split_k error lets this one be built
    {
      StageTimer timer("build-ir", k.name);
      kernels.push_back(ir::build_kernel(k, diag, opts.device_asserts));
    }
    if (diag.error_count() != errors) return false;
    std::string problem;
    {
      StageTimer timer("verify", k.name);
      problem = ir::verify(*kernels.back());
    }
    TILEC_ASSERT(problem.empty(), "the IR built for '" + k.name + "' is invalid: " + problem);
    codegen::check_param_space(kernels.back()->sig, diag);
    std::unique_ptr<ir::Function> reduce;
    if (!split_if_asked(kernels.back(), reduce, diag)) continue;  // the next kernels' errors too
    if (reduce) {
      groups.back().reduce[0] = int(pending_reduce.size());
      pending_reduce.push_back(std::move(reduce));
    }
  }
  append_reduce_kernels(*this);
  return !diag.has_errors();
}

bool Compilation::optimize() {
  std::vector<std::string> passes =
      opts.passes.empty() ? ir::default_pipeline(opts.opt_level, opts.fmad) : split(opts.passes);
  std::string trace;
  for (auto& f : kernels) {
    std::string problem = ir::run_passes(*f, passes, opts.print_after_all, trace);
    if (!problem.empty()) {
      diag.error(SourceRange{}, problem);
      return false;
    }
  }
  if (opts.print_after_all) std::fwrite(trace.data(), 1, trace.size(), stderr);
  return true;
}

codegen::BackendOptions Compilation::backend_options(bool lower_only) const {
  return codegen::BackendOptions{.fast_math = opts.fast_math,
                                 .fmad = opts.fmad,
                                 .lineinfo = opts.lineinfo,
                                 .device_asserts = opts.device_asserts,
                                 .jobs = opts.jobs,
                                 .print_after_all = opts.print_after_all,
                                 .lower_only = lower_only};
}

std::vector<KernelAbi> Compilation::public_abis() const {
  std::vector<KernelAbi> out;
  for (const KernelGroup& g : groups) {
    out.push_back(codegen::public_view(code.abis[g.first]));
    out.back().name = g.name;
    for (size_t j = 0; j < g.count; ++j) out.back().workspace_arg = out.back().workspace_arg || g.reduce[j] >= 0;
  }
  return out;
}

std::vector<KernelAbi> Compilation::op_abis() const {
  std::vector<KernelAbi> out = public_abis();
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const KernelGroup& g = groups[gi];
    KernelAbi& op = out[gi];
    std::vector<std::string> c, python, messages;
    bool same = true, unconditional = false;
    for (size_t j = 0; j < g.count; ++j) {
      const KernelAbi a = codegen::public_view(code.abis[g.first + j]);
      same = same && a.host_asserts == op.host_asserts;
      unconditional = unconditional || a.host_asserts.empty();
      c.push_back(fmt::format("({})", fmt::join(a.host_asserts, " && ")));
      python.push_back(fmt::format("({})", fmt::join(a.host_asserts_python, " & ")));
      for (const std::string& m : a.host_assert_messages)
        if (std::find(messages.begin(), messages.end(), m) == messages.end()) messages.push_back(m);
    }
    if (same) continue;
    op.host_asserts.clear();
    op.host_asserts_python.clear();
    op.host_assert_messages.clear();
    if (unconditional) continue;  // a configuration without asserts runs any extents
    op.host_asserts.push_back(fmt::format("{}", fmt::join(c, " || ")));
    op.host_asserts_python.push_back(fmt::format("{}", fmt::join(python, " | ")));
    op.host_assert_messages.push_back(fmt::format("{}", fmt::join(messages, "; ")));
  }
  return out;
}

std::vector<const ir::Function*> Compilation::public_functions() const {
  std::vector<const ir::Function*> out;
  for (const KernelGroup& g : groups) out.push_back(kernels[g.first].get());
  return out;
}

bool Compilation::lower(bool lower_only) {
  bool configs = std::any_of(groups.begin(), groups.end(), [](const KernelGroup& g) { return !g.info->configs.empty(); });
  if (configs && !drop_unbuildable_configs(*this)) return false;
  bool ok = codegen::compile_module(kernels, opts.targets, backend_options(lower_only), diag, code);
  if (opts.print_after_all) std::fwrite(code.lowering_trace.data(), 1, code.lowering_trace.size(), stderr);
  return ok;
}

// Assemble with the CUDA toolkit: one cubin, or a fatbin of every arch.
bool Compilation::assemble(bool cubin) {
  std::string error;
  if (!find_cuda_toolkit(ToolkitSearch::from_environment(), toolkit, error)) {
    diag.error(SourceRange{}, error);
    return false;
  }
  if (cubin && opts.archs.size() > 1) {
    diag.error(SourceRange{}, "a cubin holds one architecture; give at most one -arch (or write a .fatbin)");
    return false;
  }
  return codegen::assemble_module(toolkit, code, kernels, cubin, output == "-" ? std::string("tilec") : output, diag,
                                  assembled);
}

HeaderConfigs Compilation::header_configs(const KernelGroup& g) const {
  HeaderConfigs out;
  for (size_t j = 0; j < g.count; ++j) {
    out.abis.push_back(code.abis[g.first + j]);
    out.indices.push_back(g.indices[j]);
    out.work.push_back(cta_work(*kernels[g.first + j]));
    out.reduce.push_back(g.reduce[j] >= 0 ? code.abis[size_t(g.reduce[j])] : KernelAbi{});
  }
  out.labels.assign(g.num_declared, "");
  for (size_t j = 0; j < g.count; ++j) out.labels[size_t(g.indices[j])] = g.labels[j];
  if (!g.info->configs.empty()) {
    std::vector<std::string> declared;
    for (const KernelConfig& c : g.info->configs) declared.push_back(c.label);
    out.space = config_space(codegen::public_view(code.abis[g.first]), declared);
  }
  return out;
}

bool Compilation::embed_tuning_tables(HeaderInput& hi) {
  std::vector<std::string> names;
  for (const KernelGroup& g : groups) names.push_back(g.name);
  std::vector<bool> seen(groups.size());
  for (const std::string& path : opts.tuning) {
    deps.push_back(path);
    std::optional<TuningTable> t = load_tuning_table(path, sm, diag);
    if (!t) continue;
    auto g = std::find(names.begin(), names.end(), t->kernel);
    if (g == names.end()) {
      report_table_kernel_missing(*t, names, diag);
      continue;
    }
    size_t i = size_t(g - names.begin());
    if (seen[i]) {
      diag.error(t->kernel_range, "a second tuning table for kernel '" + t->kernel + "': give one --tuning per kernel");
      continue;
    }
    seen[i] = true;
    HeaderConfigs& hc = hi.configs[i];
    auto built = [&](int index) { return std::find(hc.indices.begin(), hc.indices.end(), index) != hc.indices.end(); };
    if (!check_tuning_table(*t, t->kernel, hc.space, hi.kernels[i].dim_symbols, int(hc.labels.size()), built, diag))
      continue;
    for (const TuningSection& s : t->sections) {
      HeaderTuningSection out{s.gpu, s.cc, s.sms, {}, {}};
      for (const TuningRow& r : s.rows) {
        out.extents.push_back(r.extents);
        out.configs.push_back(r.config);
      }
      hc.tuning.push_back(std::move(out));
    }
  }
  return !diag.has_errors();
}

bool Compilation::make_header() {
  HeaderInput hi;
  // The file name without its folder: the header's bytes do not depend on where the checkout
  // or the build folder is (CMake passes absolute paths).
  hi.source_name = opts.input == "-" ? "<stdin>" : std::filesystem::path(opts.input).filename().string();
  hi.targets = opts.targets;
  hi.prefix = opts.prefix;
  hi.tilec_version = TILEC_VERSION;
  std::string error;
  if (!ptxas_version(toolkit, hi.cuda_version, error)) hi.cuda_version = "unknown";
  hi.image = assembled.fatbin.bytes;
  std::vector<std::string> names;
  for (const KernelGroup& g : groups) names.push_back(g.name);
  std::vector<KernelAbi> abis = public_abis();
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const KernelGroup& g = groups[gi];
    const ir::Signature& k = code.targets[0].kernels[g.first].fn->sig;
    std::string name_error;
    if (!check_kernel_name(opts.prefix, g.name, names, name_error)) diag.error(k.range, name_error);
    std::vector<std::string> abi_errors, subjects;
    if (!check_kernel_abi(abis[gi], abi_errors, &subjects))
      for (size_t e = 0; e < abi_errors.size(); ++e) diag.error(declaration_range(k, subjects[e]), abi_errors[e]);
    hi.kernels.push_back(abis[gi]);
    hi.configs.push_back(header_configs(g));
  }
  if (diag.has_errors() || !embed_tuning_tables(hi)) return false;
  for (const auto& [name, value] : program.constants) hi.constants.push_back({name, value});
  StageTimer timer("header", hi.source_name);
  header = generate_header(hi);
  return true;
}

}  // namespace tilec
