// Tile type and shape text.
#include "basic/tile_type.h"

namespace tilec {

int64_t TileType::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string TileType::str() const {
  if (shape.empty()) return std::string(dtype_name(dtype));
  std::string s = "tile<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + std::string(dtype_name(dtype)) + ">";
}

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) s += ",";
  return s + ")";
}

}  // namespace tilec
