// Command-line parsing with CLI11, including the nvcc/gcc single-dash spellings.
#include "driver/options.h"

#include <algorithm>

#include <CLI/CLI.hpp>

#include "codegen/header/c_text.h"
#include "codegen/target/target.h"
#include "codegen/toolchain/cleanup.h"
#include "codegen/toolchain/toolchain.h"
#include "driver/output_kinds.h"
#include <iostream>
#include <map>

namespace tilec {
namespace {

// Single-dash long options that nvcc and gcc users type; CLI11 2.1 only knows `--name`.
constexpr const char* kSingleDashLong[] = {"arch", "MD", "MF", "MT", "MP", "lineinfo"};

// The -arch values tilec emits for that the installed ptxas also knows (tilec's own list when
// ptxas cannot be found), for the message about a bad -arch.
std::string known_archs_text() {
  std::vector<std::string> ours = codegen::known_targets(), names;
  CudaToolkit tk;
  std::string error;
  std::string tool = "tilec";
  if (find_cuda_toolkit(ToolkitSearch::from_environment(), tk, error)) {
    tool = tk.ptxas;
    for (const std::string& n : ptxas_gpu_names(tk))
      if (std::find(ours.begin(), ours.end(), n) != ours.end()) names.push_back(n);
  }
  if (names.empty()) {
    names = ours;
    tool = "tilec";
  }
  std::string out = "use one of";
  for (const std::string& n : names) out += " " + n;
  return out + (tool == "tilec" ? " (tilec's list; ptxas was not found)" : " (the ones tilec emits for that " + tool + " knows)");
}

// "-o is given more than once ('x.h', 'y.h')" for an option of one value that the command line
// gives twice, spelled as users type it (-o, -MF, --emit), instead of CLI11's "--output: At
// Most 1 required but received 2"; "" when there is none.
std::string repeated_option_text(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_multi_option_policy() != CLI::MultiOptionPolicy::Throw || opt->get_items_expected_max() != 1 ||
        opt->count() < 2)
      continue;
    std::string name = opt->get_snames().empty() ? "--" + opt->get_lnames().front() : "-" + opt->get_snames().front();
    for (const char* n : kSingleDashLong)
      if (!opt->get_lnames().empty() && opt->get_lnames().front() == n) name = std::string("-") + n;
    std::string values;
    for (const std::string& v : opt->results()) values += (values.empty() ? "'" : ", '") + v + "'";
    return name + " is given more than once (" + values + "); give it once";
  }
  return "";
}

// tilec's release, then the ptxas a compile would run (its path, release and where it was
// found), so that one command names both in a bug report. The header's banner names the ptxas
// release too, but not its path: a header's bytes do not depend on where the tools lie.
std::string version_text() {
  std::string out = std::string("tilec ") + TILEC_VERSION + "\n";
  CudaToolkit tk;
  std::string error, release;
  if (!find_cuda_toolkit(ToolkitSearch::from_environment(), tk, error)) return out + "ptxas: none; " + error + "\n";
  if (!ptxas_version(tk, release, error)) release = "release unknown";
  return out + "ptxas: " + tk.ptxas + " (" + release + ", found via " + tk.found_via + ")\n";
}

}  // namespace

std::vector<std::string> translate_single_dash(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  bool rest = false;
  for (const std::string& a : args) {
    if (rest || a.size() < 2 || a[0] != '-' || a[1] == '-') {
      rest = rest || a == "--";
      out.push_back(a);
      continue;
    }
    std::string name = a.substr(1, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 1);
    bool known = false;
    for (const char* n : kSingleDashLong) known = known || name == n;
    out.push_back(known ? "-" + a : a);
  }
  return out;
}

void take_warning_flags(std::vector<std::string>& args, std::vector<std::string>& flags) {
  std::vector<std::string> rest;
  bool after_dashes = false;
  for (const std::string& a : args) {
    after_dashes = after_dashes || a == "--";
    if (!after_dashes && (a.rfind("-W", 0) == 0 || a.rfind("--W", 0) == 0))
      flags.push_back(a);
    else
      rest.push_back(a);
  }
  args = std::move(rest);
}

namespace {

// The -W flags and the warning names, after the options in --help.
std::string warnings_help() {
  std::string out =
      "Warnings (each message ends with its name, as in [-Wunused-value]):\n"
      "  -Wname, -Wno-name        report that warning, or not\n"
      "  -Werror, -Werror=name    make every warning, or that one, an error\n"
      "  -Wno-error=name          keep that one a warning under -Werror\n"
      "Warning names:\n";
  for (const WarningInfo& w : all_warnings()) {
    std::string name = w.name;
    out += "  " + name + std::string(name.size() < 21 ? 21 - name.size() : 1, ' ') + w.summary +
           (w.on_by_default ? "" : " (off by default)") + "\n";
  }
  return out;
}

}  // namespace

