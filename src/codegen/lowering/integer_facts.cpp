// Facts about integer values (integer_facts.h).
#include "codegen/lowering/integer_facts.h"

#include <algorithm>
#include <bit>

#include "codegen/lowering/vector_access.h"

namespace tilec::codegen {
namespace {

constexpr int64_t kMaxDivisor = int64_t(1) << 30;

// The largest power of two dividing n (kMaxDivisor for 0).
int64_t low_bit(int64_t n) {
  if (n == 0) return kMaxDivisor;
  uint64_t u = uint64_t(n);
  return int64_t(std::min<uint64_t>(u & (~u + 1), uint64_t(kMaxDivisor)));
}

// The operand of v's defining cast when that cast widens an integer into more bits, or into
// as many of the same signedness (the value is kept, or its sign bit is the unsigned result's
// top bit: v is unsigned), else null. u32 -> i32 is not one: 2^31 and above wrap negative.
const ir::Value* widened_from(const ir::Value* v) {
  const ir::Op* d = v->def;
  if (!d || d->kind != ir::OpKind::Cast || !is_integer(d->operands[0]->type.tile.dtype)) return nullptr;
  DType from = d->operands[0]->type.tile.dtype;
  int to_bits = dtype_bits(d->dtype), from_bits = dtype_bits(from);
  bool keeps = to_bits > from_bits || (to_bits == from_bits && (is_unsigned_int(from) == is_unsigned_int(d->dtype) ||
                                                                 is_unsigned_int(d->dtype)));
  return keeps ? d->operands[0] : nullptr;
}

// The value of a constant integer scalar or splat of one when it is >= 0 (a shift count, a
// divisor), else -1.
int64_t nonneg_constant(const ir::Value* v) {
  const ir::Op* d = v->def;
  while (d && (d->kind == ir::OpKind::Splat || d->kind == ir::OpKind::Broadcast)) d = d->operands[0]->def;
  return d && d->kind == ir::OpKind::Constant && d->value.i >= 0 ? d->value.i : -1;
}

}  // namespace

IntegerFacts::IntegerFacts(const LoweredKernel& k, bool vectorized)
    : IntegerFacts(k, vectorized ? array_vector_bytes(k) : std::map<const ir::ArrayParam*, int>{}) {}

IntegerFacts::IntegerFacts(const LoweredKernel& k, const std::map<const ir::ArrayParam*, int>& vector_bytes) : k_(k) {
  for (const auto& [array, bytes] : vector_bytes) {
    if (array->dims.empty() || array->dims.back().symbol.empty()) continue;
    int esz = array->dtype == DType::Bool ? 1 : dtype_bytes(array->dtype);
    if (bytes <= esz || bytes % esz) continue;
    int64_t& d = dims_[array->dims.back().symbol];
    d = std::max<int64_t>(d, bytes / esz);  // every array's condition holds at once
  }
}

int64_t IntegerFacts::divisor(const ir::Value* v) const { return divisor(v, 0); }

bool IntegerFacts::nonneg(const ir::Value* v) const { return sign_known(v, true, 0); }

bool IntegerFacts::fits_u32(const ir::Value* v) const {
  if (v->type.is_array || !is_integer(v->type.tile.dtype)) return false;
  DType d = v->type.tile.dtype;
  if (dtype_bits(d) <= 32) return is_unsigned_int(d) || nonneg(v);
  const ir::Value* w = widened_from(v);  // 64 bits: widened from a value that fits
  return w && dtype_bits(w->type.tile.dtype) <= 32 && fits_u32(w);
}

bool IntegerFacts::sign_known(const ir::Value* v, bool want_nonneg, int depth) const {
  // Non-positive means in [-(2^(bits-1) - 1), 0]: its negation cannot wrap.
  if (depth > 32 || v->type.is_array || !is_integer(v->type.tile.dtype)) return false;
  DType t = v->type.tile.dtype;
  if (is_unsigned_int(t)) return want_nonneg;
  if (want_nonneg)
    if (const ir::Value* w = widened_from(v)) return sign_known(w, true, depth + 1);  // narrowing casts may wrap
  const ir::Op* d = v->def;
  if (!d) return want_nonneg && ir::dimension_index(*k_.fn, v) >= 0;
  auto operand = [&](int i, bool nonneg) { return sign_known(d->operands[size_t(i)], nonneg, depth + 1); };
  auto positive_constant = [&](int i) {
    const ir::Op* c = d->operands[size_t(i)]->def;
    return c && c->kind == ir::OpKind::Constant && c->value.i > 0;
  };
  int bits = dtype_bits(t);
  switch (d->kind) {
    case ir::OpKind::Constant:
      return want_nonneg ? d->value.i >= 0 : d->value.i <= 0 && (bits == 64 ? d->value.i != INT64_MIN : d->value.i > -(int64_t(1) << (bits - 1)));
    case ir::OpKind::BlockId: return want_nonneg;
    case ir::OpKind::Splat:
    case ir::OpKind::Broadcast:
    case ir::OpKind::Reshape:
    case ir::OpKind::ConvertLayout: return operand(0, want_nonneg);
    // -x: cdiv(a, c) is -((-a) // c) (the checker's lowering of cdiv).
    case ir::OpKind::Neg: return operand(0, !want_nonneg);
    // x // c for a constant c > 0 keeps x's sign and shrinks it.
    case ir::OpKind::FloorDiv: return positive_constant(1) && operand(0, want_nonneg);
    // Python's x % c for c > 0 is in [0, c).
    case ir::OpKind::Mod: return want_nonneg && positive_constant(1);
    case ir::OpKind::Min: return want_nonneg ? operand(0, true) && operand(1, true) : operand(0, false) || operand(1, false);
    case ir::OpKind::Max: return want_nonneg ? operand(0, true) || operand(1, true) : operand(0, false) && operand(1, false);
    default: return false;
  }
}

bool IntegerFacts::below_extent(const ir::Value* v, const std::string& symbol) const {
  if (symbol.empty()) return false;
  while (const ir::Value* w = widened_from(v)) v = w;
  if (!v->def || v->def->kind != ir::OpKind::BlockId) return false;
  const ir::Signature& sig = k_.fn->sig;
  size_t axis = size_t(v->def->axis);
  return axis < sig.grid.size() && sig.grid[axis].kind == ir::GridExpr::Kind::Dim &&
         sig.dims[size_t(sig.grid[axis].index)].name == symbol;
}

int64_t IntegerFacts::divisor(const ir::Value* v, int depth) const {
  if (!v || v->type.is_array || !is_integer(v->type.tile.dtype) || depth > 32) return 1;
  const ir::Op* d = v->def;
  const ir::Op* loop = v->owner ? v->owner->parent : nullptr;
  if (!d && loop && loop->kind == ir::OpKind::For && v == v->owner->args[0]) {
    // A for loop's induction variable: its lower bound plus multiples of its step.
    return std::min(divisor(loop->operands[0], depth + 1), divisor(loop->operands[2], depth + 1));
  }
  if (!d) {
    // A kernel argument: dimension extents are named after their symbol.
    if (ir::dimension_index(*k_.fn, v) < 0) return 1;
    auto it = dims_.find(v->name);
    return it == dims_.end() ? 1 : it->second;
  }
  auto operand = [&](int i) { return divisor(d->operands[size_t(i)], depth + 1); };
  switch (d->kind) {
    case ir::OpKind::Constant: return low_bit(d->value.i);
    case ir::OpKind::Cast: {
      // Integer to integer: wrapping to a narrower type keeps divisors below 2^bits.
      DType from = d->operands[0]->type.tile.dtype;
      if (!is_integer(from)) return 1;
      return std::min(operand(0), int64_t(1) << std::min(30, dtype_bits(d->dtype) - 1));
    }
    case ir::OpKind::Splat:
    case ir::OpKind::Broadcast:
    case ir::OpKind::Reshape:
    case ir::OpKind::ConvertLayout: return operand(0);
    case ir::OpKind::Max:
      // max(n, c) with n >= 0 and a constant c <= 0 is n (the clamps of canonicalize.cpp).
      for (int i = 0; i < 2; ++i) {
        const ir::Op* c = d->operands[size_t(1 - i)]->def;
        if (c && c->kind == ir::OpKind::Constant && c->value.i <= 0 && nonneg(d->operands[size_t(i)]))
          return operand(i);
      }
      return std::min(operand(0), operand(1));
    case ir::OpKind::Sub: {
      // x - x % c for a constant c > 0 (an align-down) is c * (x // c): a multiple of c's
      // divisor as well as of the smaller one of its operands.
      const ir::Op* m = d->operands[1]->def;
      if (m && m->kind == ir::OpKind::Mod && m->operands[0] == d->operands[0] && nonneg_constant(m->operands[1]) > 0)
        return std::max(low_bit(nonneg_constant(m->operands[1])), std::min(operand(0), operand(1)));
      return std::min(operand(0), operand(1));
    }
    case ir::OpKind::Add:
    case ir::OpKind::Min: return std::min(operand(0), operand(1));
    case ir::OpKind::Mul: return std::min(operand(0) * operand(1), kMaxDivisor);
    // The bits below a divisor of either operand are zero in `x & y` (`x & -16`: an align-down);
    // in `x | y` and `x ^ y`, those below the smaller one.
    case ir::OpKind::And: return std::max(operand(0), operand(1));
    case ir::OpKind::Or:
    case ir::OpKind::Xor: return std::min(operand(0), operand(1));
    case ir::OpKind::Mod: {
      // x % y is x - y * (x // y); x % 0 is unspecified (language.md §5.1): nothing known.
      const ir::Op* y = d->operands[1]->def;
      if (y && y->kind == ir::OpKind::Constant && y->value.i == 0) return 1;
      return std::min(operand(0), operand(1));
    }
    case ir::OpKind::Neg: return operand(0);
    case ir::OpKind::Shl: {
      // x << c multiplies by 2^c; a count of the width or more gives 0 (language.md §5.4), and a
      // count not known keeps x's low zero bits. Wrapping keeps divisors below 2^bits.
      int bits = dtype_bits(v->type.tile.dtype);
      int64_t c = nonneg_constant(d->operands[1]);
      if (c >= bits) return kMaxDivisor;
      int64_t cap = int64_t(1) << std::min(30, bits - 1);
      return c < 0 ? operand(0) : std::min({operand(0) << c, cap, kMaxDivisor});
    }
    case ir::OpKind::Shr:
    case ir::OpKind::FloorDiv: {
      // x >> c and x // 2^c (floor, so an arithmetic shift for signed x): the low zero bits of x
      // move down by c.
      int64_t c = nonneg_constant(d->operands[1]);
      if (d->kind == ir::OpKind::FloorDiv) c = c > 0 && (c & (c - 1)) == 0 ? std::countr_zero(uint64_t(c)) : -1;
      if (c < 0 || c >= dtype_bits(v->type.tile.dtype)) return 1;
      return std::max<int64_t>(1, operand(0) >> c);
    }
    default: return 1;
  }
}

}  // namespace tilec::codegen
