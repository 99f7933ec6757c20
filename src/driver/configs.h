// A kernel's configurations (language.md §3.5, "Configurations"): each entry of
// `configs=[config(...), ...]` is the main module re-checked with the configuration's constants
// as -D values, for that kernel only, with its @kernel options set; its tile IR is a function of
// its own, named `<kernel>_config<i>`, which the backend compiles beside the others into the one
// image. A configuration that fails to check, to build its IR or to lower for a target is left
// out with -Wconfig.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen/launch/kernel_abi.h"
#include "frontend/check.h"
#include "ir/ir.h"

namespace tilec {

struct Compilation;

/// Where one kernel of the source is among Compilation::kernels: its compiled configurations.
struct KernelGroup {
  std::string name;                 ///< the kernel's name in the source
  const KernelInfo* info = nullptr; ///< the checker's, for its configs= and ranges
  size_t first = 0;                 ///< index of its first function in Compilation::kernels
  size_t count = 1;                 ///< its functions there, one per configuration kept
  std::vector<int> indices;         ///< per function: its configuration's index in configs= (0 without)
  std::vector<std::string> labels;  ///< per function: the configuration's keywords as written ("" without)
  size_t num_declared = 1;          ///< entries of configs= (1 without)
  /// Per function: for a split-K configuration (split_k=, ir/split_k.h), the index in
  /// Compilation::kernels of its reduce kernel, which comes after every group's functions; -1
  /// for the others. The function itself is the partials kernel.
  std::vector<int> reduce;
};

/// Splits `f` into its split-K kernels when its options ask for split_k > 1 (ir/split_k.h): `f`
/// becomes the partials kernel and `reduce` the reduce kernel (else null). An error in `diag`
/// when the kernel does not fit, at the loop or the op that prevents it; false then.
bool split_if_asked(std::unique_ptr<ir::Function>& f, std::unique_ptr<ir::Function>& reduce, DiagnosticEngine& diag);

/// Moves the reduce kernels built beside the groups' functions (Compilation::pending_reduce) to
/// the end of Compilation::kernels and points each group's KernelGroup::reduce at them.
void append_reduce_kernels(Compilation& c);

/// The entry names of configuration `index` of kernel `kernel`: "<kernel>_config<index>".
std::string config_function_name(const std::string& kernel, int index);

/// Builds the tile IR of every configuration of `k` (which declares configs=) into `out` (reduce
/// kernels of split-K configurations into Compilation::pending_reduce), with `group` describing
/// what was kept. A configuration that fails is reported with -Wconfig at its
/// config(...) and left out; when none is left, an error at configs=. False after an error.
bool build_config_functions(Compilation& c, const KernelInfo& k, KernelGroup& group,
                            std::vector<std::unique_ptr<ir::Function>>& out);

/// Lowers each configuration alone for every target (the checks of registers and shared memory
/// and the PTX, with its own diagnostics) and leaves out, with -Wconfig, those that fail, so that
/// one configuration cannot fail the build of the others. Updates `c.kernels` and `c.groups`.
/// False after an error (every configuration of a kernel left out).
bool drop_unbuildable_configs(Compilation& c);

/// The configuration space's hash (16 hex digits; XXH3 of the kernel's name, its parameters'
/// names, dtypes and extents, and every declared configuration's label, in order): what a tuning
/// table is keyed on, so that a table made for another kernel or another space is refused.
std::string config_space(const KernelAbi& abi, const std::vector<std::string>& labels);

/// The largest tile of `f` in elements: the work of one CTA, for the launch's heuristic choice
/// among configurations (docs/tuning.md "Without a table").
int64_t largest_tile_elements(const ir::Function& f);

/// What the heuristic counts as one CTA's work (docs/tuning.md "How a launch chooses"): the
/// largest tile's elements, scaled up for a tile product whose operand intensity M*N/(M+N) is
/// below 72 (the tile streams more operand bytes per output than the tensor cores consume at
/// full rate: on the H100, 64x64 tiles ran 2.6x, 64x128 1.7-1.9x and 64x256 1.2-1.3x the time
/// of 128x256 ones on the same problem, 1.05x for 128x128; bench/results/2026-12-07-configs-h100).
int64_t cta_work(const ir::Function& f);

}  // namespace tilec
