// schedule_loads (schedule.h): a backward scan per top-level load over the ops it may pass.
#include "codegen/lowering/schedule.h"

#include <set>

namespace tilec::codegen {
namespace {

// Ops a load may move above: no memory writes, no nested regions, not another load.
bool may_pass(const ir::Op& op) {
  switch (op.kind) {
    case ir::OpKind::Store:
    case ir::OpKind::Scatter:
    case ir::OpKind::Atomic:
    case ir::OpKind::Load:
    case ir::OpKind::Gather: return false;
    default: return op.regions.empty() && !ir::is_terminator(op.kind);
  }
}

// 32-bit registers per thread that tile `t` takes spread over `threads` threads.
int64_t registers(const ir::Type& t, int threads) {
  int64_t per_thread = (t.tile.numel() + threads - 1) / threads;
  return (per_thread * dtype_bytes(t.tile.dtype) + 3) / 4;
}

}  // namespace

void schedule_loads(ir::Function& f, int threads) {
  ir::Block& b = f.body;
  int64_t budget = kEarlyLoadRegisters;
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) {
    if ((*it)->kind != ir::OpKind::Load) continue;
    std::set<const ir::Value*> operands((*it)->operands.begin(), (*it)->operands.end());
    auto to = it;  // the load goes before `to`
    while (to != b.ops.begin()) {
      const ir::Op& prev = **std::prev(to);
      bool defines = false;
      for (const ir::Value* r : prev.results) defines = defines || operands.count(r);
      if (defines || !may_pass(prev)) break;
      --to;
    }
    int64_t cost = registers((*it)->results[0]->type, threads);
    if (to == it || cost > budget) continue;
    budget -= cost;
    b.ops.splice(to, b.ops, it);  // `it` stays valid; the scan resumes after the load's new place
  }
}

}  // namespace tilec::codegen
