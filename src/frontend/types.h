// What the checker knows about an expression: its kind, tile type and compile-time value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "basic/tile_type.h"

namespace tilec {

struct Stmt;

/// An array parameter of a kernel: `name: dtype[d0, d1, ...]` (rank 0 for `dtype[]`).
struct ArrayParam {
  std::string name;
  DType dtype = DType::F32;
  std::vector<ArrayDim> dims;
  int index = 0;  ///< position among the kernel's parameters
};

/// What an expression denotes after checking.
enum class ValueKind : uint8_t {
  Error,     ///< a diagnostic was already reported; suppresses follow-on errors
  Tile,      ///< a tile or scalar (rank-0 tile)
  Array,     ///< an array parameter (a strided view in global memory)
  Tuple,     ///< a tuple of values
  DTypeVal,  ///< a dtype used as a value (`T = f16`, `astype(f32)`)
  String,    ///< a string literal (assert and print messages)
  None,      ///< `None` (only inside subscripts: `t[:, None]`)
  Function,  ///< a helper function
  Builtin,   ///< a built-in function
  Module,    ///< an imported module
  Range,     ///< the result of range(...) (only as a `for` iterable)
};

/// The checker's description of one expression.
struct Value {
  ValueKind kind = ValueKind::Error;
  TileType tile;                    ///< Tile
  bool weak = false;                ///< Tile: an untyped literal, adopts the other side's dtype
  bool default_padding = false;     ///< Tile: straight from a load() with the default zero padding
  std::optional<Scalar> constant;   ///< Tile (rank 0): value known at compile time
  const ArrayParam* array = nullptr;  ///< Array
  std::vector<Value> elems;         ///< Tuple
  DType dtype = DType::I32;         ///< DTypeVal
  std::string text;                 ///< String text; Function/Builtin/Module name
  const Stmt* func = nullptr;       ///< Function: its `def`
  int builtin = -1;                 ///< Builtin: index into the built-in table

  static Value error() { return Value{}; }
  static Value make_tile(TileType t) {
    Value v;
    v.kind = ValueKind::Tile;
    v.tile = std::move(t);
    return v;
  }
  static Value make_scalar(DType d) { return make_tile(TileType{d, {}}); }
  static Value make_const(DType d, Scalar s, bool weak = false) {
    Value v = make_scalar(d);
    v.constant = s;
    v.weak = weak;
    return v;
  }
  bool is_error() const { return kind == ValueKind::Error; }
  bool is_tile() const { return kind == ValueKind::Tile; }
  bool is_scalar() const { return kind == ValueKind::Tile && tile.is_scalar(); }
  bool is_const() const { return kind == ValueKind::Tile && constant.has_value(); }
  /// The type as printed by --emit=ast ("tile<64x64xf32>", "f32 = 3", "array<f16, 2>").
  std::string str() const;
};

}  // namespace tilec
