// Tile types, compile-time scalars and array dimensions: the vocabulary the checker, the IR and
// code generation share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "basic/dtype.h"

namespace tilec {

/// A tile type: a dtype and a static shape (every dimension a power of two, at most 2^24
/// elements, language.md §4). Rank 0 is a scalar.
struct TileType {
  DType dtype = DType::I32;
  std::vector<int64_t> shape;

  bool is_scalar() const { return shape.empty(); }
  int rank() const { return int(shape.size()); }
  /// Number of elements (1 for a scalar).
  int64_t numel() const;
  /// "f32" for a scalar, "tile<128x64xf16>" otherwise.
  std::string str() const;
  bool operator==(const TileType& o) const { return dtype == o.dtype && shape == o.shape; }
  bool operator!=(const TileType& o) const { return !(*this == o); }
};

/// "(128, 64)"; "()" for a scalar. Used in diagnostics.
std::string shape_str(const std::vector<int64_t>& shape);

/// A compile-time scalar. Integers are held wrapped to their dtype's width (sign-extended for
/// signed dtypes, zero-extended for unsigned, 0/1 for bool); floats are rounded to their dtype.
struct Scalar {
  int64_t i = 0;
  double f = 0;
};

/// An array dimension: a runtime symbol (i64 extent) or a constant.
struct ArrayDim {
  std::string symbol;  ///< empty for a constant dimension
  int64_t constant = 0;
};

}  // namespace tilec
