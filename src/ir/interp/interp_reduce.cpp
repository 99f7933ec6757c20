// The interpreter's reductions, scans, histogram and mma (language.md §7.8, §7.9, §8.5, §8.6).
// The IR has already cast the operand to the accumulation dtype, so each step rounds to it.
// Sums run in index order; a GPU sums in a tree, so float results agree exactly only for
// exact inputs (the differential tests use small integers and dyadic values).
#include <cmath>

#include "ir/interp/interp_ops.h"
#include "ir/interp/numerics.h"

namespace tilec::interp {
namespace {

using ir::Combine;
using ir::OpKind;

bool is_floating(DType t) { return is_float(t) || is_restricted(t); }

// acc ⊕ x for Sum, Prod, Max, Min (NaN-propagating: binary() does it).
Scalar combine(Combine c, DType t, const Scalar& acc, const Scalar& x) {
  bool unspecified = false;
  OpKind k = c == Combine::Sum ? OpKind::Add : c == Combine::Prod ? OpKind::Mul : c == Combine::Max ? OpKind::Max : OpKind::Min;
  return binary(k, t, acc, x, tilec::Op::Eq, unspecified);
}

// Whether x beats the best so far for argmax/argmin: the first NaN wins for good, else a
// strictly greater (smaller) value, so ties keep the first index (§8.5).
bool better(Combine c, DType t, const Scalar& x, const Scalar& best) {
  if (is_floating(t)) {
    if (std::isnan(best.f)) return false;
    if (std::isnan(x.f)) return true;
    return c == Combine::Argmax ? x.f > best.f : x.f < best.f;
  }
  bool u = is_unsigned_int(t);
  bool gt = u ? uint64_t(x.i) > uint64_t(best.i) : x.i > best.i, lt = u ? uint64_t(x.i) < uint64_t(best.i) : x.i < best.i;
  return c == Combine::Argmax ? gt : lt;
}

void reduce(const ir::Op& op, const Tile& in, Tile& out) {
  // Positions along the axis are `stride` apart; `outer` blocks of `extent * stride` elements.
  int64_t extent = in.shape[size_t(op.axis)], stride = strides_of(in.shape)[size_t(op.axis)];
  bool arg = op.combine == Combine::Argmax || op.combine == Combine::Argmin;
  for (size_t o = 0; o < out.v.size(); ++o) {
    int64_t outer = int64_t(o) / stride, inner = int64_t(o) % stride;
    auto at = [&](int64_t k) -> const Scalar& { return in.v[size_t((outer * extent + k) * stride + inner)]; };
    if (arg) {
      int64_t best = 0;
      for (int64_t k = 1; k < extent; ++k)
        if (better(op.combine, in.dtype, at(k), at(best))) best = k;
      out.v[o] = Scalar{best, 0};
      continue;
    }
    Scalar acc = at(0);
    for (int64_t k = 1; k < extent; ++k) acc = combine(op.combine, in.dtype, acc, at(k));
    out.v[o] = acc;
  }
}

void scan(const ir::Op& op, const Tile& in, Tile& out) {
  int64_t extent = in.shape[size_t(op.axis)], stride = strides_of(in.shape)[size_t(op.axis)];
  int64_t lines = int64_t(in.v.size()) / extent;
  for (int64_t l = 0; l < lines; ++l) {
    int64_t outer = l / stride, inner = l % stride;
    Scalar acc;
    for (int64_t k = 0; k < extent; ++k) {
      size_t p = size_t((outer * extent + k) * stride + inner);
      acc = k == 0 ? in.v[p] : combine(op.combine, in.dtype, acc, in.v[p]);
      out.v[p] = acc;
    }
  }
}

// acc + a @ b: each output is acc plus the exact sum of products (long double holds products
// of 8- and 16-bit floats and of i8 exactly, and the sums of the small values the tests use),
// rounded once to the accumulator's dtype; integers wrap at the accumulator's width.
void mma(const Tile& a, const Tile& b, const Tile& c, Tile& out) {
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  bool integer = !is_floating(c.dtype);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      size_t p = size_t(i * n + j);
      if (integer) {
        uint64_t s = uint64_t(c.v[p].i);
        for (int64_t q = 0; q < k; ++q)
          s += uint64_t(int64_t(int_value(a.v[size_t(i * k + q)], a.dtype)) * int64_t(int_value(b.v[size_t(q * n + j)], b.dtype)));
        out.v[p].i = wrap(int64_t(s), c.dtype);
      } else {
        long double s = c.v[p].f;
        for (int64_t q = 0; q < k; ++q)
          s += as_real(a.v[size_t(i * k + q)], a.dtype) * as_real(b.v[size_t(q * n + j)], b.dtype);
        out.v[p].f = round_to(s, c.dtype);
      }
    }
}

}  // namespace

bool eval_reduce_op(const ir::Op& op, const std::vector<const Tile*>& in, Tile& out) {
  switch (op.kind) {
    case OpKind::Reduce: reduce(op, *in[0], out); return true;
    case OpKind::Scan: scan(op, *in[0], out); return true;
    case OpKind::Mma: mma(*in[0], *in[1], *in[2], out); return true;
    case OpKind::Histogram: {
      // Counts of each value in [0, bins); others (and masked-off elements) are not counted.
      int64_t bins = out.shape[0];
      for (size_t i = 0; i < in[0]->v.size(); ++i) {
        if (in.size() > 1 && !in[1]->v[i].i) continue;
        __int128 x = int_value(in[0]->v[i], in[0]->dtype);
        if (x >= 0 && x < bins) out.v[size_t(x)].i = wrap(out.v[size_t(x)].i + 1, DType::I32);
      }
      return true;
    }
    default: return false;
  }
}

}  // namespace tilec::interp
