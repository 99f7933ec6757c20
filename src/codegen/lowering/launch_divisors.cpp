// The lowering step `launch-divisors` (launch_divisors.h): integer // and % by a
// value the launch stub can compute on the host become a multiply-high and two shifts by a
// magic number it passes beside the divisor (Granlund & Montgomery, "Division by invariant
// integers using multiplication", PLDI 1994, Fig. 4.1; the header's tilec_divisor_magic).
//
// Why: a division on the GPU is about 20 SASS instructions whose reciprocal goes through the
// float pipe and back (I2F, MUFU.RCP, F2I; a 64-bit one a subroutine), and a kernel that splits
// bid() into a row and a column by a run-time count pays it on every CTA before its first load.
// On the H200 that was 0.16 us per launch of samples/silu_gate.tile (one CTA), and the magic
// number passed by hand took it away and made 1024x4096 1.22x Triton's kernel instead of 1.09x
// (bench/results/2026-12-03-lead13-h200.md).
#include <map>
#include <set>
#include <vector>

#include "codegen/launch/entry_params.h"
#include "codegen/launch/host_expr.h"
#include "codegen/lowering/integer_facts.h"
#include "codegen/lowering/launch_divisors.h"
#include "codegen/lowering/limits.h"
#include "ir/passes/passes.h"

namespace tilec::codegen {
namespace {

// The scalar a tile operand is made of (through splats, broadcasts, reshapes and layout
// conversions), or the operand itself.
const ir::Value* scalar_source(const ir::Value* v) {
  while (v->def && (v->def->kind == ir::OpKind::Splat || v->def->kind == ir::OpKind::Broadcast ||
                    v->def->kind == ir::OpKind::Reshape || v->def->kind == ir::OpKind::ConvertLayout))
    v = v->def->operands[0];
  return v;
}

// Whether the divisor `d` (a scalar) may take the magic number: unsigned, or known >= 0. The
// quotient of two values >= 0 counts as >= 0 here (not in IntegerFacts, whose facts guard
// memory accesses): a zero divisor inside makes the outer quotient unspecified anyway.
bool divisor_sign_ok(const IntegerFacts& facts, const ir::Value* d, int depth = 0) {
  if (is_unsigned_int(d->type.tile.dtype) || facts.nonneg(d)) return true;
  const ir::Op* op = d->def;
  return depth < 8 && op && op->kind == ir::OpKind::FloorDiv && facts.nonneg(op->operands[0]) &&
         divisor_sign_ok(facts, op->operands[1], depth + 1);
}

// Whether the dividend `n` is known to be in [0, 2^32): IntegerFacts::fits_u32, or a quotient
// or remainder of such a value by a divisor divisor_sign_ok accepts (at most the dividend; a
// zero divisor makes it unspecified, and so whatever is divided by it).
bool dividend_fits(const IntegerFacts& facts, const ir::Value* n, int depth = 0) {
  if (facts.fits_u32(n)) return true;
  const ir::Op* op = n->def;
  return depth < 8 && op && (op->kind == ir::OpKind::FloorDiv || op->kind == ir::OpKind::Mod) &&
         dividend_fits(facts, scalar_source(op->operands[0]), depth + 1) &&
         divisor_sign_ok(facts, scalar_source(op->operands[1]));
}

// The ops whose results only the divided ops' divisors need, now that the launch stub computes
// those (transitively): the emitter leaves them out. ptxas would drop most of them, but not a
// 64-bit division's branch to its subroutine (H // HK of two extents).
std::set<const ir::Op*> computed_at_launch(const LoweredKernel& k) {
  std::vector<int> uses(k.fn->values.size());  // by Value::id
  std::vector<const ir::Op*> ops;
  ir::walk(k.fn->body, [&](ir::Op& op) {
    ops.push_back(&op);
    for (size_t i = 0; i < op.operands.size(); ++i)
      if (!(i == 1 && k.divided_at_launch.count(&op))) ++uses[op.operands[i]->id];
  });
  // One pass from the last op to the first: every user of a value comes after its definition,
  // so each op's use counts are final when it is reached (whole chains go in one pass).
  std::set<const ir::Op*> dead;
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    const ir::Op& op = **it;
    bool removable = op.regions.empty() && ir::is_pure(op) && op.kind != ir::OpKind::Load &&
                     op.kind != ir::OpKind::Yield && !op.results.empty();
    for (const ir::Value* r : op.results) removable = removable && r->type.is_scalar() && uses[r->id] == 0;
    if (!removable) continue;
    dead.insert(&op);
    for (const ir::Value* v : op.operands) --uses[v->id];
  }
  return dead;
}

}  // namespace

void plan_launch_divisors(LoweredKernel& k) {
  k.launch_divisors.clear();
  k.divided_at_launch.clear();
  IntegerFacts facts(k, false);
  // A divisor is taken while the entry's parameters with it (entry_params.h: the source's, the
  // tensor maps, a persistent grid, the divisors so far) still fit kMaxParamBytes.
  std::vector<DType> divisors;
  auto fits = [&](DType d) {
    divisors.push_back(d);
    bool ok = entry_param_bytes(entry_params(k.fn->sig, size_t(k.tensor_map_params()), k.persistent_grid(),
                                             divisors)) <= kMaxParamBytes;
    if (!ok) divisors.pop_back();
    return ok;
  };
  HostLeaves leaves{[&](int dim) { return k.fn->sig.dims[size_t(dim)].name; },
                    [&](int param) { return k.fn->sig.params[size_t(param)].name; }};
  std::map<const ir::Value*, int> index;
  ir::walk(k.fn->body, [&](ir::Op& op) {
    if (op.kind != ir::OpKind::FloorDiv && op.kind != ir::OpKind::Mod) return;
    DType t = op.operands[0]->type.tile.dtype;
    if (!is_integer(t) || dtype_bits(t) < 32 || !dividend_fits(facts, scalar_source(op.operands[0]))) return;
    const ir::Value* d = scalar_source(op.operands[1]);
    if (!d->type.is_scalar() || (d->def && d->def->kind == ir::OpKind::Constant) || !divisor_sign_ok(facts, d))
      return;
    auto [it, fresh] = index.try_emplace(d, int(k.launch_divisors.size()));
    if (fresh) {
      std::optional<std::string> c = host_c_expr(*k.fn, d, leaves);
      if (!c || !fits(d->type.tile.dtype)) {
        index.erase(it);
        return;
      }
      k.launch_divisors.push_back({d, *c});
    }
    k.divided_at_launch[&op] = it->second;
  });
  k.computed_at_launch = computed_at_launch(k);
}

}  // namespace tilec::codegen
