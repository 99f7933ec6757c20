// libFuzzer target: arbitrary bytes through the whole library pipeline up to PTX text, in memory
// (no files written, no ptxas). Built with -DTILEC_FUZZ=ON (clang); run by tools/fuzz.sh.
//
// A finding is anything the robustness contract forbids: a crash or sanitizer report, a hang
// (libFuzzer's -timeout), a leak, or an internal compiler error (TILEC_ASSERT / any exception
// escaping the library), which the driver would turn into exit status 70.
//
// Mutations: libFuzzer's byte-level ones with the dictionary (tile.dict plus the built-in names
// tools/fuzz.sh adds), and half the time source-level ones (mutator.cpp: literals, names,
// operators, whole lines, indentation).
//
// The input is the main file. To reach more of the back end, the first line may pick options
// the way a command line would: `# fuzz: sm_80 O0 fast-math no-fmad lineinfo no-asserts`
// (every word optional; a plain comment to the compiler). Without it: sm_90, -O2.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "basic/diagnostics.h"
#include "codegen/lowering/abi.h"
#include "codegen/lowering/limits.h"
#include "codegen/lowering/lower.h"
#include "codegen/lowering/lowered_text.h"
#include "codegen/ptx/module.h"
#include "codegen/target/target.h"
#include "frontend/check.h"
#include "frontend/parse.h"
#include "ir/build.h"
#include "ir/ir.h"
#include "ir/passes/passes.h"

namespace {

struct FuzzOptions {
  std::string arch = "sm_90";
  int opt_level = 2;
  bool fast_math = false;
  bool fmad = true;
  bool lineinfo = false;
  bool device_asserts = true;
};

// Reads the optional `# fuzz:` first line.
FuzzOptions options_from(std::string_view text) {
  FuzzOptions o;
  constexpr std::string_view kTag = "# fuzz:";
  if (text.substr(0, kTag.size()) != kTag) return o;
  std::string_view line = text.substr(kTag.size(), text.find('\n') - kTag.size());
  size_t pos = 0;
  while (pos < line.size()) {
    size_t end = line.find(' ', pos);
    if (end == std::string_view::npos) end = line.size();
    std::string_view w = line.substr(pos, end - pos);
    pos = end + 1;
    if (w.substr(0, 3) == "sm_") o.arch = std::string(w);
    else if (w == "O0") o.opt_level = 0;
    else if (w == "O1") o.opt_level = 1;
    else if (w == "fast-math") o.fast_math = true;
    else if (w == "no-fmad") o.fmad = false;
    else if (w == "lineinfo") o.lineinfo = true;
    else if (w == "no-asserts") o.device_asserts = false;
  }
  return o;
}

// The library calls of tilec::compile() (src/driver/pipeline.cpp) from load to PTX text.
void run_pipeline(std::string_view input) {
  using namespace tilec;
  FuzzOptions fo = options_from(input);
  SourceManager sm;
  DiagnosticEngine diag(sm);
  // A path whose folder does not exist: `import x` looks for nothing on the fuzzing machine.
  uint32_t main_file = sm.add("/nonexistent-tilec-fuzz/input.tile", std::string(input));

  auto module = std::make_unique<Module>();
  parse_file(sm, main_file, diag, *module);
  if (diag.too_many()) return;  // as the driver: the checker runs after syntax errors

  Program program;
  check_program(sm, diag, CheckOptions{}, std::move(module), program);
  if (diag.has_errors()) return;

  std::vector<std::unique_ptr<ir::Function>> kernels;
  for (const KernelInfo& k : program.kernels) {
    kernels.push_back(ir::build_kernel(k, diag, fo.device_asserts));
    if (diag.has_errors()) return;
    std::string problem = ir::verify(*kernels.back());
    TILEC_ASSERT(problem.empty(), "the IR built for '" + k.name + "' is invalid: " + problem);
    codegen::check_param_space(kernels.back()->sig, diag);
  }
  if (diag.has_errors()) return;
  std::string trace;
  for (auto& f : kernels) {
    std::string problem = ir::run_passes(*f, ir::default_pipeline(fo.opt_level), false, trace);
    TILEC_ASSERT(problem.empty(), "the default pipeline failed: " + problem);
  }

  std::optional<codegen::Target> target = codegen::parse_target(fo.arch);
  if (!target) return;
  std::vector<codegen::LoweredKernel> lowered;
  for (auto& f : kernels) lowered.push_back(codegen::lower_kernel(*f, *target, target->max_shared_per_cta()));
  for (const codegen::LoweredKernel& low : lowered) codegen::check_registers(low, diag);
  if (diag.has_errors()) return;
  std::string text;
  for (const auto& k : lowered) text += codegen::print_lowered(k);

  for (const codegen::LoweredKernel& low : lowered) codegen::check_shared_memory(low, *target, diag);
  if (diag.has_errors()) return;
  // The header's view of each kernel (vector widths, asserts the launch stub checks in C).
  for (const codegen::LoweredKernel& low : lowered) (void)codegen::make_kernel_abi(low);
  codegen::EmitOptions eo;
  eo.target = *target;
  eo.fast_math = fo.fast_math;
  eo.fmad = fo.fmad;
  eo.lineinfo = fo.lineinfo;
  eo.device_asserts = fo.device_asserts;
  std::string ptx = codegen::emit_module(lowered, eo, sm, diag);
  // A kernel that compiled without an error must have produced PTX.
  TILEC_ASSERT(diag.has_errors() || program.kernels.empty() || !ptx.empty(), "no PTX and no error");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    run_pipeline(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const std::exception& e) {
    // The driver exits with status 70 here: for the fuzzer that is a crash.
    std::fprintf(stderr, "tilec fuzz: %s\n", e.what());
    std::abort();
  }
  return 0;
}
