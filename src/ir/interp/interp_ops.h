// Internal to the interpreter: the op families, each in its own file, called by the
// control-flow walker (interp.cpp).
#pragma once

#include <string>
#include <vector>

#include "ir/interp/interp.h"

namespace tilec::interp {

/// Row-major strides of `shape` (in elements).
std::vector<int64_t> strides_of(const std::vector<int64_t>& shape);
/// The multi-index of linear position `i` in `shape`.
std::vector<int64_t> unravel(int64_t i, const std::vector<int64_t>& shape);
/// The value of an integer scalar as a wide integer (u64 zero-extended).
__int128 int_value(const Scalar& s, DType t);
/// An empty tile of `t`'s dtype and shape (elements zero).
Tile make_tile(const ir::Type& t);

/// What the op handlers share: the arrays by parameter position, and the run's flags.
struct Memory {
  std::vector<Arg>* args = nullptr;
  bool unspecified = false;
  HostArray& array(const ir::Value* v) { return (*args)[size_t(v->type.array->index)].array; }
};

/// Elementwise ops, casts and shape ops (interp_shape.cpp): Constant ... Fma, Cast, Bitcast,
/// Iota, Splat, Broadcast, Reshape, ConvertLayout, Permute, Cat, Extract. Returns false when
/// `op` is none of these.
bool eval_value_op(const ir::Op& op, const std::vector<const Tile*>& in, Tile& out, Memory& mem);

/// Reduce, Scan, Histogram, Mma (interp_reduce.cpp). Returns false for other ops.
bool eval_reduce_op(const ir::Op& op, const std::vector<const Tile*>& in, Tile& out);

/// Load, Store, Gather, Scatter, Atomic (interp_memory.cpp); `in[i]` is null for the array
/// operand. Returns false for other ops; `out` is set for ops with a result.
bool eval_memory_op(const ir::Op& op, const std::vector<const Tile*>& in, Tile& out, Memory& mem);

}  // namespace tilec::interp
