// Layout assignment (the lowering step `layouts`), forward in program order:
//  - loads, iota and other tile sources get the blocked layout of their shape, vectorized for
//    the narrowest dtype that shape is loaded or stored with;
//  - a reduction's result is the slice of its operand's layout (no data moves);
//  - reshapes that only add or drop unit dimensions keep the operand's parent, and a broadcast
//    back to that parent's shape is the parent itself (register-local);
//  - elementwise ops take their first operand's layout; other operands with another layout
//    get a convert_layout op (splats fit any layout and never need one);
//  - loop-carried values keep the layout of their initial value; if results that of the then
//    branch.
// Conversions the emitter cannot do in registers go through shared memory.
#include "codegen/lowering_steps.h"

#include <algorithm>

namespace tilec::codegen {
namespace {

class LayoutAssignment {
 public:
  explicit LayoutAssignment(LoweredKernel& k) : k_(k) {}

  void block(ir::Block& b);

  Layout blocked(const ir::Type& t) const {
    int vec;
    auto it = k_.vec.find(t.tile.shape);
    if (it != k_.vec.end()) vec = it->second;
    else vec = std::max(1, 16 / std::max(4, dtype_bytes(t.tile.dtype)));
    return blocked_layout(t.tile.shape, vec, k_.num_warps);
  }

 private:
  void op(ir::Block& b, std::list<std::unique_ptr<ir::Op>>::iterator it);
  /// Makes `op`'s operand `i` have layout `want`, inserting a convert_layout before `op`.
  void convert_operand(ir::Block& b, std::list<std::unique_ptr<ir::Op>>::iterator it, size_t i, const Layout& want);
  bool is_splat(const ir::Value* v) const { return v->def && v->def->kind == ir::OpKind::Splat; }
  void note_conversion(const ir::Value* src) {
    int64_t bytes = src->type.tile.numel() * std::max(4, dtype_bytes(src->type.tile.dtype));
    need_smem(bytes);
  }
  /// Both variants need `bytes` of the conversion buffer.
  void need_smem(int64_t bytes) {
    need_general_smem(bytes);
    k_.conversion_smem_vectorized = std::max(k_.conversion_smem_vectorized, bytes);
  }
  /// The general variant needs `bytes` of the conversion buffer, for the op being lowered.
  void need_general_smem(int64_t bytes) {
    if (bytes <= k_.conversion_smem) return;
    k_.conversion_smem = bytes;
    k_.conversion_smem_loc = loc_;
  }

