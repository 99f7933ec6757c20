// The lowering steps `pipelines` and `stages` (pipeline.h): which loads of a loop go through
// the cp.async pipeline, and how many stages it gets.
//
// The pattern is the mainloop of a tiled matmul: `for k: a = load(A, (bm, k)); b = load(B,
// (k, bn)); acc = mma(a, b, acc)`. A load qualifies when its tile can be fetched for a later
// iteration before the current one runs: its indices are the induction variable or values from
// before the loop (on the TMA path also scalar arithmetic of those in the body), and its only
// use is an mma operand in the same loop body (through a permute or unit-dimension reshapes,
// which only change how mma reads the tile). The stages hold every
// qualifying load of one iteration; the emitter (ptx/cp_async.cpp) runs the copies
// `stages` (or `stages - 1`) iterations ahead.
#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "codegen/lowering/pipeline.h"
#include "codegen/lowering/pipeline_loads.h"

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

constexpr int64_t kAlign = 1024;  // stage buffers: aligned for the swizzle's XOR on addresses

int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

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

}  // namespace

bool follow_chain(const ir::Op& load, const Users& users, const ir::Block& body, const ir::Block* outer,
                  AsyncLoad& al, std::vector<const ir::Value*>& chain) {
  const ir::Value* v = load.results[0];
  const std::vector<int64_t>& shape = v->type.tile.shape;
  if (shape.size() < 2 || shape.back() < 2) return false;
  // Position of the contiguous (last) load dimension among the non-unit dimensions.
  int non_unit = 0;
  for (int64_t d : shape) non_unit += d > 1;
  if (non_unit != 2) return false;
  int64_t lines = v->type.tile.numel() / shape.back();
  int contiguous = 1;  // among the two non-unit dims, the last one
  std::vector<int> pos(shape.size());  // load dim → current dim
  for (size_t i = 0; i < shape.size(); ++i) pos[i] = int(i);
  chain.push_back(v);
  while (true) {
    std::span<const ir::Op* const> of = users.of(v);
    if (of.size() != 1) return false;
    const ir::Op* u = of[0];
    if (u->parent != &body && u->parent != outer) return false;
    if (u->kind == ir::OpKind::Mma) {
      if (u->operands[2] == v || (u->operands[0] == v) == (u->operands[1] == v)) return false;
      al.mma = u;
      al.operand = u->operands[0] == v ? 0 : 1;
      break;
    }
    if (u->kind != ir::OpKind::Permute && u->kind != ir::OpKind::Reshape) return false;  // a store, ...
    const ir::Value* r = u->results[0];
    if (u->kind == ir::OpKind::Permute) {
      // Which of the two non-unit dims is contiguous after the permute.
      std::vector<int64_t> nu_before, nu_after;
      for (size_t i = 0; i < v->type.tile.shape.size(); ++i)
        if (v->type.tile.shape[i] > 1) nu_before.push_back(int64_t(i));
      for (size_t i = 0; i < u->order.size(); ++i)
        if (r->type.tile.shape[i] > 1) nu_after.push_back(u->order[i]);
      int64_t cont_dim = nu_before[size_t(contiguous)];
      contiguous = nu_after[0] == cont_dim ? 0 : 1;
    } else if (u->kind == ir::OpKind::Reshape) {
      std::vector<int64_t> a, b;
      for (int64_t d : v->type.tile.shape)
        if (d > 1) a.push_back(d);
      for (int64_t d : r->type.tile.shape)
        if (d > 1) b.push_back(d);
      if (a != b) return false;  // only unit dimensions may come or go
    } else {
      return false;
    }
    v = r;
    chain.push_back(v);
  }
  const std::vector<int64_t>& opnd = v->type.tile.shape;
  if (opnd.size() != 2) return false;
  al.load = &load;
  al.esz = dtype_bytes(load.results[0]->type.tile.dtype);
  al.lines = lines;
  al.line_elems = shape.back();
  al.contiguous_dim = contiguous;
  // 16-byte chunks, whole lines of a power-of-two size (the swizzle XORs address bits).
  return is_pow2(al.pitch()) && al.pitch() >= 16 && al.pitch() <= kAlign && al.esz <= 8;
}

int64_t offset_align(const ir::Op& op, const IntegerFacts& facts) {
  return facts.divisor(op.operands.back()) * dtype_bytes(op.results[0]->type.tile.dtype);
}

