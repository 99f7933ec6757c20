// schedule-loads: moves each tile `load` up its block to just after the last op it depends
// on, so that independent loads are in flight together. In layernorm the weight and bias
// loads follow two CTA-wide reductions; each reduction ends in a barrier, which ptxas does not
// move loads across, so written in program order their latency is paid after the statistics
// instead of under the row's load.
//
// Loads keep their relative order. A load moves above pure ops, asserts and prints (tile loads are bounds-masked,
// so reading early is safe even where an assert would have stopped the kernel). It stops at
// the definition of an operand, at anything that writes memory (store, scatter, atomic: the
// arrays may alias) and at any op with regions: hoisting above a loop would hold the loaded
// registers through the whole loop (a matmul's bias across its K loop).
#include "ir/passes/passes.h"

namespace tilec::ir {
namespace {

// Whether a load may move above `op`.
bool load_may_cross(const Op& op, const Op& load) {
  if (!op.regions.empty() || is_terminator(op.kind)) return false;
  switch (op.kind) {
    case OpKind::Store:
    case OpKind::Scatter:
    case OpKind::Atomic: return false;
    default: break;
  }
  for (const Value* r : op.results)
    for (const Value* v : load.operands)
      if (r == v) return false;
  return true;
}

void schedule_block(Block& b) {
  for (auto it = b.ops.begin(); it != b.ops.end();) {
    auto next = std::next(it);
    for (auto& r : (*it)->regions) schedule_block(*r);
    if ((*it)->kind == OpKind::Load) {
      // Loads stay in their order: one never passes an earlier one.
      auto pos = it;
      while (pos != b.ops.begin() && (*std::prev(pos))->kind != OpKind::Load &&
             load_may_cross(**std::prev(pos), **it))
        --pos;
      if (pos != it) b.ops.splice(pos, b.ops, it);
    }
    it = next;
  }
}

}  // namespace

void schedule_loads(Function& f) { schedule_block(f.body); }

}  // namespace tilec::ir
