// Command-line options of tilec and their parsing (CLI11).
#pragma once

#include <string>
#include <vector>

#include "basic/warnings.h"
#include "codegen/target/target.h"

namespace tilec {

/// What the compiler writes (`--emit=` or the `-o` extension).
enum class EmitKind {
  Tokens,      ///< token stream, one per line
  Syntax,      ///< the parse tree before checking
  Ast,         ///< the checked tree with each expression's type and shape
  Tir,         ///< tile IR as built from the checked tree
  TirOpt,      ///< tile IR after the optimizer
  TirLowered,  ///< tile IR with layouts and launch choices
  Ptx,         ///< PTX text of the first target (without -arch: sm_90a's, both code paths)
  Cubin,       ///< SASS of the first target, with at most one -arch (ptxas)
  Fatbin,      ///< SASS for every target plus PTX of the newest plain one (sm_80 by default)
  Header,      ///< C header with the embedded fatbin and launch functions
  Torch,       ///< PyTorch custom operators: a C++ source embedding the header, and a Python module
  None,        ///< check only
};

enum class ColorMode { Auto, Always, Never };

struct Options {
  std::string input;                 ///< path, or "-" for stdin
  std::string output;                ///< empty: derived from the input name; "-": stdout
  EmitKind emit = EmitKind::Header;
  bool emit_given = false;
  std::vector<std::string> defines;  ///< NAME=VALUE
  std::vector<std::string> include_dirs;
  std::vector<std::string> archs;    ///< -arch values as given (sm_80 ... sm_90a), each once; may be empty
  /// The targets the -arch values build (codegen::arch_builds: `sm_90` builds sm_90a and
  /// sm_80), each once, in order; kDefaultArch's when none is given. Parsed by
  /// parse_command_line, the only parser; the single-arch outputs (ptx, cubin) take the first.
  std::vector<codegen::Target> targets;
  int opt_level = 2;
  bool fast_math = false;
  bool fmad = true;
  bool lineinfo = false;
  bool device_asserts = true;
  int jobs = 0;                      ///< ptxas runs at a time (-j); 0: one per available CPU
  std::string prefix;                ///< prefix of the header's public symbols
  std::vector<std::string> tuning;   ///< --tuning FILE: tuning tables to embed, one per kernel (docs/tuning.md)
  // --emit=torch
  std::string torch_namespace;       ///< ops are torch.ops.<namespace>; empty: the input's name
  std::vector<std::string> dispatch; ///< NAME=v1,v2,...: one build per value, one op over them
  // depfiles
  bool md = false;
  std::string mf;
  std::string mt;
  bool mp = false;
  // diagnostics and logging
  bool verbose = false;
  ColorMode color = ColorMode::Auto;
  int max_errors = 20;
  WarningSettings warnings;          ///< after the -W flags, in command-line order
  bool verify_diagnostics = false;
  // passes
  std::string passes;                ///< comma-separated pass list; empty: the default pipeline
  bool list_passes = false;
  bool print_after_all = false;
};

/// The -arch a build gets without one: `sm_90`, which builds sm_90a (the tma_wgmma path for
/// H100/H200) and sm_80 (the portable path as SASS for 8.x and PTX for later GPUs).
constexpr const char* kDefaultArch = "sm_90";

/// Rewrites nvcc/gcc single-dash spellings (`-arch sm_90`, `-arch=sm_90`, `-MD`, `-MF f`,
/// `-MT t`, `-MP`) into the double-dash forms CLI11 2.1 can register. Other arguments pass
/// through unchanged; everything after `--` is left alone.
std::vector<std::string> translate_single_dash(const std::vector<std::string>& args);

/// Moves the warning flags (`-W...`, also spelled `--W...`; none after `--`) out of `args` into
/// `flags`, in order: CLI11 2.1 cannot register a family of names such as -Wno-<name>.
void take_warning_flags(std::vector<std::string>& args, std::vector<std::string>& flags);

/// Parses argv. Returns -1 to continue, or an exit code: 0 after --help/--version (printed to
/// stdout), 2 for a usage error (printed to stderr).
int parse_command_line(int argc, const char* const* argv, Options& opts);

}  // namespace tilec