// cp.async and TMA fill zeros only, and the tile's dimensions are the array's.
Copy copy_kind(const ir::Op& op, const IntegerFacts& facts) {
  if (op.kind != ir::OpKind::Load) return Copy::No;
  if (op.value.i != 0 || op.value.f != 0.0) return Copy::No;  // cp.async fills zeros only
  if (!op.order.empty()) return Copy::No;                        // tile dims are array dims
  if (ir::has_bound(op)) return Copy::No;  // the copies clip at the extents (bound=: registers)
  if (!op.offsets) return Copy::Yes;
  // Element offsets (load(offset=)) may start a line anywhere. cp.async moves 16-byte chunks
  // from 16-byte-aligned addresses (PTX ISA §9.7.9.25.3), and a TMA box's coordinates are
  // elements, but its innermost one must put the box's first element at a multiple of 16 bytes
  // (an illegal instruction otherwise, measured on the H200; Triton's TMA verifier has the same
  // rule): on both paths the facts must show the innermost offset is a multiple of 16 bytes
  // (`k * 64`, a loop variable of step 64, constants), else the load goes through registers.
  // (The other offsets may be anything: the portable path's vectorized variant has strides of
  // a multiple of 16 bytes, the TMA path's tensor maps need them.)
  return offset_align(op, facts) % 16 == 0 ? Copy::Yes : Copy::Unaligned;
}

