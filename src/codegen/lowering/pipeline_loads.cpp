// The tests a tile load passes to go through a pipeline's shared memory (pipeline_loads.h),
// which the step `pipelines` (pipelines.cpp) and an arch-specific path's plan (its resident
// tiles, PathPlan::plan_loop) apply alike.
#include "codegen/lowering/pipeline_loads.h"

namespace tilec::codegen {
namespace {

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

bool follow_chain(const ir::Op& load, const ir::Users& users, const ir::Block& body, const ir::Block* outer,
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
  return is_pow2(al.pitch()) && al.pitch() >= 16 && al.pitch() <= kStageAlign && al.esz <= 8;
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

}  // namespace tilec::codegen
