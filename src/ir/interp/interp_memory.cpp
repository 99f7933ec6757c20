// The interpreter's memory ops (language.md §7.2, §8.1-8.3): load and store at tile indices or
// element offsets, with padding and dropped out-of-bounds elements; gather, scatter and the
// atomics at element indices, masked. Elements are visited in row-major order, so a scatter
// or atomic that names one position twice takes the last value (the GPU's choice is
// unspecified: generated tests never do it, or never read the old values of atomics).
#include "ir/interp/interp_ops.h"
#include "ir/interp/numerics.h"

namespace tilec::interp {
namespace {

using ir::OpKind;

// The linear position in `a` of array coordinates `c`, or -1 when one is out of bounds.
int64_t position(const HostArray& a, const std::vector<__int128>& c) {
  int64_t p = 0;
  for (size_t d = 0; d < c.size(); ++d) {
    if (c[d] < 0 || c[d] >= a.extents[d]) return -1;
    p = p * a.extents[d] + int64_t(c[d]);
  }
  return p;
}

// Load and Store: for each element of the tile, its array coordinates. The view's axis k is
// array axis order[k] (identity when `order` is empty); the tile starts at index × shape, or
// at the offsets themselves. `idx` holds the indices, then, with bound=, one bound per array
// axis: a coordinate at or past its bound is out of bounds, as one past the extent is.
std::vector<int64_t> tile_positions(const ir::Op& op, const HostArray& a, const std::vector<int64_t>& shape,
                                    const std::vector<const Tile*>& idx) {
  size_t rank = shape.size();
  std::vector<__int128> start(rank);
  for (size_t k = 0; k < rank; ++k) {
    __int128 i = int_value(idx[k]->v[0], idx[k]->dtype);
    start[k] = op.offsets ? i : i * shape[k];
  }
  bool bounded = ir::has_bound(op);
  std::vector<int64_t> out(size_t(TileType{DType::I32, shape}.numel()));
  std::vector<__int128> c(rank);
  for (size_t e = 0; e < out.size(); ++e) {
    std::vector<int64_t> el = unravel(int64_t(e), shape);
    for (size_t k = 0; k < rank; ++k) c[op.order.empty() ? k : size_t(op.order[k])] = start[k] + el[k];
    out[e] = position(a, c);
    for (size_t d = 0; bounded && d < rank; ++d)
      if (c[d] >= int_value(idx[rank + d]->v[0], idx[rank + d]->dtype)) out[e] = -1;
  }
  return out;
}

// Gather, Scatter, Atomic: the element positions of the broadcast index tiles, -1 where an
// index is out of range or the mask is off.
std::vector<int64_t> element_positions(const ir::Op& op, const HostArray& a, const std::vector<const Tile*>& in,
                                       size_t n) {
  size_t first = 1 + size_t(ir::element_values(op)), rank = a.extents.size();
  std::vector<int64_t> out(n);
  std::vector<__int128> c(rank);
  for (size_t e = 0; e < out.size(); ++e) {
    for (size_t k = 0; k < rank; ++k) c[k] = int_value(in[first + k]->v[e], in[first + k]->dtype);
    out[e] = position(a, c);
    if (ir::has_mask(op) && !in.back()->v[e].i) out[e] = -1;
  }
  return out;
}

// The new value of an atomic at a position holding `old`.
Scalar atomic_update(ir::AtomicOp k, DType t, const Scalar& old, const Scalar& x, const Scalar* desired) {
  bool unspecified = false;
  switch (k) {
    case ir::AtomicOp::Add: return binary(OpKind::Add, t, old, x, tilec::Op::Eq, unspecified);
    case ir::AtomicOp::Max: return binary(OpKind::Max, t, old, x, tilec::Op::Eq, unspecified);
    case ir::AtomicOp::Min: return binary(OpKind::Min, t, old, x, tilec::Op::Eq, unspecified);
    case ir::AtomicOp::And: return binary(OpKind::And, t, old, x, tilec::Op::Eq, unspecified);
    case ir::AtomicOp::Or: return binary(OpKind::Or, t, old, x, tilec::Op::Eq, unspecified);
    case ir::AtomicOp::Xor: return binary(OpKind::Xor, t, old, x, tilec::Op::Eq, unspecified);
    case ir::AtomicOp::Xchg: return x;
    case ir::AtomicOp::Cas:  // bit patterns compared (§7.2.5)
      return to_bits(old, t) == to_bits(x, t) ? *desired : old;
  }
  return old;
}

}  // namespace

bool eval_memory_op(const ir::Op& op, const std::vector<const Tile*>& in, Tile& out, Memory& mem) {
  switch (op.kind) {
    case OpKind::Load: {
      HostArray& a = mem.array(op.operands[0]);
      std::vector<const Tile*> idx(in.begin() + 1, in.end());
      std::vector<int64_t> pos = tile_positions(op, a, out.shape, idx);
      for (size_t e = 0; e < pos.size(); ++e) out.v[e] = pos[e] < 0 ? op.value : a.data[size_t(pos[e])];
      return true;
    }
    case OpKind::Store: {
      HostArray& a = mem.array(op.operands[0]);
      std::vector<const Tile*> idx(in.begin() + 2, in.end());
      std::vector<int64_t> pos = tile_positions(op, a, in[1]->shape, idx);
      for (size_t e = 0; e < pos.size(); ++e)
        if (pos[e] >= 0) a.data[size_t(pos[e])] = in[1]->v[e];
      return true;
    }
    case OpKind::Gather: {
      HostArray& a = mem.array(op.operands[0]);
      std::vector<int64_t> pos = element_positions(op, a, in, out.v.size());
      for (size_t e = 0; e < pos.size(); ++e) out.v[e] = pos[e] < 0 ? op.value : a.data[size_t(pos[e])];
      return true;
    }
    case OpKind::Scatter: {
      HostArray& a = mem.array(op.operands[0]);
      std::vector<int64_t> pos = element_positions(op, a, in, in[1]->v.size());
      for (size_t e = 0; e < pos.size(); ++e)
        if (pos[e] >= 0) a.data[size_t(pos[e])] = in[1]->v[e];
      return true;
    }
    case OpKind::Atomic: {
      HostArray& a = mem.array(op.operands[0]);
      std::vector<int64_t> pos = element_positions(op, a, in, out.v.size());
      bool cas = op.atomic == ir::AtomicOp::Cas;
      for (size_t e = 0; e < pos.size(); ++e) {
        // A masked-off or out-of-range element reads nothing: its result stays 0.
        if (pos[e] < 0) continue;
        Scalar& cell = a.data[size_t(pos[e])];
        out.v[e] = cell;
        cell = atomic_update(op.atomic, a.dtype, cell, in[1]->v[e], cas ? &in[2]->v[e] : nullptr);
      }
      return true;
    }
    default: return false;
  }
}

}  // namespace tilec::interp