  LoweredKernel& k_;
  std::vector<std::vector<Layout>> loops_;  ///< carried layouts of the enclosing loops
  SourceRange loc_;                         ///< the op being lowered
};

void LayoutAssignment::convert_operand(ir::Block& b, std::list<std::unique_ptr<ir::Op>>::iterator it, size_t i,
                               const Layout& want) {
  ir::Op& op = **it;
  ir::Value* v = op.operands[i];
  if (v->type.is_scalar() || equivalent(k_.layouts.at(v), want, k_.threads())) return;
  if (is_splat(v)) {
    // A splat is one register whatever the layout: re-splat it in the wanted layout.
    ir::Builder bld(*k_.fn, &b);
    bld.set_before(&b, it);
    ir::Op* s = bld.create(ir::OpKind::Splat, op.loc, {v->def->operands[0]}, {v->type});
    s->shape = v->def->shape;
    k_.layouts[s->result()] = want;
    op.operands[i] = s->result();
    return;
  }
  ir::Builder bld(*k_.fn, &b);
  bld.set_before(&b, it);
  if (v->def && v->def->kind == ir::OpKind::Broadcast && !v->def->operands[0]->type.is_scalar()) {
    // Broadcast again, straight into the wanted layout: only the (smaller) operand goes
    // through shared memory (a bias row added to an mma accumulator).
    ir::Value* src = v->def->operands[0];
    ir::Op* bc = bld.create(ir::OpKind::Broadcast, op.loc, {src}, {v->type});
    bc->shape = v->def->shape;
    k_.layouts[bc->result()] = want;
    op.operands[i] = bc->result();
    note_conversion(src);
    return;
  }
  ir::Op* c = bld.create(ir::OpKind::ConvertLayout, op.loc, {v}, {v->type});
  k_.layouts[c->result()] = want;
  op.operands[i] = c->result();
  note_conversion(v);
}

void LayoutAssignment::op(ir::Block& b, std::list<std::unique_ptr<ir::Op>>::iterator it) {
  ir::Op& op = **it;
  loc_ = op.loc;
  using ir::OpKind;
  auto set = [&](const ir::Value* v, const Layout& l) { k_.layouts[v] = l; };
  auto tile_result = [&]() { return !op.results.empty() && !op.results[0]->type.is_array; };
  switch (op.kind) {
    case OpKind::Mma: {
      // The accumulator lives in the mma.sync (or wgmma) fragment layout; a and b are staged
      // through shared memory by the emitter, whatever their layout, unless (vectorized
      // variant) an async load already put them there.
      Layout l = k_.accumulator_layout(op);
      convert_operand(b, it, 2, l);
      set(op.results[0], l);
      need_general_smem(mma_staging_bytes(op));
      int64_t vec = mma_staging_bytes(op, !k_.async_load(op.operands[0]), !k_.async_load(op.operands[1]));
      k_.conversion_smem_vectorized = std::max(k_.conversion_smem_vectorized, vec);
      return;
    }
    case OpKind::Reduce: {
      if (!op.operands[0]->type.is_scalar() && k_.layouts.at(op.operands[0]).kind == Layout::Kind::Mma)
        convert_operand(b, it, 0, blocked(op.operands[0]->type));  // reductions work on blocked layouts
      const Layout& in = k_.layouts.at(op.operands[0]);
      set(op.results[0], op.operands[0]->type.is_scalar() ? blocked(op.results[0]->type) : in.slice(op.axis));
      // Partials of the warps along the axis meet in shared memory (values, then indices).
      int p = in.parent_dim(op.axis);
      if (p >= 0 && in.warps_per_cta[size_t(p)] > 1) {
        int esz = dtype_bits(op.operands[0]->type.tile.dtype) == 64 ? 8 : 4;
        bool arg = op.combine == ir::Combine::Argmax || op.combine == ir::Combine::Argmin;
        int64_t bytes = in.warps_per_cta[size_t(p)] * std::max<int64_t>(1, op.results[0]->type.tile.numel()) *
                        (esz + (arg ? 4 : 0));
        need_smem(bytes);
      }
      return;
    }
    case OpKind::Reshape: {
      Layout out;
      const Layout& in = k_.layouts.at(op.operands[0]);
      if (!op.operands[0]->type.is_scalar() && in.reshape_units(op.results[0]->type.tile.shape, out)) {
        set(op.results[0], out);
      } else {
        set(op.results[0], blocked(op.results[0]->type));
        note_conversion(op.operands[0]);
      }
      return;
    }
    case OpKind::Broadcast: {
      // Back to the parent's shape: the parent layout holds every element where the operand's
      // copies already are.
      const Layout& in = k_.layouts.at(op.operands[0]);
      if (in.pshape() == op.results[0]->type.tile.shape) {
        set(op.results[0], in.parent());
      } else {
        set(op.results[0], blocked(op.results[0]->type));
      }
      if (k_.layouts.at(op.results[0]) != in.parent()) note_conversion(op.operands[0]);
      return;
    }
    case OpKind::Gather:
    case OpKind::Scatter:
    case OpKind::Atomic: {
      // Element-index memory: every tile operand takes the layout of the first index that is
      // not a splat (else of any such operand); so does the result.
      size_t first_index = 1 + size_t(ir::element_values(op));
      std::vector<size_t> order;
      for (size_t i = first_index; i < op.operands.size(); ++i) order.push_back(i);
      for (size_t i = 1; i < first_index; ++i) order.push_back(i);
      const ir::Value* shaped = op.kind == OpKind::Scatter ? op.operands[1] : op.results[0];
      Layout l = blocked(shaped->type);
      for (size_t i : order)
        if (!op.operands[i]->type.is_scalar() && !is_splat(op.operands[i])) {
          l = k_.layouts.at(op.operands[i]);
          break;
        }
      for (size_t i = 1; i < op.operands.size(); ++i) convert_operand(b, it, i, l);
      if (!op.results.empty()) set(op.results[0], l);
      // Only one copy of a replicated element does the atomic; the old value reaches the
      // copies through shared memory.
      if (op.kind == OpKind::Atomic && (shaped->type.is_scalar() || l.replicated()))
        need_smem(shaped->type.tile.numel() * 8);
      return;
    }
    case OpKind::Scan: {
      // A scan keeps its operand's layout; the warps along the axis exchange their totals
      // through shared memory (ptx/scan.cpp), one 8-byte slot per warp, row and repetition.
      // It decomposes blocked layouts only: an mma accumulator is converted first.
      if (!op.operands[0]->type.is_scalar() && k_.layouts.at(op.operands[0]).kind == Layout::Kind::Mma)
        convert_operand(b, it, 0, blocked(op.operands[0]->type));
      const Layout& in = k_.layouts.at(op.operands[0]);
      set(op.results[0], in);
      int p = in.parent_dim(op.axis);
      if (p >= 0 && in.warps_per_cta[size_t(p)] > 1) {
        int64_t extent = op.operands[0]->type.tile.shape[size_t(op.axis)];
        int64_t rows = op.operands[0]->type.tile.numel() / extent;
        int64_t reps = std::max<int64_t>(1, extent / in.parent_cta_tile(p));
        need_smem(rows * reps * in.warps_per_cta[size_t(p)] * 8);
      }
      return;
    }
    case OpKind::Histogram: {
      // The indices keep their layout and the mask takes it; the counts meet in shared memory
      // (ptx/histogram.cpp), one word per bin, and are read back in the result's blocked layout.
      Layout in = op.operands[0]->type.is_scalar() ? blocked(op.operands[0]->type) : k_.layouts.at(op.operands[0]);
      if (op.operands.size() > 1) convert_operand(b, it, 1, in);
      set(op.results[0], blocked(op.results[0]->type));
      need_smem(op.shape[0] * 4);
      return;
    }
    case OpKind::Cat:
      // Both operands go to shared memory in the result's row-major order (ptx/shape.cpp).
      set(op.results[0], blocked(op.results[0]->type));
      note_conversion(op.results[0]);
      return;
    case OpKind::Extract: {
      // The operand goes to shared memory. An extract that keeps some dimensions whole and
      // the others at extent 1 (a row, a column) takes the operand's layout with those
      // dimensions sliced off, like a reduction with keepdims: broadcasting it back to the
      // operand's shape then needs no data movement.
      const ir::Value* src = op.operands[0];
      const std::vector<int64_t>&in_shape = src->type.tile.shape, &out_shape = op.results[0]->type.tile.shape;
      Layout l = k_.layouts.at(src), sliced;
      bool slice = l.kind == Layout::Kind::Blocked;  // mma fragments are not sliced
      for (int d = int(in_shape.size()) - 1; d >= 0 && slice; --d) {
        if (out_shape[size_t(d)] == in_shape[size_t(d)]) continue;
        slice = out_shape[size_t(d)] == 1 && l.parent_dim(d) >= 0;
        if (slice) l = l.slice(d);
      }
      if (slice && l.reshape_units(out_shape, sliced)) set(op.results[0], sliced);
      else set(op.results[0], blocked(op.results[0]->type));
      note_conversion(src);
      return;
    }
    case OpKind::Permute: {
      set(op.results[0], blocked(op.results[0]->type));
      // The operand is staged in shared memory with one word of padding per row.
      const ir::Value* v = op.operands[0];
      int64_t rows = v->type.tile.numel() / std::max<int64_t>(1, v->type.tile.shape.back());
      int64_t bytes = (v->type.tile.numel() + rows) * std::max(4, dtype_bytes(v->type.tile.dtype));
      // In the vectorized variant an async load's permute only changes how mma reads the stage.
      if (k_.async_load(op.results[0])) need_general_smem(bytes);
      else need_smem(bytes);
      return;
    }
    case OpKind::For:
    case OpKind::While: {
      // Carried values keep their initial value's layout; yields, breaks and continues convert.
      bool is_for = op.kind == OpKind::For;
      ir::Block& body = *op.regions[is_for ? 0 : 1];
      size_t first_init = is_for ? 3 : 0, first_arg = is_for ? 1 : 0;
      std::vector<Layout> carried;
      for (size_t i = first_init; i < op.operands.size(); ++i) {
        const ir::Value* init = op.operands[i];
        Layout l = init->type.is_scalar() ? blocked(init->type) : k_.layouts.at(init);
        // An accumulator that starts as a splat (zeros) and is updated by mma stays in the mma
        // layout for the whole loop instead of being converted every iteration.
        const ir::Op& y = *body.ops.back();
        const ir::Value* next = y.kind == OpKind::Yield ? y.operands[i - first_init] : nullptr;
        if (is_splat(init) && next && next->def && next->def->kind == OpKind::Mma) l = k_.accumulator_layout(*next->def);
        carried.push_back(l);
      }
      for (size_t i = 0; i < carried.size(); ++i) {
        set(body.args[i + first_arg], carried[i]);
        set(op.results[i], carried[i]);
        if (!is_for) set(op.regions[0]->args[i], carried[i]);
      }
      if (is_for) set(body.args[0], blocked(body.args[0]->type));
      if (!is_for) block(*op.regions[0]);
      loops_.push_back(carried);
      block(body);
      loops_.pop_back();
      ir::Op& y = *body.ops.back();
      if (y.kind == OpKind::Yield) {
        auto yit = std::prev(body.ops.end());
        for (size_t i = 0; i < y.operands.size(); ++i) convert_operand(body, yit, i, carried[i]);
      }
      return;
    }
    case OpKind::Break:
    case OpKind::Continue:
      for (size_t i = 0; i < op.operands.size(); ++i) convert_operand(b, it, i, loops_.back()[i]);
      return;
    case OpKind::If: {
      block(*op.regions[0]);
      block(*op.regions[1]);
      if (op.results.empty()) return;
      // The results take the layout of the first branch that yields; the other converts.
      ir::Block* yielding[2] = {op.regions[0].get(), op.regions[1].get()};
      std::vector<ir::Block*> ys;
      for (ir::Block* r : yielding)
        if (!r->ops.empty() && r->ops.back()->kind == OpKind::Yield) ys.push_back(r);
      for (size_t i = 0; i < op.results.size(); ++i) {
        const ir::Value* t = ys[0]->ops.back()->operands[i];
        Layout l = t->type.is_scalar() ? blocked(t->type) : k_.layouts.at(t);
        set(op.results[i], l);
        for (size_t k = 1; k < ys.size(); ++k) convert_operand(*ys[k], std::prev(ys[k]->ops.end()), i, l);
      }
      return;
    }
    default: break;
  }
  if (ir::is_elementwise(op.kind)) {
    // The first operand that is not a splat decides; the others are converted to it.
    const Layout* pick = nullptr;
    for (const ir::Value* v : op.operands)
      if (!v->type.is_scalar() && !is_splat(v)) {
        pick = &k_.layouts.at(v);
        break;
      }
    Layout l = pick ? *pick : blocked(op.results[0]->type);
    for (size_t i = 0; i < op.operands.size(); ++i) convert_operand(b, it, i, l);
    set(op.results[0], op.results[0]->type.is_scalar() ? blocked(op.results[0]->type) : l);
    return;
  }
  for (ir::Value* r : op.results)
    if (!r->type.is_array) set(r, blocked(r->type));
  (void)tile_result;
}

void LayoutAssignment::block(ir::Block& b) {
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) op(b, it);
}

}  // namespace

void assign_layouts(LoweredKernel& k) {
  LayoutAssignment low(k);
  for (ir::Value* a : k.fn->body.args)
    if (!a->type.is_array) k.layouts[a] = low.blocked(a->type);
  low.block(k.fn->body);
}

}  // namespace tilec::codegen
