// The checker's public interface: from parsed modules to checked kernels.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "basic/diagnostics.h"
#include "basic/kernel_options.h"

namespace tilec {

/// A kernel parameter: an array (`a: f32[n]`) or a scalar (`alpha: f32`).
struct KernelParam {
  std::string name;
  SourceRange range;
  bool is_array = false;
  const ArrayParam* array = nullptr;  ///< arrays only
  DType dtype = DType::F32;           ///< element dtype (arrays) or scalar dtype
  int var = -1;                       ///< variable id inside the kernel body
};

/// A dimension symbol shared by the array parameters (`n` in `a: f32[n]`): a runtime i64
/// extent, usable in the body and the grid.
struct DimSymbol {
  std::string name;
  SourceRange first;  ///< its first appearance
  int var = -1;
};

/// One entry of a kernel's `configs=[config(...), ...]` (language.md §3, "Configurations"): values
/// of module constants, compiled like -D for this kernel only, and @kernel options.
struct KernelConfig {
  SourceRange range;                  ///< the config(...) call
  std::string label;                  ///< its keywords as written: "BM=128, BN=256, num_warps=8"
  std::vector<std::string> defines;   ///< "NAME=VALUE" per module constant it sets (VALUE as written)
  /// The @kernel options it sets: (index into kernel_options(), value).
  std::vector<std::pair<size_t, int>> options;
  /// A -D of the command line gives one of its constants another value: -D pins a constant, and
  /// this configuration is left out of the build.
  bool pinned_out = false;
};

/// A checked kernel: its signature, grid and options; its body is the checked AST of `def`.
struct KernelInfo {
  Stmt* def = nullptr;
  std::string name;
  std::string doc;  ///< the comment lines right above the decorator, for the header
  std::vector<KernelParam> params;
  std::vector<std::unique_ptr<ArrayParam>> arrays;
  std::vector<DimSymbol> dims;         ///< order of first appearance
  std::vector<const Expr*> grid;       ///< 1-3 checked integer expressions
  /// The axes grid= has as written, with an error in one or not (0 for none, or more than 3):
  /// an axis whose extent had an error is still an axis, for the checks of bid() and num_blocks().
  size_t grid_axes = 0;
  SourceRange grid_range;
  KernelOptions options;    ///< as written; by_target(...) entries beside their defaults
  std::vector<KernelConfig> configs;  ///< configs=, in the order written (empty: none)
  int num_vars = 0;         ///< variable ids are 0 .. num_vars-1
};

/// Every module of one compilation and the kernels of the main file.
struct Program {
  std::vector<std::unique_ptr<Module>> modules;  ///< [0] is the main file, then imports
  std::vector<KernelInfo> kernels;
  std::vector<std::string> dependencies;          ///< every source file read, main first
  std::vector<std::pair<std::string, std::string>> constants;  ///< main module, printed values
};

struct CheckOptions {
  std::vector<std::string> defines;       ///< NAME=VALUE from -D
  std::vector<std::string> include_dirs;  ///< -I, searched after the importing file's folder
  /// Check only the kernel of this name (a configuration's build, driver/configs.h); the main
  /// module's other kernels are skipped. Empty: every kernel.
  std::string only_kernel;
};

/// Checks `main` and the modules it imports (parsed on demand into `sm`) against language.md:
/// names, constants and -D overrides, dtypes and promotion, static shapes, built-in
/// signatures, kernel signatures and grids, helper calls (inlined: each call gets a checked
/// copy of the helper's body), control flow. Errors go to `diag`; `out` holds what was checked.
void check_program(SourceManager& sm, DiagnosticEngine& diag, const CheckOptions& opts,
                   std::unique_ptr<Module> main, Program& out);

}  // namespace tilec
