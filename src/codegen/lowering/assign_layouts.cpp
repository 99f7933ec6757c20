// Layout assignment (the lowering step `layouts`), forward in program order:
//  - loads, iota and other tile sources get the blocked layout of their shape, vectorized for
//    the narrowest dtype that shape is loaded or stored with; except a load whose value only
//    flows, through single-use casts, unit reshapes and broadcasts, into an elementwise op
//    with an accumulator already in an mma fragment layout (an epilogue's residual tile or
//    scale vector): it is loaded straight into the registers of that layout (or its slice),
//    so nothing is converted through shared memory;
//  - a reduction's result is the slice of its operand's layout (no data moves);
//  - reshapes that only add or drop unit dimensions keep the operand's parent, and a broadcast
//    back to that parent's shape is the parent itself (register-local);
//  - elementwise ops take the layout of their first operand in an mma fragment layout (an
//    accumulator, or a row of one), else of their first operand; other operands with another
//    layout get a convert_layout op (splats fit any layout and never need one);
//  - a value computed only from iota, splats and scalars (a mask made of row and column
//    indices) is computed again in the layout its user needs instead of being converted
//    (rematerialization, as Triton's RemoveLayoutConversions does);
//  - a loop-carried tile takes the layout the loop body gives it (found by dry runs of this
//    assignment, whose changes to the IR are undone: a running row max stays in the
//    accumulator's rows, and an accumulator carried through nested loops in its fragments),
//    its initial value converted once before the loop (a splat: for free);
//    if results take that of the then branch.
// Conversions the emitter cannot do in registers go through shared memory.
#include "codegen/lowering/assign_layouts.h"
#include "codegen/lowering/staging.h"
#include "ir/passes/passes.h"
#include "ir/users.h"

#include <algorithm>
#include <map>
#include <set>

namespace tilec::codegen {
namespace {

// Rematerialization's memos: the (value, layout) pairs a tree holds, and what each was
// computed again as.
using RematSeen = std::vector<std::pair<const ir::Value*, Layout>>;
using RematDone = std::vector<std::pair<std::pair<const ir::Value*, Layout>, ir::Value*>>;

class LayoutAssignment {
 public:
  explicit LayoutAssignment(LoweredKernel& k) : k_(k), users_(*k.fn) {}

  void block(ir::Block& b);
  /// Dry run: layouts are assigned but the IR is left alone (no conversions inserted); the
  /// yields' layouts are recorded as hints for the carried values of the next run.
  void set_dry(bool dry) { dry_ = dry; }
  /// Undoes what a dry run changed: its operand replacements and the ops it inserted.
  void undo();
  /// Layouts the loops' yields had in the last run, per loop op and carried value.
  std::map<const ir::Op*, std::vector<Layout>> yields;
  std::map<const ir::Op*, std::vector<Layout>> hints;

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

  /// Rematerialization (see the file comment): whether `v` can be computed again in layout
  /// `want` by at most `budget` distinct ops (a value used twice in the tree, in one layout,
  /// counts once: `seen`), and the operand layouts its op then needs.
  bool remat_ok(const ir::Value* v, const Layout& want, int& budget, RematSeen& seen) const;
  /// A broadcast `op` of a slice `in` of an mma layout to a 2-D shape the mma layout's warps
  /// also tile: `out` is that mma layout at the result's shape when every thread already
  /// holds the rows (columns) it needs there.
  bool mma_widening(const ir::Op& op, const Layout& in, Layout& out) const;
  bool operand_layouts(const ir::Op& op, const Layout& want, std::vector<Layout>& out) const;
  /// The fragment layout in which the (non-pipelined) load `v` goes straight to its use (see
  /// the file comment), or false.
  bool epilogue_load_layout(const ir::Value* v, Layout& out) const;
  /// The unsliced mma layout `v` has, or will have when it is the result of elementwise ops
  /// (at most `depth` deep) over such a value (op() gives an elementwise op the layout of its
  /// first operand in an mma layout); null otherwise.
  const Layout* accumulator_of(const ir::Value* v, int depth) const;
  /// Computes `v` again in layout `want` before `bld`'s point; `done` holds what this tree has
  /// computed already (each value once per layout).
  ir::Value* remat(ir::Builder& bld, ir::Value* v, const Layout& want, SourceRange loc, RematDone& done);

