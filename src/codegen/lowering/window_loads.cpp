// Window loads (window_loads.h): a scan of each block in program order that keeps the loads at
// element offsets seen since the last write to memory, and matches each new one against them.
#include "codegen/lowering/window_loads.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ir/users.h"

namespace tilec::codegen {
namespace {

// An integer scalar as root + c: the adds and subtracts of constants that define it peeled off.
struct Affine {
  const ir::Value* root = nullptr;
  int64_t c = 0;
  /// Some peeled add or subtract is narrower than 64 bits and not known to stay in range (it
  /// may wrap).
  bool narrow = false;
};

bool integer_constant(const ir::Value* v, int64_t& out) {
  if (!v->def || v->def->kind != ir::OpKind::Constant || !is_integer(v->def->dtype)) return false;
  out = v->def->value.i;
  return true;
}

// The values a scalar integer can take, when known: constants, block indices (CUDA's grid limits:
// gridDim.x < 2^31, gridDim.y and gridDim.z < 2^16), widening casts, and + - * of known ranges
// whose results fit the dtype (no wrap). Only used to prove that an add or subtract of the
// offsets does not wrap.
struct Range {
  bool known = false;
  int64_t lo = 0, hi = 0;
};

Range range_of(const ir::Value* v, int depth = 0) {
  const ir::Op* d = v->def;
  if (!d || depth > 16 || !v->type.is_scalar() || !is_integer(v->type.tile.dtype)) return {};
  int bits = dtype_bits(v->type.tile.dtype);
  if (d->kind == ir::OpKind::Constant) return {true, d->value.i, d->value.i};
  if (d->kind == ir::OpKind::BlockId) return {true, 0, d->axis == 0 ? INT32_MAX : 65535};
  if (d->kind == ir::OpKind::Cast && is_integer(d->operands[0]->type.tile.dtype) &&
      dtype_bits(d->operands[0]->type.tile.dtype) <= bits && !is_unsigned_int(v->type.tile.dtype))
    return range_of(d->operands[0], depth + 1);
  if (d->kind != ir::OpKind::Add && d->kind != ir::OpKind::Sub && d->kind != ir::OpKind::Mul) return {};
  if (is_unsigned_int(v->type.tile.dtype)) return {};
  Range a = range_of(d->operands[0], depth + 1), b = range_of(d->operands[1], depth + 1);
  if (!a.known || !b.known) return {};
  int64_t c[4];
  bool over = false;
  if (d->kind == ir::OpKind::Mul) {
    over |= __builtin_mul_overflow(a.lo, b.lo, &c[0]) | __builtin_mul_overflow(a.lo, b.hi, &c[1]);
    over |= __builtin_mul_overflow(a.hi, b.lo, &c[2]) | __builtin_mul_overflow(a.hi, b.hi, &c[3]);
  } else if (d->kind == ir::OpKind::Add) {
    over |= __builtin_add_overflow(a.lo, b.lo, &c[0]) | __builtin_add_overflow(a.hi, b.hi, &c[1]);
    c[2] = c[0];
    c[3] = c[1];
  } else {
    over |= __builtin_sub_overflow(a.lo, b.hi, &c[0]) | __builtin_sub_overflow(a.hi, b.lo, &c[1]);
    c[2] = c[0];
    c[3] = c[1];
  }
  if (over) return {};
  Range r{true, *std::min_element(c, c + 4), *std::max_element(c, c + 4)};
  int64_t lim = bits >= 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
  if (r.hi > lim || r.lo < -lim - 1) return {};
  return r;
}

Affine affine(const ir::Value* v) {
  Affine a{v, 0, false};
  for (int depth = 0; depth < 16; ++depth) {
    const ir::Op* d = a.root->def;
    if (!d || (d->kind != ir::OpKind::Add && d->kind != ir::OpKind::Sub) || !a.root->type.is_scalar() ||
        !is_integer(a.root->type.tile.dtype))
      break;
    int64_t k = 0;
    const ir::Value* rest = nullptr;
    if (integer_constant(d->operands[1], k)) {
      rest = d->operands[0];
      if (d->kind == ir::OpKind::Sub && k == INT64_MIN) break;
      if (d->kind == ir::OpKind::Sub) k = -k;
    } else if (d->kind == ir::OpKind::Add && integer_constant(d->operands[0], k)) {
      rest = d->operands[1];
    } else {
      break;
    }
    int64_t sum = 0;
    if (__builtin_add_overflow(a.c, k, &sum)) break;
    a.narrow = a.narrow || (dtype_bits(a.root->type.tile.dtype) < 64 && !range_of(a.root).known);
    a.c = sum;
    a.root = rest;
  }
  return a;
}

// Whether `op` itself writes memory that a load could read (not counting its regions).
bool writes_memory(const ir::Op& op) {
  return op.kind == ir::OpKind::Store || op.kind == ir::OpKind::Scatter || op.kind == ir::OpKind::Atomic;
}

bool same_padding(const Scalar& a, const Scalar& b) { return a.i == b.i && std::memcmp(&a.f, &b.f, sizeof a.f) == 0; }

class Finder {
 public:
  explicit Finder(const LoweredKernel& k) : k_(k), users_(*k.fn) {}

