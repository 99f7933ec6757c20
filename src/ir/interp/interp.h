// The reference interpreter of the tile IR (GitHub issue 37): runs a kernel on the CPU over host
// arrays, every CTA of its grid in turn, with the language's semantics (docs/language.md §8).
//
// Why the tile IR before lowering and not the AST: the IR is what the optimizer transforms, so
// one interpreter gives the semantics of both the -O0 IR (as built) and the optimized IR; the
// two runs must agree, which checks the optimizer (a metamorphic oracle), and neither depends
// on lowering or PTX emission, which the GPU oracle then checks against these results. The IR
// also has every helper inlined, every broadcast and conversion explicit, so the interpreter
// needs no type rules of its own.
//
// What is exact: integers, and floats up to the ops whose results the language fixes
// (+ - * / sqrt fma, conversions, floor/ceil, min/max, mma and reductions of exact inputs).
// Math functions (exp, log, tanh, ...) are computed in double: compare them with a tolerance.
// Float reductions and scans add in order, rounding after each step; a GPU adds in a tree,
// so results agree exactly only where the sums are exact (small integers, dyadic values).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "basic/tile_type.h"
#include "ir/ir.h"

namespace tilec::interp {

/// A tile value: dtype, static shape, elements in row-major order (numerics.h's Scalar).
struct Tile {
  DType dtype = DType::I32;
  std::vector<int64_t> shape;
  std::vector<Scalar> v;
};

/// An array argument: dense row-major elements with their extents (one per dimension; none
/// for a rank-0 array, which holds one element).
struct HostArray {
  DType dtype = DType::F32;
  std::vector<int64_t> extents;
  std::vector<Scalar> data;
};

/// One kernel argument, by parameter position (ir::Signature::params): an array, or a scalar
/// of the parameter's dtype.
struct Arg {
  HostArray array;  ///< arrays
  Scalar scalar;    ///< scalars
};

/// Launch settings that are not arguments.
struct Options {
  int num_sms = 4;                 ///< what num_sms() returns (in the body and in the grid)
  int64_t max_ctas = 1 << 16;      ///< more CTAs than this is an error (a runaway grid)
  int64_t max_ops = 200'000'000;   ///< ops executed over all CTAs (a while loop that never ends)
  /// Run the CTAs last first. CTAs are unordered (language.md §3.6, "Aliasing"): a CTA that
  /// writes elements another CTA writes too (a store not clipped where it should be) leaves its
  /// values behind in one of the two orders, where the other CTA's run after it hides them.
  bool reverse_ctas = false;
};

/// What a run reports besides the arrays it wrote.
struct Result {
  std::string error;          ///< "" on success; "interp: ..." otherwise (then arrays are partial)
  bool unspecified = false;   ///< a value the language leaves unspecified was computed (x // 0)
  int64_t ctas = 0;           ///< CTAs run
};

/// Runs kernel `f` for every CTA of its grid (bid(0) fastest, then 1, then 2; or the reverse,
/// Options::reverse_ctas) over `args`,
/// which it reads and writes in place. Dimension symbols take the extents of the arrays that
/// name them (arrays disagreeing on a symbol is an error). A grid with a zero extent runs no
/// CTA (§8.11). Never throws for a valid IR; an op it does not know is an error
/// "interp: op X not supported".
Result run(const ir::Function& f, std::vector<Arg>& args, const Options& opts = {});

/// The grid `f` launches with these arguments (1 to 3 extents), or an error in `error`.
std::vector<int64_t> grid(const ir::Function& f, const std::vector<Arg>& args, const Options& opts, std::string& error);

}  // namespace tilec::interp
