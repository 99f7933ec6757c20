// licm: moves pure operations whose operands are all defined outside a `for` loop to just
// before the loop (innermost loops first, so invariants climb as far as they can).
#include <set>

#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

// Values defined inside `b` (results of its ops and nested ops, and block arguments).
void defined_in(Block& b, std::set<const Value*>& out) {
  for (const Value* a : b.args) out.insert(a);
  walk(b, [&](Op& op) {
    for (const Value* r : op.results) out.insert(r);
    for (auto& reg : op.regions)
      for (const Value* a : reg->args) out.insert(a);
  });
}

void hoist_in(Block& b) {
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) {
    Op& loop = **it;
    for (auto& r : loop.regions) hoist_in(*r);
    if (loop.kind != OpKind::For) continue;
    Block& body = *loop.regions[0];
    bool moved = true;
    while (moved) {
      moved = false;
      std::set<const Value*> inside;
      defined_in(body, inside);
      for (auto op = body.ops.begin(); op != body.ops.end(); ++op) {
        Op& o = **op;
        if (!is_pure(o) || !o.regions.empty() || o.kind == OpKind::Load || o.kind == OpKind::Yield) continue;
        bool invariant = true;
        for (const Value* v : o.operands) invariant = invariant && !inside.count(v);
        if (!invariant) continue;
        std::unique_ptr<Op> owned = std::move(*op);
        body.ops.erase(op);
        owned->parent = &b;
        b.ops.insert(it, std::move(owned));
        moved = true;
        break;
      }
    }
  }
}

}  // namespace

void hoist_loop_invariants(Function& f) { hoist_in(f.body); }

}  // namespace tilec::ir
