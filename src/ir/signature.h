// A kernel's signature in the tile IR: its parameters, dimension symbols, grid and launch
// options, copied out of the checked program by the IR builder so that everything after it
// (passes, lowering, PTX, the header) reads the IR alone and never the AST or the checker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "basic/source.h"
#include "basic/kernel_options.h"
#include "basic/tile_type.h"

namespace tilec::ir {

/// An array parameter: `name: dtype[d0, d1, ...]` (rank 0 for `dtype[]`), a strided view in
/// global memory whose extents are the dimension symbols or constants of `dims`.
struct ArrayParam {
  std::string name;
  DType dtype = DType::F32;
  std::vector<ArrayDim> dims;
  int index = 0;  ///< position among the kernel's parameters
};

/// A kernel parameter: an array or a scalar, in source order.
struct Param {
  std::string name;
  SourceRange range;
  bool is_array = false;
  const ArrayParam* array = nullptr;  ///< arrays only (owned by the Signature)
  DType dtype = DType::F32;           ///< element dtype (arrays) or scalar dtype
};

/// A dimension symbol shared by the array parameters (`n` in `a: f32[n]`): a run-time i64
/// extent, never negative (the launch stub rejects negative extents).
struct DimSymbol {
  std::string name;
  SourceRange first;  ///< its first appearance
};

/// One term of the launch grid: an integer expression over the dimension symbols and the
/// integer scalar parameters, with Python semantics for `//` and `cdiv` (language.md §3).
/// Constants were folded by the checker.
struct GridExpr {
  enum class Kind : uint8_t {
    Const,     ///< value
    Dim,       ///< index into Signature::dims
    Scalar,    ///< index into Signature::params (an integer scalar)
    Neg,       ///< -args[0]
    Add, Sub, Mul, FloorDiv,  ///< args[0] op args[1]
    Cdiv,      ///< ceil(args[0] / args[1])
    Min, Max,  ///< of args[0], args[1]
    NumSms,    ///< the device's multiprocessor count
  };
  Kind kind = Kind::Const;
  int64_t value = 0;
  int index = 0;
  std::vector<GridExpr> args;

  static GridExpr constant(int64_t v) { return GridExpr{Kind::Const, v, 0, {}}; }
  static GridExpr op(Kind k, std::vector<GridExpr> args) { return GridExpr{k, 0, 0, std::move(args)}; }
};

/// The launch options written in `@kernel(...)` (basic/kernel_options.h).
using LaunchOptions = tilec::KernelOptions;

/// A function's part in a split-K configuration (ir/split_k.h): the partials kernel or the
/// reduce kernel of `slices` slices; slices 1 for every other function.
struct SplitRole {
  int slices = 1;
  bool reduce = false;
  int64_t tile_rows = 0;  ///< the accumulator's first extent: rows of the workspace per tile
};

/// Everything about a kernel that is not its body.
struct Signature {
  std::string name;
  std::string doc;        ///< the comment lines right above the decorator, for the header
  SourceRange range;      ///< the `def` (where kernel-wide diagnostics point)
  std::vector<Param> params;
  std::vector<std::unique_ptr<ArrayParam>> arrays;  ///< owned; Param::array points here
  std::vector<DimSymbol> dims;                      ///< order of first appearance
  std::vector<GridExpr> grid;                       ///< 1 to 3 axes
  LaunchOptions options;
  SplitRole split;
  /// For a kernel built from one of a kernel's configurations (driver/configs.cpp): the
  /// config(...) call and "configuration 2 of 'matmul' (BM=64, BN=128)". Later stages' warnings
  /// and errors about the kernel carry it as a note. Empty `text` for other kernels.
  struct ConfigOrigin {
    SourceRange range;
    std::string text;
  } config;

  /// The index of dimension symbol `name` in `dims`, or -1.
  int dim_index(const std::string& name) const;
};

/// The grid expression as text over the kernel's names: "cdiv(n, 1024)", "(M * 2)".
std::string grid_text(const Signature& s, const GridExpr& e);

}  // namespace tilec::ir
