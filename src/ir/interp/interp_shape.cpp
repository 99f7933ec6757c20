// The interpreter's value ops: constants, elementwise arithmetic, conversions and the shape
// ops (iota, splat, broadcast, reshape, permute, cat, extract). Elementwise operands have the
// result's shape: the IR makes every broadcast explicit.
#include "ir/interp/interp_ops.h"
#include "ir/interp/numerics.h"

namespace tilec::interp {

using ir::OpKind;

std::vector<int64_t> strides_of(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

std::vector<int64_t> unravel(int64_t i, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = i % shape[d];
    i /= shape[d];
  }
  return idx;
}

__int128 int_value(const Scalar& s, DType t) {
  return is_unsigned_int(t) ? __int128(uint64_t(s.i)) : __int128(s.i);
}

Tile make_tile(const ir::Type& t) {
  Tile out{t.tile.dtype, t.tile.shape, {}};
  out.v.resize(size_t(t.tile.numel()));
  return out;
}

namespace {

// The position in a tile of `shape` of multi-index `idx`.
int64_t ravel(const std::vector<int64_t>& idx, const std::vector<int64_t>& shape) {
  int64_t p = 0;
  for (size_t d = 0; d < shape.size(); ++d) p = p * shape[d] + idx[d];
  return p;
}

bool elementwise(const ir::Op& op, const std::vector<const Tile*>& in, Tile& out, Memory& mem) {
  size_t n = out.v.size();
  // The operands' dtype (a compare's result is bool); null for ops whose first operand is an
  // array, which are not elementwise.
  DType t = in.empty() || !in[0] ? out.dtype : in[0]->dtype;
  if (auto f = ir::math_function(op.kind)) {
    for (size_t i = 0; i < n; ++i) out.v[i] = math(*f, t, in[0]->v[i]);
    return true;
  }
  if (ir::is_unary_elementwise(op.kind)) {
    for (size_t i = 0; i < n; ++i) out.v[i] = unary(op.kind, t, in[0]->v[i]);
    return true;
  }
  if (ir::is_binary_elementwise(op.kind)) {
    for (size_t i = 0; i < n; ++i) out.v[i] = binary(op.kind, t, in[0]->v[i], in[1]->v[i], op.pred, mem.unspecified);
    return true;
  }
  if (op.kind == OpKind::Select) {
    for (size_t i = 0; i < n; ++i) out.v[i] = in[0]->v[i].i ? in[1]->v[i] : in[2]->v[i];
    return true;
  }
  if (op.kind == OpKind::Fma) {
    for (size_t i = 0; i < n; ++i) out.v[i] = fma(t, in[0]->v[i], in[1]->v[i], in[2]->v[i]);
    return true;
  }
  return false;
}

}  // namespace

bool eval_value_op(const ir::Op& op, const std::vector<const Tile*>& in, Tile& out, Memory& mem) {
  size_t n = out.v.size();
  switch (op.kind) {
    case OpKind::Constant:
      for (Scalar& s : out.v) s = op.value;
      return true;
    case OpKind::Iota:
      for (size_t i = 0; i < n; ++i) out.v[i] = convert(Scalar{int64_t(i), 0}, DType::I64, out.dtype);
      return true;
    case OpKind::Splat:
      for (Scalar& s : out.v) s = in[0]->v[0];
      return true;
    case OpKind::Reshape:
    case OpKind::ConvertLayout: out.v = in[0]->v; return true;
    case OpKind::Cast:
      for (size_t i = 0; i < n; ++i) out.v[i] = convert(in[0]->v[i], in[0]->dtype, out.dtype);
      return true;
    case OpKind::Bitcast:
      for (size_t i = 0; i < n; ++i) out.v[i] = from_bits(to_bits(in[0]->v[i], in[0]->dtype), out.dtype);
      return true;
    case OpKind::Broadcast:
      for (size_t i = 0; i < n; ++i) {
        std::vector<int64_t> idx = unravel(int64_t(i), out.shape);
        for (size_t d = 0; d < idx.size(); ++d)
          if (in[0]->shape[d] == 1) idx[d] = 0;
        out.v[i] = in[0]->v[size_t(ravel(idx, in[0]->shape))];
      }
      return true;
    case OpKind::Permute:  // result dim d is operand dim order[d]
      for (size_t i = 0; i < n; ++i) {
        std::vector<int64_t> idx = unravel(int64_t(i), out.shape), src(idx.size());
        for (size_t d = 0; d < idx.size(); ++d) src[size_t(op.order[d])] = idx[d];
        out.v[i] = in[0]->v[size_t(ravel(src, in[0]->shape))];
      }
      return true;
    case OpKind::Cat:  // a, then b along `axis`
      for (size_t i = 0; i < n; ++i) {
        std::vector<int64_t> idx = unravel(int64_t(i), out.shape);
        int64_t half = in[0]->shape[size_t(op.axis)];
        // Which half by the index, not by the operand: `cat(x, x)` has one tile twice.
        bool second = idx[size_t(op.axis)] >= half;
        if (second) idx[size_t(op.axis)] -= half;
        const Tile* src = second ? in[1] : in[0];
        out.v[i] = src->v[size_t(ravel(idx, src->shape))];
      }
      return true;
    case OpKind::Extract:  // the sub-tile of the result's shape at tile index `order`
      for (size_t i = 0; i < n; ++i) {
        std::vector<int64_t> idx = unravel(int64_t(i), out.shape);
        for (size_t d = 0; d < idx.size(); ++d) idx[d] += op.order[d] * out.shape[d];
        out.v[i] = in[0]->v[size_t(ravel(idx, in[0]->shape))];
      }
      return true;
    default: return elementwise(op, in, out, mem);
  }
}

}  // namespace tilec::interp
