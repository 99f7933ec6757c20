// dce: removes pure operations whose results nobody uses, including those whose only users are
// removed, and unused results of nothing else.
#include <vector>

#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

// One walk from the last op to the first (reverse program order, an op's regions before the op
// itself). Every use of a value comes after its definition in program order, so when the walk
// reaches an op, each of its users has already been kept or removed and the use counts are
// final: one walk removes whole chains of dead ops, which a forward sweep repeated until nothing
// changes would take once per link.
class Dce {
 public:
  explicit Dce(Function& f) : uses_(f.values.size()) {
    walk(f.body, [&](Op& op) {
      for (const Value* v : op.operands) ++uses_[v->id];
    });
  }

  // Removes the dead ops of `b`; true when every op left in it is pure or a yield (so that a
  // `for` or `if` around it is pure when its own kind is: is_pure without walking again).
  bool sweep(Block& b) {
    bool pure_block = true;
    for (auto it = b.ops.end(); it != b.ops.begin();) {
      --it;
      Op& op = **it;
      bool pure = is_pure_kind(op.kind);
      for (auto& r : op.regions) pure = sweep(*r) && pure;
      bool dead = pure;
      for (const Value* r : op.results) dead = dead && uses_[r->id] == 0;
      if (dead) {
        release(op);
        it = b.ops.erase(it);
        continue;
      }
      pure_block = pure_block && (pure || op.kind == OpKind::Yield);
    }
    return pure_block;
  }

 private:
  // `op` and the ops of its regions go away: so do their uses.
  void release(Op& op) {
    for (const Value* v : op.operands) --uses_[v->id];
    for (auto& r : op.regions)
      for (auto& inner : r->ops) release(*inner);
  }

  std::vector<int> uses_;  ///< by Value::id
};

}  // namespace

void eliminate_dead_code(Function& f) { Dce(f).sweep(f.body); }

}  // namespace tilec::ir
