// dce: removes pure operations whose results nobody uses (innermost first, repeated until
// nothing changes), and unused results of nothing else.
#include <set>

#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

void collect_uses(Block& b, std::set<const Value*>& used) {
  walk(b, [&](Op& op) {
    for (const Value* v : op.operands) used.insert(v);
  });
}

bool sweep(Block& b, const std::set<const Value*>& used) {
  bool changed = false;
  for (auto it = b.ops.begin(); it != b.ops.end();) {
    Op& op = **it;
    for (auto& r : op.regions) changed = sweep(*r, used) || changed;
    bool dead = is_pure(op) && op.kind != OpKind::Yield;
    for (const Value* r : op.results) dead = dead && !used.count(r);
    if (dead) {
      it = b.ops.erase(it);
      changed = true;
    } else {
      ++it;
    }
  }
  return changed;
}

}  // namespace

void eliminate_dead_code(Function& f) {
  for (;;) {
    std::set<const Value*> used;
    collect_uses(f.body, used);
    if (!sweep(f.body, used)) return;
  }
}

}  // namespace tilec::ir