  /// Creates an op at `bld`'s point (recorded in a dry run, which undo() takes back).
  ir::Op* create(ir::Builder& bld, ir::OpKind kind, SourceRange loc, std::vector<ir::Value*> operands,
                 std::vector<ir::Type> results) {
    ir::Op* o = bld.create(kind, loc, std::move(operands), std::move(results));
    if (dry_) inserted_.push_back(o);
    return o;
  }

  LoweredKernel& k_;
  bool dry_ = false;
  struct Replaced {
    ir::Op* op;
    size_t index;
    ir::Value* old;
  };
  std::vector<Replaced> journal_;
  std::vector<ir::Op*> inserted_;
  std::vector<std::vector<Layout>> loops_;  ///< carried layouts of the enclosing loops
  /// The ops that use each value, in the IR as it was before the assignment (epilogue loads
  /// look ahead through it; later ops are assigned after the load, so it stays accurate).
  ir::Users users_;
  SourceRange loc_;                         ///< the op being lowered
};

void LayoutAssignment::convert_operand(ir::Block& b, std::list<std::unique_ptr<ir::Op>>::iterator it, size_t i,
                               const Layout& want) {
  ir::Op& op = **it;
  ir::Value* v = op.operands[i];
  if (v->type.is_scalar() || equivalent(k_.layouts.at(v), want, k_.threads())) return;
  if (dry_) journal_.push_back({&op, i, v});
  // A mask of three terms (a sliding window's `cols < S`, `rows >= cols`, `rows - cols < W`)
  // is about 40 ops of 1-D and 2-D index arithmetic: cheaper in registers than a round trip
  // through shared memory with a barrier between the warps (and its buffer beside the stages).
  int budget = 64;
  RematSeen seen;
  if (!is_splat(v) && remat_ok(v, want, budget, seen)) {
    ir::Builder bld(*k_.fn, &b);
    bld.set_before(&b, it);
    RematDone done;
    op.operands[i] = remat(bld, v, want, op.loc, done);
    return;
  }
  if (is_splat(v)) {
    // A splat is one register whatever the layout: re-splat it in the wanted layout.
    ir::Builder bld(*k_.fn, &b);
    bld.set_before(&b, it);
    ir::Op* s = create(bld, ir::OpKind::Splat, op.loc, {v->def->operands[0]}, {v->type});
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
    ir::Op* bc = create(bld, ir::OpKind::Broadcast, op.loc, {src}, {v->type});
    bc->shape = v->def->shape;
    k_.layouts[bc->result()] = want;
    op.operands[i] = bc->result();
    note_conversion(src);
    return;
  }
  ir::Op* c = create(bld, ir::OpKind::ConvertLayout, op.loc, {v}, {v->type});
  k_.layouts[c->result()] = want;
  op.operands[i] = c->result();
  note_conversion(v);
}

void LayoutAssignment::undo() {
  for (auto r = journal_.rbegin(); r != journal_.rend(); ++r) r->op->operands[r->index] = r->old;
  for (ir::Op* o : inserted_) {
    auto& ops = o->parent->ops;
    ops.erase(std::find_if(ops.begin(), ops.end(), [&](const auto& x) { return x.get() == o; }));
  }
  journal_.clear();
  inserted_.clear();
}

bool LayoutAssignment::operand_layouts(const ir::Op& op, const Layout& want, std::vector<Layout>& out) const {
  using ir::OpKind;
  out.assign(op.operands.size(), want);
  const std::vector<int64_t>& shape = op.results[0]->type.tile.shape;
  switch (op.kind) {
    case OpKind::Iota:
    case OpKind::Splat: return true;
    case OpKind::Reshape:
      return op.operands[0]->type.is_scalar() || want.reshape_units(op.operands[0]->type.tile.shape, out[0]);
    case OpKind::Broadcast: {
      if (op.operands[0]->type.is_scalar()) return true;
      // The operand's layout: `want` with the broadcast dimensions sliced off, then the unit
      // dimensions put back; broadcasting it to `want` is then register-local.
      const std::vector<int64_t>& src = op.operands[0]->type.tile.shape;
      if (src.size() != shape.size()) return false;
      Layout l = want;
      for (int d = int(shape.size()) - 1; d >= 0; --d)
        if (src[size_t(d)] == 1 && shape[size_t(d)] != 1) {
          if (l.parent_dim(d) < 0) return false;
          l = l.slice(d);
        }
      return l.reshape_units(src, out[0]);
    }
    default:
      if (!ir::is_elementwise(op.kind)) return false;
      for (const ir::Value* o : op.operands)
        if (!o->type.is_scalar() && o->type.tile.shape != shape) return false;
      return true;
  }
}

const Layout* LayoutAssignment::accumulator_of(const ir::Value* v, int depth) const {
  auto l = k_.layouts.find(v);
  if (l != k_.layouts.end())
    return l->second.kind == Layout::Kind::Mma && !l->second.is_slice() ? &l->second : nullptr;
  if (depth == 0 || !v->def || !ir::is_elementwise(v->def->kind)) return nullptr;
  for (const ir::Value* o : v->def->operands)
    if (!o->type.is_scalar() && !is_splat(o) && o->type.tile.shape == v->type.tile.shape)
      if (const Layout* a = accumulator_of(o, depth - 1)) return a;
  return nullptr;
}

bool LayoutAssignment::epilogue_load_layout(const ir::Value* v, Layout& out) const {
  // Forward along the single uses to an elementwise op whose other operand is an accumulator
  // in an mma layout, assigned already (it comes before the load)...
  std::vector<std::pair<const ir::Op*, size_t>> chain;  // (user, operand index of the value)
  const Layout* target = nullptr;
  for (const ir::Value* cur = v; !target && chain.size() < 4;) {
    std::span<const ir::Op* const> u = users_.of(cur);
    if (u.size() != 1) return false;
    const ir::Op& user = *u[0];
    size_t index = size_t(std::find(user.operands.begin(), user.operands.end(), cur) - user.operands.begin());
    if (user.results.size() != 1 || user.results[0]->type.is_scalar() ||
        std::count(user.operands.begin(), user.operands.end(), cur) != 1)
      return false;
    bool shape_op = user.kind == ir::OpKind::Reshape || user.kind == ir::OpKind::Broadcast;
    if (!shape_op && !ir::is_elementwise(user.kind)) return false;
    chain.push_back({&user, index});
    // The first other operand that is a tile (not a splat) decides: an unsliced accumulator
    // layout ends the search, anything else stops it (the op would not take the fragments).
    for (const ir::Value* o : user.operands) {
      if (shape_op || o == cur || o->type.is_scalar() || is_splat(o)) continue;
      target = accumulator_of(o, 4);
      if (!target) return false;
      break;
    }
    cur = user.results[0];
  }
  if (!target) return false;
  // ...then back to the load: the layout each op of the chain needs of its operand.
  Layout want = *target;
  for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
    std::vector<Layout> wants;
    if (!operand_layouts(*c->first, want, wants)) return false;
    want = wants[c->second];
  }
  out = want;
  return true;
}

bool LayoutAssignment::mma_widening(const ir::Op& op, const Layout& in, Layout& out) const {
  const std::vector<int64_t>& shape = op.results[0]->type.tile.shape;
  const std::vector<int64_t>& src = op.operands[0]->type.tile.shape;
  if (in.kind != Layout::Kind::Mma || shape.size() != 2 || src.size() != 2) return false;
  out = in.parent();
  out.shape = shape;
  for (int p = 0; p < 2; ++p)
    if (shape[size_t(p)] % (out.parent_cta_tile(p) * (p == 0 ? out.warps_m : out.warps_n))) return false;
  // Register-local: every element a thread holds in `out` has its source in the same thread,
  // at the same coordinates except along a unit dimension of the source (coordinate 0). Keys
  // row * 2^32 + column tell coordinates apart (both are below 2^31).
  const int64_t row = int64_t(1) << 32;
  return register_local(in, {row, 1}, out, {src[0] == 1 ? 0 : row, src[1] == 1 ? 0 : 1}, k_.threads(), nullptr);
}

bool LayoutAssignment::remat_ok(const ir::Value* v, const Layout& want, int& budget, RematSeen& seen) const {
  if (v->type.is_scalar()) return true;
  for (const auto& [value, layout] : seen)
    if (value == v && layout == want) return true;
  if (!v->def || v->def->results.size() != 1 || !v->def->regions.empty() || --budget < 0) return false;
  seen.push_back({v, want});
  std::vector<Layout> wants;
  if (!operand_layouts(*v->def, want, wants)) return false;
  for (size_t i = 0; i < v->def->operands.size(); ++i)
    if (!remat_ok(v->def->operands[i], wants[i], budget, seen)) return false;
  return true;
}

ir::Value* LayoutAssignment::remat(ir::Builder& bld, ir::Value* v, const Layout& want, SourceRange loc,
                                   RematDone& done) {
  if (v->type.is_scalar()) return v;
  for (const auto& [key, value] : done)
    if (key.first == v && key.second == want) return value;
  const ir::Op& d = *v->def;
  std::vector<Layout> wants;
  operand_layouts(d, want, wants);
  std::vector<ir::Value*> operands;
  for (size_t i = 0; i < d.operands.size(); ++i) operands.push_back(remat(bld, d.operands[i], wants[i], loc, done));
  ir::Op* c = create(bld, d.kind, loc, operands, {v->type});
  ir::copy_attributes(d, *c);
  k_.layouts[c->result()] = want;
  done.push_back({{v, want}, c->result()});
  return c->result();
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
      std::optional<Layout> a_layout = k_.plan ? k_.plan->register_a_layout(k_, op) : std::nullopt;
      if (a_layout) {
        // The path's A from registers (wgmma's: the fragment layout of m64nNk16's accumulator,
        // which is also its A fragment layout); a value from outside the loop (Q of an
        // attention kernel) is converted once, where it is defined.
        const Layout& want = *a_layout;
        ir::Value* a = op.operands[0];
        if (a->def && a->def->parent != &b && !dry_ && !equivalent(k_.layouts.at(a), want, k_.threads())) {
          ir::Block& home = *a->def->parent;
          auto at = std::find_if(home.ops.begin(), home.ops.end(), [&](const auto& o) { return o.get() == a->def; });
          ir::Builder bld(*k_.fn, &home);
          bld.set_before(&home, std::next(at));
          ir::Op* c = bld.create(ir::OpKind::ConvertLayout, a->def->loc, {a}, {a->type});
          k_.layouts[c->result()] = want;
          op.operands[0] = c->result();
          note_conversion(a);
        } else {
          convert_operand(b, it, 0, want);
        }
        return;
      }
      need_general_smem(general_mma_staging_bytes(op));
      int64_t vec = mma_staging_bytes(op, !k_.async_load(op.operands[0]), !k_.async_load(op.operands[1]));
      k_.conversion_smem_vectorized = std::max(k_.conversion_smem_vectorized, vec);
      return;
    }
    case OpKind::Reduce: {
      // Reductions work on blocked layouts and on whole (unsliced) mma fragments.
      if (!op.operands[0]->type.is_scalar()) {
        const Layout& l = k_.layouts.at(op.operands[0]);
        if (l.kind == Layout::Kind::Mma && (l.is_slice() || l.rank() != 2))
          convert_operand(b, it, 0, blocked(op.operands[0]->type));
      }
      const Layout& in = k_.layouts.at(op.operands[0]);
      set(op.results[0], op.operands[0]->type.is_scalar() ? blocked(op.results[0]->type) : in.slice(op.axis));
      // Partials of the warps along the axis meet in shared memory (values, then indices).
      int p = in.parent_dim(op.axis);
      if (p >= 0 && in.warps_along(p) > 1) {
        int esz = dtype_bits(op.operands[0]->type.tile.dtype) == 64 ? 8 : 4;
        bool arg = op.combine == ir::Combine::Argmax || op.combine == ir::Combine::Argmin;
        int64_t bytes = in.warps_along(p) * std::max<int64_t>(1, op.results[0]->type.tile.numel()) *
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
      Layout widened;
      if (in.pshape() == op.results[0]->type.tile.shape) {
        set(op.results[0], in.parent());
      } else if (mma_widening(op, in, widened)) {
        // A row of one accumulator broadcast to another's width (attention's rescale factor,
        // from the BN-wide scores to the D-wide output): the same warps hold the same rows.
        set(op.results[0], widened);
        return;
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
        // An accumulator updated by mma stays in the mma layout for the whole loop instead of
        // being converted every iteration; its initial value is converted once, before the loop
        // (a splat of zeros: for free). The accumulator of an inner loop starts as the outer
        // loop's carried value, so this holds for any initial value.
        const ir::Op& y = *body.ops.back();
        const ir::Value* next = y.kind == OpKind::Yield ? y.operands[i - first_init] : nullptr;
        if (!init->type.is_scalar() && next && next->def && next->def->kind == OpKind::Mma)
          l = k_.accumulator_layout(*next->def);
        // Likewise any carried tile takes the layout the body gave it last run: the outer loop of
        // a nest yields what the inner one gave it.
        auto h = hints.find(&op);
        if (!init->type.is_scalar() && h != hints.end()) l = h->second[i - first_init];
        carried.push_back(l);
      }
      // An initial value in another layout (a splat given the body's layout) is converted; a
      // splat with as many registers needs nothing (they all hold the one value, and the loop
      // copies its registers in order).
      for (size_t i = first_init; i < op.operands.size(); ++i) {
        const ir::Value* init = op.operands[i];
        const Layout& want = carried[i - first_init];
        if (is_splat(init) && k_.layouts.at(init).regs_per_thread() == want.regs_per_thread()) continue;
        convert_operand(b, it, i, want);
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
        std::vector<Layout>& ys = yields[&op];
        ys.clear();
        for (size_t i = 0; i < y.operands.size(); ++i)
          ys.push_back(y.operands[i]->type.is_scalar() ? carried[i] : k_.layouts.at(y.operands[i]));
        auto yit = std::prev(body.ops.end());
        for (size_t i = 0; i < y.operands.size(); ++i) convert_operand(body, yit, i, carried[i]);
      }
      return;
    }
    case OpKind::Break:
    case OpKind::Continue:
      for (size_t i = 0; i < op.operands.size(); ++i) convert_operand(b, it, i, loops_.back()[i]);
      return;
    case OpKind::Load: {
      Layout l;
      if (!op.results[0]->type.is_scalar() && !k_.async_load(op.results[0]) && epilogue_load_layout(op.results[0], l)) {
        set(op.results[0], l);
        return;
      }
      break;
    }
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
    // The first operand in an mma fragment layout decides (moving an accumulator costs the
    // most), else the first that is not a splat; the others are converted to it.
    const Layout* pick = nullptr;
    for (const ir::Value* v : op.operands)
      if (!v->type.is_scalar() && !is_splat(v) && k_.layouts.at(v).kind == Layout::Kind::Mma) {
        pick = &k_.layouts.at(v);
        break;
      }
    for (const ir::Value* v : op.operands)
      if (!pick && !v->type.is_scalar() && !is_splat(v)) {
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
  auto args = [&]() {
    for (ir::Value* a : k.fn->body.args)
      if (!a->type.is_array) k.layouts[a] = low.blocked(a->type);
  };
  // Dry runs until the carried values' layouts settle (each run can only move a carried value
  // to the layout its yield had; a few rounds reach the fixed point of nested loops).
  int64_t smem = k.conversion_smem, smem_vec = k.conversion_smem_vectorized;
  SourceRange smem_loc = k.conversion_smem_loc;
  low.set_dry(true);
  for (int round = 0; round < 4; ++round) {
    args();
    low.block(k.fn->body);
    low.undo();
    k.layouts.clear();
    bool same = low.yields == low.hints;
    low.hints = low.yields;
    if (same) break;
  }
  k.conversion_smem = smem;
  k.conversion_smem_vectorized = smem_vec;
  k.conversion_smem_loc = smem_loc;
  low.set_dry(false);
  args();
  low.block(k.fn->body);
  // Rematerialization leaves the ops whose values it computed again without users, with any
  // conversion made for them (a mask's first computation, in the layout of its operands): a
  // conversion through shared memory costs a barrier even when nothing reads it.
  ir::eliminate_dead_code(*k.fn);
  std::vector<const ir::Value*> values = values_in_program_order(k);
  std::set<const ir::Value*> live(values.begin(), values.end());
  for (auto it = k.layouts.begin(); it != k.layouts.end();) it = live.count(it->first) ? std::next(it) : k.layouts.erase(it);
}

}  // namespace tilec::codegen