namespace {

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

std::optional<AffineIndex> affine_index(const ir::Value* v, const ir::Op& loop) {
  const ir::Block& body = *loop.regions[0];
  const ir::Value* iv = body.args[0];
  if (v == iv) return AffineIndex{};
  const ir::Op* d = v->def;
  if (!d || d->parent != &body || v->type.tile.dtype != DType::I64 || !v->type.is_scalar()) return std::nullopt;
  auto constant = [](const ir::Value* x) -> std::optional<int64_t> {
    if (x->def && x->def->kind == ir::OpKind::Constant) return x->def->value.i;
    return std::nullopt;
  };
  // Whether x is computed in the loop (in its body or a block nested in it).
  auto in_loop = [&](const ir::Value* x) {
    for (const ir::Block* b = x->def ? x->def->parent : x->owner; b; b = b->parent ? b->parent->parent : nullptr)
      if (b == &body) return true;
    return false;
  };
  // A value from before the loop: a term of its own; one of the body's: affine itself.
  auto part = [&](const ir::Value* x, int sign) -> std::optional<AffineIndex> {
    if (!in_loop(x)) {
      if (x->type.tile.dtype != DType::I64 || !x->type.is_scalar()) return std::nullopt;
      AffineIndex a;
      a.slope = 0;
      a.terms.push_back({sign, x});
      return a;
    }
    std::optional<AffineIndex> a = affine_index(x, loop);
    if (a && sign < 0) {
      a->slope = -a->slope;
      for (auto& t : a->terms) t.first = -t.first;
    }
    return a;
  };
  auto scaled = [](std::optional<AffineIndex> a, int64_t c) -> std::optional<AffineIndex> {
    if (!a || !a->terms.empty()) return std::nullopt;  // (iv + t) * c: keep it simple
    a->slope *= c;
    return a;
  };
  switch (d->kind) {
    case ir::OpKind::Cast:
      // i64(k) of a narrower integer loop variable: the same values, exactly.
      if (d->operands[0] == iv && is_integer(iv->type.tile.dtype)) return AffineIndex{};
      return std::nullopt;
    case ir::OpKind::Neg: return scaled(affine_index(d->operands[0], loop), -1);
    case ir::OpKind::Shl: {
      std::optional<int64_t> c = constant(d->operands[1]);
      if (!c || *c < 0 || *c > 32) return std::nullopt;
      return scaled(affine_index(d->operands[0], loop), int64_t(1) << *c);
    }
    case ir::OpKind::Add:
    case ir::OpKind::Sub: {
      std::optional<AffineIndex> a = part(d->operands[0], 1), b = part(d->operands[1], d->kind == ir::OpKind::Add ? 1 : -1);
      if (!a || !b) return std::nullopt;
      a->slope += b->slope;
      a->terms.insert(a->terms.end(), b->terms.begin(), b->terms.end());
      if (a->slope == 0) return std::nullopt;  // does not move with the loop
      return a;
    }
    case ir::OpKind::Mul: {
      for (int i = 0; i < 2; ++i) {
        std::optional<int64_t> c = constant(d->operands[size_t(1 - i)]);
        if (!c || *c == 0 || *c > (int64_t(1) << 32) || *c < -(int64_t(1) << 32)) continue;
        return scaled(affine_index(d->operands[size_t(i)], loop), *c);
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

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
      p.stage_bytes += align_up(al.bytes(), kAlign);
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

namespace {

// The last mma of a pipelined loop's body when it is the body's last reader of the stage and
// sits at the top level of the body; null otherwise (Pipeline::sync_mma).
const ir::Op* late_sync_mma(const ir::Op& loop, const LoweredKernel& k) {
  auto reads_stage = [&](const ir::Op& op) {
    for (const ir::Value* v : op.operands)
      if (k.async_load(v)) return true;
    return false;
  };
  const ir::Op* last = nullptr;
  bool nested = false;
  for (const auto& op : loop.regions[0]->ops) {
    if (reads_stage(*op)) last = op.get();
    for (const auto& r : op->regions)
      ir::walk(*r, [&](ir::Op& inner) { nested = nested || reads_stage(inner); });
  }
  return !nested && last && last->kind == ir::OpKind::Mma ? last : nullptr;
}

}  // namespace

void finish_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit) {
  // Stages: as asked, else as many as fit (2 to 4) beside the conversion buffer in half the
  // limit. If some loop's two stages do not fit, nothing is pipelined (the vectorized variant
  // then stages every mma operand, like the general one).
  k.pipeline_offset = align_up(k.conversion_smem_vectorized, kAlign);
  int64_t room = smem_limit - k.pipeline_offset;
  for (Pipeline& p : k.pipelines) {
    // Accumulators of more than 64 registers per thread leave room for one CTA per SM (of
    // 65536 registers): its stages may take all of the shared memory.
    int64_t acc_regs = 0;
    for (const AsyncLoad& al : p.loads) {
      const ir::Value* acc = al.mma->operands[2];
      acc_regs = std::max<int64_t>(acc_regs, acc->type.tile.numel() * std::max(4, dtype_bytes(acc->type.tile.dtype)) / 4 / k.threads());
    }
    int64_t budget = acc_regs > 64 ? smem_limit : smem_limit / 2;
    int s = num_stages;
    if (s == 0) s = int(std::clamp<int64_t>((budget - k.pipeline_offset) / p.stage_bytes, 2, 4));
    while (s > 2 && s * p.stage_bytes > room) --s;
    if (s * p.stage_bytes > room) {
      if (num_stages)
        k.warnings.push_back({Warning::NumStages, p.loop->loc,
                              fmt::format("num_stages={}: two stages of {} bytes do not fit in the {} bytes of shared "
                                          "memory per CTA left beside {} bytes for layout conversions; this loop's "
                                          "loads are not pipelined",
                                          num_stages, p.stage_bytes, room, k.pipeline_offset)});
      k.pipelines.clear();
      k.async_values.clear();
      k.conversion_smem_vectorized = k.conversion_smem;
      k.pipeline_offset = 0;
      return;
    }
    if (num_stages && s < num_stages)
      k.warnings.push_back({Warning::NumStages, p.loop->loc,
                            fmt::format("num_stages={}: only {} stages of {} bytes fit in the {} bytes of shared "
                                        "memory per CTA left beside {} bytes for layout conversions; this loop runs {}",
                                        num_stages, s, p.stage_bytes, room, k.pipeline_offset, s)});
    p.stages = s;
    p.sync_mma = late_sync_mma(*p.loop, k);
  }
}

const Pipeline* LoweredKernel::pipeline(const ir::Op* loop) const {
  for (const Pipeline& p : pipelines)
    if (p.loop == loop) return &p;
  return nullptr;
}

std::string unaligned_text(const UnalignedLoad& u) {
  const ir::Value* inner = u.load->operands.back();
  std::string what = "innermost offset";
  if (inner->def && inner->def->loc.valid())
    what += fmt::format(" (the expression at column {})", inner->def->loc.begin.col);
  else if (!inner->name.empty())
    what += " (" + inner->name + ")";
  else if (inner->owner && inner->owner->parent && inner->owner->parent->kind == ir::OpKind::For)
    what += fmt::format(" (the variable of the loop at line {})", inner->owner->parent->loc.begin.line);
  return fmt::format("the load at line {}, whose {} is known to be a multiple of {} byte{} but not of 16: {} "
                     "must start at a multiple of 16 bytes along its innermost dimension (language.md §7.2.1)",
                     u.load->loc.begin.line, what, u.align, u.align == 1 ? "" : "s",
                     code_path(u.path).copy_engine);
}

const LoweredKernel::UnalignedLoad* LoweredKernel::unaligned_load(const ir::Value* v) const {
  for (const UnalignedLoad& u : unaligned_loads)
    if (std::find(u.chain.begin(), u.chain.end(), v) != u.chain.end()) return &u;
  return nullptr;
}

const AsyncLoad* LoweredKernel::async_load(const ir::Value* v) const {
  auto it = async_values.find(v);
  return it == async_values.end() ? nullptr : it->second;
}

int64_t Pipeline::resident_bytes() const {
  int64_t n = 0;
  for (const AsyncLoad& al : resident) n = std::max(n, al.offset + align_up(al.bytes(), kAlign));
  return n;
}

int LoweredKernel::num_stages() const {
  int stages = 1;
  for (const Pipeline& p : pipelines) stages = std::max(stages, p.stages);
  return stages;
}

Layout LoweredKernel::accumulator_layout(const ir::Op& mma) const {
  if (plan && plan->own_mma(*this, mma)) return plan->own_accumulator_layout(*this, mma);
  const ir::Value* acc = mma.operands[2];
  return mma_layout(acc->type.tile.shape, acc->type.tile.dtype == DType::F64 ? 8 : 16, num_warps);
}

int64_t LoweredKernel::shared_bytes() const {
  if (plan) return plan->shared_bytes(*this);
  int64_t stages = 0;
  for (const Pipeline& p : pipelines) stages = std::max(stages, p.stages * p.stage_bytes);
  return std::max(conversion_smem, stages ? pipeline_offset + stages : conversion_smem_vectorized);
}

}  // namespace tilec::codegen
