// licm: moves pure operations whose operands are all defined outside a `for` loop to just
// before the loop (innermost loops first, so invariants climb as far as they can).
#include <unordered_set>

#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

// Whether licm may move `op` out of a loop on its own (not a load, which may observe the
// loop's stores, nor control flow).
bool movable(const Op& op) {
  return op.regions.empty() && op.kind != OpKind::Load && op.kind != OpKind::Yield && is_pure(op);
}

// One pass over the loop body in order: an op is invariant when no operand is defined in the
// body, counting only the ops that stay (an op that uses one that moved may move after it). The
// ops move in body order, as hoisting the first invariant op again and again would move them,
// without looking at the body once per moved op.
void hoist_from(Block& body, Block& b, std::list<std::unique_ptr<Op>>::iterator loop) {
  std::unordered_set<const Value*> inside(body.args.begin(), body.args.end());
  for (auto op = body.ops.begin(); op != body.ops.end();) {
    Op& o = **op;
    bool invariant = movable(o);
    for (const Value* v : o.operands) invariant = invariant && !inside.count(v);
    if (!invariant) {
      // Only its results: what its regions define is not visible to the ops after it.
      inside.insert(o.results.begin(), o.results.end());
      ++op;
      continue;
    }
    std::unique_ptr<Op> owned = std::move(*op);
    op = body.ops.erase(op);
    owned->parent = &b;
    b.ops.insert(loop, std::move(owned));
  }
}

void hoist_in(Block& b) {
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) {
    Op& loop = **it;
    for (auto& r : loop.regions) hoist_in(*r);
    if (loop.kind == OpKind::For) hoist_from(*loop.regions[0], b, it);
  }
}

}  // namespace

void hoist_loop_invariants(Function& f) { hoist_in(f.body); }

}  // namespace tilec::ir
