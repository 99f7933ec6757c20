// Source to tile IR through the compiler's own front end and optimizer (kernels.h), the same
// calls as the driver's pipeline (src/driver/pipeline.cpp) up to `--emit=tir-opt`.
#include "difftest/kernels.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "basic/diagnostics.h"
#include "frontend/check.h"
#include "frontend/parse.h"
#include "ir/build.h"
#include "ir/passes/passes.h"

namespace tilec::difftest {

bool read_file(const std::string& path, std::string& text, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "'";
    return false;
  }
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

bool build_kernels(const std::string& path, const std::string& text, const std::vector<std::string>& defines,
                   const std::vector<std::string>& passes, std::vector<std::unique_ptr<ir::Function>>& out,
                   std::string& errors) {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  // Diagnostics are printed into a memory buffer, so that a caller can report them with the
  // seed that made the file.
  char* buf = nullptr;
  size_t len = 0;
  FILE* mem = open_memstream(&buf, &len);
  auto finish = [&](bool ok) {
    diag.flush(mem);
    std::fclose(mem);
    errors.assign(buf ? buf : "", len);
    std::free(buf);
    return ok && !diag.has_errors();
  };
  uint32_t file = sm.add(path, text);
  auto module = std::make_unique<Module>();
  parse_file(sm, file, diag, *module);
  if (diag.has_errors()) return finish(false);
  Program program;
  CheckOptions options;
  options.defines = defines;
  check_program(sm, diag, options, std::move(module), program);
  if (diag.has_errors()) return finish(false);
  for (const KernelInfo& k : program.kernels) {
    out.push_back(ir::build_kernel(k, diag, true));
    if (diag.has_errors()) return finish(false);
    std::string problem = ir::verify(*out.back());
    if (problem.empty()) {
      std::string trace;
      problem = ir::run_passes(*out.back(), passes, false, trace);
    }
    if (!problem.empty()) {
      diag.error(SourceRange{}, "internal compiler error: " + problem);
      return finish(false);
    }
  }
  return finish(true);
}

}  // namespace tilec::difftest
