// Layout assignment, forward in program order:
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
#include "codegen/lower.h"

#include "codegen/mma_shape.h"
#include "codegen/schedule.h"

#include <algorithm>

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

class Lowering {
 public:
  explicit Lowering(LoweredKernel& k) : k_(k) {}

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

void Lowering::convert_operand(ir::Block& b, std::list<std::unique_ptr<ir::Op>>::iterator it, size_t i,
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

void Lowering::op(ir::Block& b, std::list<std::unique_ptr<ir::Op>>::iterator it) {
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

void Lowering::block(ir::Block& b) {
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) op(b, it);
}

}  // namespace

namespace {

// Warps (0: the compiler's choice), early loads, vector widths, pipelines and layouts of `k`,
// whose fn, target and path are set. The pipelines are planned (plan_pipelines) but not
// finished: their stages are placed by the caller.
void assign(LoweredKernel& k, int num_warps, int num_stages) {
  ir::Function& f = *k.fn;
  pad_mma_operands(f, k.target);
  int64_t largest = 1;
  std::map<std::vector<int64_t>, int> min_bytes;
  ir::walk(f.body, [&](ir::Op& op) {
    for (const ir::Value* r : op.results)
      if (!r->type.is_array) largest = std::max(largest, r->type.tile.numel());
    if (op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store) {
      const ir::Value* t = op.kind == ir::OpKind::Load ? op.results[0] : op.operands[1];
      int bytes = std::max(1, dtype_bytes(t->type.tile.dtype));
      auto [it, fresh] = min_bytes.try_emplace(t->type.tile.shape, bytes);
      if (!fresh) it->second = std::min(it->second, bytes);
    }
  });
  if (num_warps == 0) {
    // About 16 elements per thread for the largest tile, 32 once it has 4096 elements or more,
    // between 1 and 16 warps. Row kernels pay their CTA-wide reductions per warp: on the H200
    // layernorm over 4096 f16 and 8192 bf16 ran 1.0x Triton with 4 and 8 warps (32 elements
    // per thread) and 0.89x / 0.66x with 8 and 16 (bench/results/2026-11-30-session2-h200.md).
    int64_t per_thread = largest >= 4096 ? 32 : 16;
    num_warps = int(std::clamp<int64_t>(largest / (32 * per_thread), 1, 16));
    while (num_warps & (num_warps - 1)) --num_warps;
  }
  k.num_warps = num_warps;
  schedule_loads(f, k.threads());
  for (auto& [shape, bytes] : min_bytes) k.vec[shape] = std::max(1, 16 / bytes);
  plan_pipelines(k, num_stages);
  Lowering low(k);
  for (ir::Value* a : f.body.args)
    if (!a->type.is_array) k.layouts[a] = low.blocked(a->type);
  low.block(f.body);
}

}  // namespace

const char* code_path_name(CodePath p) {
  switch (p) {
    case CodePath::Portable: return "portable";
    case CodePath::TmaWgmma: return "tma_wgmma";
  }
  return "?";
}

LoweredKernel lower_kernel(ir::Function& f, const Target& target, int64_t smem_limit) {
  LoweredKernel k;
  k.fn = &f;
  k.target = target;
  assign(k, f.sig.options.num_warps, f.sig.options.num_stages);
  finish_pipelines(k, f.sig.options.num_stages, smem_limit);
  return k;
}

std::optional<LoweredKernel> lower_tma_wgmma(ir::Function& f, const Target& target, int64_t smem_limit,
                                             std::string& why) {
  if (!target.has_wgmma() || !target.has_tma()) {
    why = target.arch + " has no wgmma";
    return std::nullopt;
  }
  // The warpgroups come from the accumulators of the pipelined mmas (one per 64 rows), so plan
  // once on a copy to find them, then lower for real with that many warps.
  std::unique_ptr<ir::Function> scratch = ir::clone(f);
  LoweredKernel probe;
  probe.fn = scratch.get();
  probe.target = target;
  probe.path = CodePath::TmaWgmma;
  pad_mma_operands(*scratch, target);
  plan_pipelines(probe, f.sig.options.num_stages);
  int warpgroups = 0;
  if (!wgmma_plan_ok(probe, warpgroups, why)) return std::nullopt;
  LoweredKernel k;
  k.fn = &f;
  k.target = target;
  k.path = CodePath::TmaWgmma;
  assign(k, 4 * warpgroups, f.sig.options.num_stages);
  int again = 0;
  if (!wgmma_plan_ok(k, again, why) || again != warpgroups) {
    if (why.empty()) why = "the loads were planned differently with " + std::to_string(4 * warpgroups) + " warps";
    return std::nullopt;
  }
  // num_stages sizes the portable path's cp.async ring (two CTAs usually share an SM there);
  // the tma_wgmma CTA has the SM's shared memory to itself and takes as many stages as fit.
  finish_tma_pipelines(k, 0, smem_limit);
  if (k.pipelines.empty()) {
    why = "two stages of the loop's tiles do not fit in shared memory";
    return std::nullopt;
  }
  plan_specialization(k);
  return k;
}

std::string layouts_text(const LoweredKernel& k);

std::vector<const ir::Value*> values_in_program_order(const LoweredKernel& k) {
  std::vector<const ir::Value*> order(k.fn->body.args.begin(), k.fn->body.args.end());
  ir::walk(k.fn->body, [&](ir::Op& op) {
    order.insert(order.end(), op.results.begin(), op.results.end());
    for (const auto& r : op.regions) order.insert(order.end(), r->args.begin(), r->args.end());
  });
  return order;
}

std::string print_lowered(const LoweredKernel& k) {
  if (k.path == CodePath::TmaWgmma) {
    std::string out = fmt::format("// kernel {}, {} path for {}: {} warpgroups ({} threads per CTA), {} bytes of shared memory for layout conversions\n",
                                  k.fn->name, code_path_name(k.path), k.target.arch, k.launch_threads() / 128,
                                  k.launch_threads(), k.conversion_smem_vectorized);
    if (k.spec.specialized()) {
      out += fmt::format("// warp-specialized: producer warpgroup 0 ({}) repeats {} scalar ops before the loop and "
                         "issues its TMA copies; consumer warpgroups 1-{} ({}) run the body\n",
                         k.spec.producer_registers ? fmt::format("setmaxnreg {}", k.spec.producer_registers)
                                                   : "its entry registers",
                         k.spec.producer_ops.size(),
                         k.num_warps / 4,
                         k.spec.consumer_registers ? fmt::format("setmaxnreg {}", k.spec.consumer_registers)
                                                   : "their entry registers");
    } else {
      out += "// inline TMA producer (thread 0): " + k.spec.why_inline + "\n";
    }
    for (const Pipeline& p : k.pipelines) {
      out += fmt::format("// TMA pipeline: {} stages of {} bytes at shared offset {}, mbarriers at {};", p.stages,
                         p.stage_bytes, k.pipeline_offset, k.pipeline_offset + p.barriers);
      for (const AsyncLoad& al : p.loads) {
        bool kmajor = al.contiguous_dim == (al.operand == 0 ? 1 : 0);
        out += fmt::format("{} wgmma operand {} from a {}x{} tile ({} boxes of 128-byte lines, {}-major)",
                           &al == &p.loads[0] ? "" : ";", al.operand == 0 ? "a" : "b", al.lines, al.line_elems,
                           al.boxes(), kmajor ? "K" : al.operand == 0 ? "M" : "N");
      }
      out += "\n";
    }
    return out + layouts_text(k) + ir::print(*k.fn);
  }
  std::string out = fmt::format("// kernel {}: {} warps ({} threads per CTA), {} bytes of shared memory for layout conversions\n",
                                k.fn->name, k.num_warps, k.threads(), k.conversion_smem);
  for (const Pipeline& p : k.pipelines) {
    out += fmt::format("// cp.async pipeline (vectorized variant): {} stages of {} bytes at shared offset {};", p.stages,
                       p.stage_bytes, k.pipeline_offset);
    for (const AsyncLoad& al : p.loads)
      out += fmt::format("{} mma operand {} from a {}x{} tile ({}-byte lines{})", &al == &p.loads[0] ? "" : ";", al.operand == 0 ? "a" : "b", al.lines,
                         al.line_elems, al.pitch(), al.contiguous_dim == 0 ? ", transposed" : "");
    out += "\n";
  }
  return out + layouts_text(k) + ir::print(*k.fn);
}

std::string layouts_text(const LoweredKernel& k) {
  std::string out;
  std::map<std::string, std::string> seen;
  for (const ir::Value* v : values_in_program_order(k)) {
    auto it = k.layouts.find(v);
    if (it == k.layouts.end() || it->second.shape.empty()) continue;
    const Layout& l = it->second;
    std::string shape;
    for (int64_t d : l.shape) shape += (shape.empty() ? "" : "x") + std::to_string(d);
    std::string desc = l.str() + fmt::format(" ({} registers per thread{})", l.regs_per_thread(), l.replicated() ? ", replicated" : "");
    std::string& slot = seen[shape];
    if (slot.find(desc) == std::string::npos) slot += (slot.empty() ? "" : "; ") + desc;
  }
  for (const auto& [shape, desc] : seen) out += "// layouts of " + shape + " tiles: " + desc + "\n";
  return out;
}

int vector_access_bytes(const ir::Op& op, const Layout& l) {
  const ir::Value* tile = op.kind == ir::OpKind::Load ? op.results[0] : op.operands[1];
  const ir::ArrayParam* arr = op.operands[0]->type.array;
  int rank = int(arr->dims.size());
  if (tile->type.is_scalar() || rank == 0) return 0;
  int last = op.order.empty() ? rank - 1 : int(op.order[size_t(rank - 1)]);
  if (last != rank - 1) return 0;
  DType d = arr->dtype;
  int esz = d == DType::Bool ? 1 : dtype_bytes(d);
  int piece = std::min(l.spt(l.rank() - 1) * esz, 16);
  bool vectorizable = piece >= 4 && (esz >= 4 || d == DType::F16 || d == DType::BF16);
  return vectorizable ? piece : 0;
}

std::map<const ir::ArrayParam*, int> array_vector_bytes(const LoweredKernel& low) {
  std::map<const ir::ArrayParam*, int> vector_bytes;
  ir::walk(low.fn->body, [&](ir::Op& op) {
    // Tile loads and stores in vectors (not the cp.async loads of a pipeline: those handle
    // vectors that straddle the edge).
    bool async = op.kind == ir::OpKind::Load && low.async_load(op.results[0]);
    if ((op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store) || async) return;
    const ir::Value* tile = op.kind == ir::OpKind::Load ? op.results[0] : op.operands[1];
    if (tile->type.is_scalar()) return;
    int bytes = vector_access_bytes(op, low.layout(tile));
    int& v = vector_bytes[op.operands[0]->type.array];
    v = std::max({v, bytes, 1});
  });
  return vector_bytes;
}

}  // namespace tilec::codegen
