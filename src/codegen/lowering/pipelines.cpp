// The lowering step `pipelines` (pipelines.h): which loads of a loop go through the pipeline of
// its copy engine (cp.async, or an arch-specific path's: TMA).
//
// The pattern is the mainloop of a tiled matmul: `for k: a = load(A, (bm, k)); b = load(B,
// (k, bn)); acc = mma(a, b, acc)`. A load qualifies when its tile can be fetched for a later
// iteration before the current one runs: its indices are the induction variable or values from
// before the loop (on the TMA path also scalar arithmetic of those in the body), and its only
// use is an mma operand in the same loop body (through a permute or unit-dimension reshapes,
// which only change how mma reads the tile). The stages hold every
// qualifying load of one iteration; the emitter (ptx/cp_async.cpp) runs the copies
// `stages` (or `stages - 1`) iterations ahead.
#include "codegen/lowering/pipelines.h"

#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "codegen/lowering/affine_index.h"
#include "codegen/lowering/pipeline_loads.h"

namespace tilec::codegen {
namespace {

using ir::Users;
using UnalignedLoad = LoweredKernel::UnalignedLoad;

bool contains_exit(ir::Block& b) {
  bool found = false;
  ir::walk(b, [&](ir::Op& op) {
    found = found || op.kind == ir::OpKind::Break || op.kind == ir::OpKind::Continue ||
            op.kind == ir::OpKind::Return;
  });
  return found;
}

// Whether `v` is defined in `b` or in a region nested in it (a block argument included).
bool defined_in(const ir::Value* v, const ir::Block& b) {
  for (const ir::Block* home = v->def ? v->def->parent : v->owner; home;
       home = home->parent ? home->parent->parent : nullptr)
    if (home == &b) return true;
  return false;
}

// The async loads of one loop body, or none.
std::vector<AsyncLoad> find_loads(ir::Op& loop, const Users& users, CodePath path, const IntegerFacts& facts,
                                  std::vector<UnalignedLoad>& unaligned) {
  ir::Block& body = *loop.regions[0];
  // An index is the induction variable or a value from before the loop. On the TMA path it may
  // also be computed from those by scalar arithmetic at the top of the body (`k + s`, `k * 64`):
  // the producer computes it again for the iteration it issues (the tma_wgmma path's TmaRing::value_at); on the
  // portable path by i64 +, - and * by constants (affine_index), so that it moves by a constant.
  std::unordered_map<const ir::Value*, bool> known;
  std::function<bool(const ir::Value*)> follows_loop = [&](const ir::Value* v) -> bool {
    if (v == body.args[0] || !defined_in(v, body)) return true;
    const ir::Op* d = v->def;
    // The portable path's copies move by a constant per iteration (ptx/cp_async.cpp).
    if (!code_path(path).any_scalar_index) return affine_index(v, loop).has_value();
    if (!d || d->parent != &body) return false;
    if (auto it = known.find(v); it != known.end()) return it->second;
    bool ok = (d->kind == ir::OpKind::Constant || ir::is_elementwise(d->kind)) && d->regions.empty() &&
              d->results.size() == 1 && v->type.is_scalar();
    for (const ir::Value* o : d->operands) ok = ok && follows_loop(o);
    return known[v] = ok;
  };
  std::vector<AsyncLoad> loads;
  for (auto& op : body.ops) {
    Copy kind = copy_kind(*op, facts);
    if (kind == Copy::No) continue;
    bool indices_ok = true;
    for (size_t i = 1; i < op->operands.size(); ++i) indices_ok = indices_ok && follows_loop(op->operands[i]);
    AsyncLoad al;
    std::vector<const ir::Value*> chain;
    if (!indices_ok || !follow_chain(*op, users, body, nullptr, al, chain)) continue;
    if (kind == Copy::Yes)
      loads.push_back(al);
    else
      unaligned.push_back({path, op.get(), offset_align(*op, facts), chain, al.mma, al.operand});
  }
  return loads;
}

}  // namespace

void plan_pipelines(LoweredKernel& k, int num_stages) {
  k.unaligned_loads.clear();
  if (num_stages == 1) return;  // no pipelining asked for
  std::vector<ir::Op*> loops;
  ir::walk(k.fn->body, [&](ir::Op& op) {
    if (op.kind != ir::OpKind::For) return;
    const ir::Op* step = op.operands[2]->def;
    if (step && step->kind == ir::OpKind::Constant && step->value.i > 0 && !contains_exit(*op.regions[0]))
      loops.push_back(&op);
  });
  if (loops.empty()) return;  // nothing to pipeline: no use lists needed
  Users users(*k.fn);
  std::unordered_set<const ir::Op*> planned;
  // Divisors of offsets from constants and loop variables only: the TMA path's launch checks
  // strides, not extents.
  IntegerFacts facts(k, false);
  for (ir::Op* loop : loops) {
    // Not a loop nested in a pipelined loop: the stages are one region of shared memory.
    bool nested = false;
    for (const ir::Block* b = loop->parent; b && b->parent; b = b->parent->parent) nested = nested || planned.count(b->parent);
    if (nested) continue;
    std::vector<AsyncLoad> loads = find_loads(*loop, users, k.path, facts, k.unaligned_loads);
    if (loads.empty()) continue;
    Pipeline p;
    p.loop = loop;
    for (AsyncLoad& al : loads) {
      al.offset = p.stage_bytes;
      p.stage_bytes += stage_aligned(al.bytes());
    }
    p.loads = std::move(loads);
    if (k.plan) k.plan->plan_loop(k, *loop, p, users, facts);
    planned.insert(loop);
    k.pipelines.push_back(std::move(p));
  }
  for (const Pipeline& p : k.pipelines)
    for (const std::vector<AsyncLoad>* loads : {&p.loads, &p.resident})
      for (const AsyncLoad& al : *loads) {
        std::vector<const ir::Value*> todo{al.load->results[0]};
        while (!todo.empty()) {
          const ir::Value* v = todo.back();
          todo.pop_back();
          k.async_values[v] = &al;
          for (const ir::Op* u : users.of(v))
            if (u->kind != ir::OpKind::Mma) todo.push_back(u->results[0]);
        }
      }
}

}  // namespace tilec::codegen
