// One compilation: the stages from the source to the code and the header, each a function of
// what the ones before made (driver/pipeline.cpp runs them in order), and the end of the run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "basic/diagnostics.h"
#include "basic/source.h"
#include "codegen/backend/backend.h"
#include "codegen/header/header.h"
#include "codegen/toolchain/toolchain.h"
#include "driver/configs.h"
#include "driver/options.h"
#include "driver/output_kinds.h"
#include "frontend/ast.h"
#include "frontend/check.h"
#include "ir/ir.h"

namespace tilec {

/// What the stages of one compilation have made so far.
struct Compilation {
  Compilation(const Options& opts, std::string output);

  const Options& opts;
  std::string output;  ///< where the output goes ("-": standard output); failed PTX is saved beside it
  SourceManager sm;
  DiagnosticEngine diag;
  uint32_t main_file = 0;
  /// Every source file read so far (the input, then imports): the depfile's prerequisites.
  std::vector<std::string> deps;
  std::string tokens;                          ///< Stage::Tokens
  std::unique_ptr<Module> module;              ///< Stage::Parse (moved into `program` by Check)
  Program program;                             ///< Stage::Check
  std::vector<std::unique_ptr<ir::Function>> kernels;  ///< BuildIr, then Optimize: every configuration's
  std::vector<KernelGroup> groups;             ///< BuildIr: per kernel of the source, its functions in `kernels`
  /// BuildIr: split-K reduce kernels until append_reduce_kernels moves them after the groups'.
  std::vector<std::unique_ptr<ir::Function>> pending_reduce;
  codegen::CompiledModule code;                ///< Lower, Ptx
  CudaToolkit toolkit;                         ///< Assemble
  codegen::AssembledCode assembled;            ///< Assemble
  std::string header;                          ///< Header

  /// Stages; each returns false when the run ends there (its errors are in `diag`).
  /// The output and depfile are not the input (else that is the only message, a usage error);
  /// -Woutput-extension when the output's extension names another kind than `emit`.
  bool usage_ok(EmitKind emit);
  bool load();
  bool lex();
  void parse();
  bool check(const OutputKind& kind);
  bool build_ir();
  bool optimize();
  bool lower(bool lower_only);
  bool assemble(bool cubin);
  bool make_header();

  /// --tuning: each table, checked against the kernel it names, into `hi.configs`' sections.
  bool embed_tuning_tables(HeaderInput& hi);
  /// What the header needs of group `g`'s configurations (HeaderInput::configs).
  HeaderConfigs header_configs(const KernelGroup& g) const;
  /// The backend's options from the command line's.
  codegen::BackendOptions backend_options(bool lower_only) const;
  /// Per kernel of the source: the launch interface and function of its first configuration,
  /// under the kernel's own name (what a torch op or a listing of kernels sees).
  std::vector<KernelAbi> public_abis() const;
  /// public_abis() with each kernel's asserts on extents made those of any of its configurations:
  /// one condition that holds when every assert of some configuration holds, which is when a
  /// launch through the kernel's choice runs (what a torch op checks before launching).
  std::vector<KernelAbi> op_abis() const;
  std::vector<const ir::Function*> public_functions() const;

  /// Ends the run: in --verify-diagnostics mode the verdict is the comparison, else the
  /// diagnostics are printed and the exit code is 1 after errors, else `code_if_clean`.
  int finish(int code_if_clean);
  /// Writes `text` to `output` (with -MD, the depfile beside it, both complete before either is
  /// renamed into place), then finishes.
  int write(const std::string& text);
};

}  // namespace tilec
