// The pipeline: load → lex → parse → check → build IR → optimize → the backend (lower, PTX) →
// assemble → header. Each output kind (output_kinds.h) names the last stage it needs and writes
// what the stages made; --emit=torch runs the stages once per build.
#include "driver/pipeline.h"

#include <cstdio>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "codegen/lowering/lowering_steps.h"
#include "codegen/lowering/path_table.h"
#include "driver/output.h"
#include "driver/output_kinds.h"
#include "driver/stages.h"
#include "driver/torch.h"
#include "ir/passes/passes.h"

namespace tilec {
namespace {

// Tracing (-v) goes through spdlog's default logger; user diagnostics never do.
void start_logging(bool verbose) {
  if (!spdlog::get("tilec")) spdlog::set_default_logger(spdlog::stderr_logger_st("tilec"));
  spdlog::set_pattern("tilec: [%l] %v");
  spdlog::set_level(verbose ? spdlog::level::trace : spdlog::level::warn);
  install_cleanup_handlers();
}

// --list-passes: the optimizer's passes, then each code path's lowering steps and their table.
int list_passes() {
  for (const ir::PassInfo& p : ir::all_passes()) std::printf("%-13s %s\n", p.name, p.summary);
  std::printf("\n");
  for (const codegen::CodePathInfo& path : codegen::code_paths()) {
    std::string steps;
    for (const std::string& s : path.steps) steps += (steps.empty() ? "" : ", ") + s;
    std::printf("lowering, %s path: %s\n", path.name, steps.c_str());
  }
  for (const codegen::LoweringStep& s : codegen::all_lowering_steps()) std::printf("%-16s %s\n", s.name, s.summary);
  return 0;
}

// The output kind: --emit's, else the one -o's extension names, else a header.
const OutputKind& chosen_kind(const Options& opts) {
  if (opts.emit_given) return output_kind(opts.emit);
  const OutputKind* named = output_kind_named_by(opts.output);
  return named ? *named : output_kind(EmitKind::Header);
}

// Default output path: the input's stem plus the kind's suffix; text forms go to stdout.
std::string default_output(const std::string& input, const OutputKind& kind) {
  if (!*kind.default_suffix || input == "-") return "-";
  std::string base = input.substr(input.find_last_of('/') + 1);
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".tile") == 0) base.resize(base.size() - 5);
  return base + kind.default_suffix;
}

// Runs the stages `kind` needs, in order, up to its last. Returns -1 when they all succeeded
// (the caller writes the output), else the exit code.
int run_stages(Compilation& c, const OutputKind& kind) {
  Stage last = kind.last;
  if (!c.usage_ok(kind.kind)) return 2;
  if (!c.load()) return c.finish(1);
  if (last == Stage::Tokens) return c.lex() ? -1 : c.finish(1);
  c.parse();
  // After syntax errors the checker still runs on the statements that parsed, as it does for
  // an imported module, so that their errors are reported in the same run.
  if (c.diag.has_errors() && (last == Stage::Parse || c.diag.too_many())) return c.finish(1);
  if (last == Stage::Parse) return -1;
  if (!c.check(kind)) return c.finish(1);
  if (last == Stage::Check) return -1;
  if (!c.build_ir()) return c.finish(1);
  if (last == Stage::BuildIr) return -1;
  if (!c.optimize()) return c.finish(1);
  if (last == Stage::Optimize) return -1;
  if (!c.lower(last == Stage::Lower)) return c.finish(1);
  if (last == Stage::Lower || last == Stage::Ptx) return -1;
  if (!c.assemble(kind.kind == EmitKind::Cubin)) return c.finish(1);
  if (last == Stage::Assemble) return -1;
  return c.make_header() ? -1 : c.finish(1);
}

// --emit=torch (driver/torch.h): the stages up to the header once per combination of the
// --dispatch values, then the ops over every build.
int compile_torch(const Options& opts, const OutputKind& kind, const std::string& output) {
  TorchOps ops;
  if (int usage = ops.plan(opts, output); usage >= 0) return usage;
  for (size_t i = 0; i < ops.builds.size(); ++i) {
    Options o = ops.build_options(opts, i);
    Compilation c(o, output);
    int code = run_stages(c, kind);
    if (code < 0) code = c.finish(0);
    if (code != 0) {
      ops.failed(i);
      return code;
    }
    ops.add(i, o.prefix, c.header, c.op_abis(), c.public_functions(), c.deps);
  }
  return ops.write(opts);
}

}  // namespace

int compile(const Options& opts) {
  start_logging(opts.verbose);
  if (opts.list_passes) return list_passes();
  const OutputKind& kind = chosen_kind(opts);
  std::string output = opts.output.empty() ? default_output(opts.input, kind) : opts.output;
  if (kind.kind == EmitKind::Torch) return compile_torch(opts, kind, output);
  Compilation c(opts, output);
  if (int code = run_stages(c, kind); code >= 0) return code;
  return kind.write ? c.write(kind.write(c)) : c.finish(0);
}

}  // namespace tilec