  // Scans `b` and the blocks nested in it; true when one of their ops writes memory (so that
  // each op is looked at once: asking that of each op with regions walked them at every level).
  bool scan(const ir::Block& b) {
    bool writes = false;
    std::vector<const ir::Op*> seen;  // loads at offsets since the last write, in program order
    for (const auto& o : b.ops) {
      bool op_writes = writes_memory(*o);
      for (const auto& r : o->regions) op_writes = scan(*r) || op_writes;
      if (op_writes) seen.clear();
      writes = writes || op_writes;
      if (!candidate(*o)) continue;
      match(*o, seen);
      seen.push_back(o.get());
    }
    return writes;
  }

  std::map<const ir::Op*, WindowLoad> out;

 private:
  // A load at offsets whose tile lives in registers of a blocked layout along whose last axis
  // lanes hold consecutive runs.
  bool candidate(const ir::Op& op) const {
    if (op.kind != ir::OpKind::Load || !op.offsets || ir::has_bound(op) || op.results[0]->type.is_scalar())
      return false;
    const ir::Value* res = op.results[0];
    if (res->type.tile.dtype == DType::Bool || k_.async_load(res)) return false;
    std::span<const ir::Op* const> u = users_.of(res);
    if (u.size() == 1 && (u[0]->kind == ir::OpKind::Mma || u[0]->kind == ir::OpKind::Reshape))
      return false;  // the general variant may stage it for the mma, never defining registers
    const Layout& l = k_.layout(res);
    int last = l.rank() - 1;
    return l.kind == Layout::Kind::Blocked && !l.is_slice() && l.cta_tile(last) <= l.shape[size_t(last)] &&
           l.lanes_along(last) >= 2;
  }

  void match(const ir::Op& w, const std::vector<const ir::Op*>& seen) {
    const ir::Value* res = w.results[0];
    const Layout& l = k_.layout(res);
    size_t rank = w.operands.size() - 1;
    Affine aw = affine(w.operands[rank]);
    const ir::Op* pick = nullptr;
    WindowLoad found;
    for (const ir::Op* b : seen) {
      const ir::Value* bres = b->results[0];
      if (b->operands[0] != w.operands[0] || b->order != w.order || bres->type.tile != res->type.tile ||
          !same_padding(b->value, w.value) || k_.layout(bres) != l)
        continue;
      bool same = true;
      for (size_t j = 1; j < rank; ++j) same = same && b->operands[j] == w.operands[j];
      Affine ab = affine(b->operands[rank]);
      int64_t delta = aw.c - ab.c;
      if (!same || ab.root != aw.root || delta == 0 || delta > l.spt(l.rank() - 1) || -delta > l.spt(l.rank() - 1))
        continue;
      bool window = out.count(b) > 0;
      if (pick && (window || !out.count(pick))) continue;  // keep the earliest non-window base
      pick = b;
      found = WindowLoad{b, delta, aw.narrow || ab.narrow};
    }
    if (pick) out[&w] = found;
  }

  const LoweredKernel& k_;
  ir::Users users_;
};

}  // namespace

std::map<const ir::Op*, WindowLoad> window_loads(const LoweredKernel& k) {
  Finder f(k);
  f.scan(k.fn->body);
  return std::move(f.out);
}

}  // namespace tilec::codegen