int parse_command_line(int argc, const char* const* argv, Options& o) {
  CLI::App app{"tilec: compiles .tile kernels to PTX, cubin, fatbin and a C header with launch "
               "functions.",
               "tilec"};
  app.set_version_flag("--version", std::string("tilec ") + TILEC_VERSION);  // printed by version_text() below
  std::string emit, color = "auto", fmad = "true";
  app.add_option("file", o.input, "Input .tile file ('-' reads stdin)");
  app.add_option("-o,--output", o.output,
                 "Output file ('-' for stdout). Its extension (.ptx .cubin .fatbin .h) picks the "
                 "output kind when --emit is not given. Default: the input's name with the kind's "
                 "extension, in the current folder (stdout for tokens, syntax, ast and tir forms)");
  app.add_option("--emit", emit,
                 "What to write: tokens, syntax, ast, tir, tir-opt, tir-lowered, ptx, cubin, "
                 "fatbin, header, torch, none");
  app.add_option("-D", o.defines, "Override a module constant: -D NAME=VALUE (repeatable)")
      ->allow_extra_args(false);
  app.add_option("-I", o.include_dirs, "Add a folder to the import search path (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--arch", o.archs,
                 "Target architecture, sm_80 or newer: sm_80 sm_86 sm_87 sm_89 sm_90 sm_90a sm_100 ... (repeatable; "
                 "default " + std::string(kDefaultArch) + "). sm_90 builds two targets: sm_90a (runs on every compute "
                 "capability 9.0 GPU; the TMA + wgmma path) and sm_80 (the portable path: SASS for 8.x, PTX that "
                 "later GPUs JIT-compile). A fatbin or header holds SASS for every target and the PTX of the newest "
                 "one without a suffix; --emit=ptx and --emit=cubin write the first target's code (sm_90a's for sm_90)")
      ->allow_extra_args(false);
  app.add_option("-O", o.opt_level, "Optimization level 0-3 (default 2)")->check(CLI::Range(0, 3));
  app.add_flag("--fast-math", o.fast_math, "Use hardware approximations for f32 math");
  app.add_option("--fmad", fmad, "Allow contracting a*b+c into one FMA and c + a@b into one mma: true (the default) or false");
  app.add_flag("--lineinfo", o.lineinfo, "Emit .file/.loc line information into the PTX");
  // A callback, not a `!` flag bound to device_asserts: --help would print CLI11's default
  // ("--no-device-asserts{false}").
  app.add_flag_callback("--no-device-asserts", [&o] { o.device_asserts = false; }, "Remove device-side assert statements");
  app.add_option("-j,--jobs", o.jobs,
                 "Run at most N ptxas jobs at a time (one per -arch, and a register-cap retry beside "
                 "the others), and lower and emit PTX on at most N threads (kernels, targets and entries "
                 "side by side); default: one per available CPU. The output does not depend on N")
      ->check(CLI::Range(1, kMaxToolRuns));
  app.add_option("--prefix", o.prefix, "Prefix for the generated header's public symbols");
  app.add_option("--tuning", o.tuning,
                 "Embed a tuning table (made by tilec-tune) for the kernel it names: the header's launch takes its "
                 "configuration for each shape on the GPUs it lists (repeatable, one per kernel; docs/tuning.md)");
  app.add_option("--torch-namespace", o.torch_namespace,
                 "--emit=torch: the ops' namespace, torch.ops.NAME (default: the input's name)");
  app.add_option("--dispatch", o.dispatch,
                 "--emit=torch: compile once per value of a constant, NAME=V1,V2,... (repeatable), "
                 "into ops that pick the build by their arguments' dtypes")
      ->allow_extra_args(false);
  app.add_flag("--MD", o.md, "Write a Make depfile (to -MF, or the output name + .d)");
  app.add_option("--MF", o.mf, "Depfile path");
  app.add_option("--MT", o.mt, "Target named in the depfile (default: the output path)");
  app.add_flag("--MP", o.mp, "Add a phony target for each dependency");
  app.add_flag("-v,--verbose", o.verbose, "Trace the stages, pass and lowering step timings, and ptxas runs to stderr");
  app.add_option("--color", color, "Colored diagnostics: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--max-errors", o.max_errors, "Stop after N errors (0: no limit; default 20)")
      ->check(CLI::Range(0, 1000000));
  app.footer(warnings_help());
  app.add_flag("--verify-diagnostics", o.verify_diagnostics,
               "Check the diagnostics against '# expected-error {{...}}' comments");
  app.add_option("--passes", o.passes, "Comma-separated optimizer passes to run instead of the default");
  app.add_flag("--list-passes", o.list_passes, "List the optimizer passes and the lowering steps, and exit");
  app.add_flag("--print-after-all", o.print_after_all, "Print the tile IR after every pass and lowering step");

  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i) args.push_back(argv[i]);  // CLI11 wants them reversed
  std::vector<std::string> forward(args.rbegin(), args.rend());
  std::vector<std::string> warning_flags;
  take_warning_flags(forward, warning_flags);
  forward = translate_single_dash(forward);
  args.assign(forward.rbegin(), forward.rend());
  // `-arch` last, or followed by another option: say what it wants instead of CLI11's
  // "--arch: 1 required TEXT missing".
  for (size_t i = 0; i < forward.size(); ++i) {
    if (forward[i] != "--arch" || (i + 1 < forward.size() && !forward[i + 1].empty() && forward[i + 1][0] != '-'))
      continue;
    std::cerr << "tilec: error: -arch needs a value, such as -arch sm_90a; " << known_archs_text()
              << "\nRun 'tilec --help' for the options.\n";
    return 2;
  }
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForVersion&) {
    std::cout << version_text();
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string repeated = repeated_option_text(app);
    std::cerr << "tilec: error: " << (repeated.empty() ? e.what() : repeated) << "\nRun 'tilec --help' for the options.\n";
    return 2;
  }
  if (!emit.empty()) {
    if (!parse_emit_kind(emit, o.emit)) {
      std::string kinds;
      for (int k = 0; k <= int(EmitKind::None); ++k) kinds += std::string(k ? ", " : "") + emit_kind_name(EmitKind(k));
      std::cerr << "tilec: error: unknown --emit kind '" << emit << "'; the kinds are " << kinds
                << "\nRun 'tilec --help' for the options.\n";
      return 2;
    }
    o.emit_given = true;
  }
  o.color = color == "always" ? ColorMode::Always : color == "never" ? ColorMode::Never : ColorMode::Auto;
  // Option values that are wrong whatever the input: usage errors (exit 2), like CLI11's own.
  auto usage = [](const std::string& msg) {
    std::cerr << "tilec: error: " << msg << "\nRun 'tilec --help' for the options.\n";
    return 2;
  };
  // -arch is parsed here, once: everything later takes o.targets. A target is built once,
  // where it first appears, however often the values name it: `-arch sm_80 -arch sm_80` like
  // `-arch sm_90 -arch sm_80` (sm_90 builds sm_90a and sm_80). One rule for both, and the
  // friendlier one: a build script that adds an arch already there gets the same build.
  std::vector<std::string> unique;
  for (const std::string& arch : o.archs)
    if (std::find(unique.begin(), unique.end(), arch) == unique.end()) unique.push_back(arch);
  o.archs = unique;
  std::vector<std::string> given = o.archs.empty() ? std::vector<std::string>{kDefaultArch} : o.archs;
  for (const std::string& arch : given) {
    std::string why;
    if (!codegen::parse_target(arch, &why))
      return usage("unsupported -arch '" + arch + "': " + why + "; " + known_archs_text());
    for (const std::string& build : codegen::arch_builds(arch)) {
      bool seen = false;
      for (const codegen::Target& t : o.targets) seen = seen || t.arch == build;
      if (!seen) o.targets.push_back(*codegen::parse_target(build));
    }
  }
  if (fmad != "true" && fmad != "false") return usage("--fmad takes true or false, not '" + fmad + "'");
  o.fmad = fmad == "true";
  for (const std::string& flag : warning_flags) {
    std::string error;
    if (!o.warnings.apply(flag, error)) return usage(error);
  }
  for (const std::string& d : o.defines)
    if (d.find('=') == std::string::npos || d.front() == '=')
      return usage("-D needs NAME=VALUE, not '" + d + "'");
  // Options that only mean something beside another one: without it they would be ignored
  // without a word, so they are usage errors, like the other conflicts between options.
  bool torch = o.emit_given && o.emit == EmitKind::Torch;
  if (!o.dispatch.empty() && !torch)
    return usage("--dispatch builds the ops of --emit=torch; add --emit=torch, or give -D NAME=VALUE for one build");
  if (!o.torch_namespace.empty() && !torch)
    return usage("--torch-namespace names the ops of --emit=torch; add --emit=torch");
  if (!o.md) {
    const char* alone = !o.mf.empty() ? "-MF names the depfile" : !o.mt.empty() ? "-MT names the target in the depfile"
                        : o.mp ? "-MP adds phony rules to the depfile" : nullptr;
    if (alone) return usage(std::string(alone) + " that -MD writes; add -MD");
  }
  if (o.md && o.emit_given && o.emit == EmitKind::None)
    return usage("--emit=none writes no output, so -MD has no depfile to write beside it; drop -MD");
  if (!o.prefix.empty() && !is_c_identifier(o.prefix))
    return usage("--prefix '" + o.prefix + "' is not the start of a C identifier");
  // The output kind as the driver will choose it: --emit's, else -o's extension's, else a header.
  const OutputKind* named = o.emit_given ? nullptr : output_kind_named_by(o.output);
  EmitKind kind = o.emit_given ? o.emit : named ? named->kind : EmitKind::Header;
  if (!o.prefix.empty() && kind != EmitKind::Header && kind != EmitKind::Torch)
    return usage(std::string("--prefix names the symbols of a header or of --emit=torch's ops; ") +
                 output_kind(kind).name + " output has none (PTX entries keep the kernels' names)");
  if (o.input.empty() && !o.list_passes) {
    std::cerr << "tilec: error: no input file\nRun 'tilec --help' for the options.\n";
    return 2;
  }
  return -1;
}

}  // namespace tilec
