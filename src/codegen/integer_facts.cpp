// Facts about integer values (integer_facts.h).
#include "codegen/integer_facts.h"

#include <algorithm>


namespace tilec::codegen {
namespace {

constexpr int64_t kMaxDivisor = int64_t(1) << 30;

// The largest power of two dividing n (kMaxDivisor for 0).
int64_t low_bit(int64_t n) {
  if (n == 0) return kMaxDivisor;
  uint64_t u = uint64_t(n);
  return int64_t(std::min<uint64_t>(u & (~u + 1), uint64_t(kMaxDivisor)));
}

// The operand of v's defining cast when that cast widens an integer (the value is kept: no
// wrap), else null.
const ir::Value* widened_from(const ir::Value* v) {
  const ir::Op* d = v->def;
  if (!d || d->kind != ir::OpKind::Cast || !is_integer(d->operands[0]->type.tile.dtype)) return nullptr;
  return dtype_bits(d->dtype) >= dtype_bits(d->operands[0]->type.tile.dtype) ? d->operands[0] : nullptr;
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

bool IntegerFacts::nonneg(const ir::Value* v) const {
  if (v->type.is_array) return false;
  if (is_unsigned_int(v->type.tile.dtype)) return true;
  if (const ir::Value* w = widened_from(v)) return nonneg(w);  // narrowing casts may wrap
  const ir::Op* d = v->def;
  if (!d) return ir::dimension_index(*k_.fn, v) >= 0;
  if (d->kind == ir::OpKind::Constant) return d->value.i >= 0;
  return d->kind == ir::OpKind::BlockId;
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
    case ir::OpKind::Add:
    case ir::OpKind::Sub:
    case ir::OpKind::Min: return std::min(operand(0), operand(1));
    case ir::OpKind::Mul: return std::min(operand(0) * operand(1), kMaxDivisor);
    default: return 1;
  }
}

}  // namespace tilec::codegen
