// Split-K (split_k.h): the two kernels of a split-K configuration, made from the kernel's IR.
#include "ir/split_k.h"

#include <algorithm>
#include <iterator>

#include "ir/replacements.h"

namespace tilec::ir {
namespace {

using OpIt = std::list<std::unique_ptr<Op>>::iterator;

// `v` through any reshapes that define it.
const Value* through_reshapes(const Value* v) {
  while (v->def && v->def->kind == OpKind::Reshape) v = v->def->operands[0];
  return v;
}

// Whether carried value `i` of loop `loop` is an mma accumulator: the body yields
// mma(a, b, carried) (through reshapes, as batched mma builds it).
bool accumulates_mma(const Op& loop, size_t i) {
  const Block& body = *loop.regions[0];
  const Op& yield = *body.ops.back();
  if (yield.kind != OpKind::Yield || i >= yield.operands.size()) return false;
  const Value* y = through_reshapes(yield.operands[i]);
  return y->def && y->def->kind == OpKind::Mma && through_reshapes(y->def->operands[2]) == body.args[i + 1];
}

// Whether `v` is a splat of the constant zero (zeros(...)).
bool is_zeros(const Value* v) {
  if (!v->def || v->def->kind != OpKind::Splat) return false;
  const Value* c = v->def->operands[0];
  return c->def && c->def->kind == OpKind::Constant && c->def->value.i == 0 && c->def->value.f == 0;
}

// Whether `op` or an op inside it writes memory or prints (what the reduce kernel would repeat).
const Op* first_effect(const Op& op) {
  const Op* found = nullptr;
  auto check = [&](const Op& o) {
    if (!found && (o.kind == OpKind::Store || o.kind == OpKind::Scatter || o.kind == OpKind::Atomic ||
                   o.kind == OpKind::Print))
      found = &o;
  };
  check(op);
  for (const auto& r : op.regions) walk(static_cast<const Block&>(*r), check);
  return found;
}

// The position of the K loop among f's top-level ops, or -1 with `error`/`where` set.
int find_k_loop(const Function& f, int slices, std::string& error, SourceRange& where) {
  int found = -1, position = 0;
  const Op* effect = nullptr;
  for (const auto& op : f.body.ops) {
    if (op->kind == OpKind::For && op->results.size() > 0) {
      bool mma = false;
      for (size_t i = 0; i < op->results.size(); ++i) mma = mma || accumulates_mma(*op, i);
      if (mma && found >= 0) {
        error = "split_k: a second top-level loop accumulates an mma; split_k splits one K loop";
        where = op->loc;
        return -1;
      }
      if (mma) {
        found = position;
        if (effect) {
          error = "split_k: this stores or prints before the K loop, which the reduction kernel would repeat";
          where = effect->loc;
          return -1;
        }
      }
    }
    if (found < 0 && !effect) effect = first_effect(*op);
    ++position;
  }
  if (found < 0) {
    error = "split_k=" + std::to_string(slices) +
            " needs a top-level `for` loop that accumulates an mma (acc = mma(a, b, acc)), the loop it splits";
    where = f.sig.range;
  }
  return found;
}

// Checks the K loop `loop`: every carried value an mma accumulator from zeros, step 1, no early
// exit; and the grid leaves an axis for the slices.
bool check_k_loop(const Function& f, const Op& loop, std::string& error, SourceRange& where) {
  where = loop.loc;
  for (size_t i = 0; i < loop.results.size(); ++i) {
    if (!accumulates_mma(loop, i)) {
      error = "split_k: the K loop carries a value that is not an mma accumulator; only sums of products split";
      return false;
    }
    if (!is_zeros(loop.operands[3 + i])) {
      error = "split_k: the K loop's accumulator must start at zeros(...), or each slice would add its start";
      return false;
    }
  }
  const Value* step = loop.operands[2];
  if (!step->def || step->def->kind != OpKind::Constant || step->def->value.i != 1) {
    error = "split_k: the K loop must have step 1";
    return false;
  }
  bool exits = false;
  walk(static_cast<const Block&>(*loop.regions[0]), [&](const Op& o) {
    exits = exits || o.kind == OpKind::Break || o.kind == OpKind::Return;
  });
  if (exits) {
    error = "split_k: the K loop has a break or return; its iterations must all run";
    return false;
  }
  if (f.sig.grid.size() > 2) {
    error = "split_k: the grid has 3 axes; the slices need the third";
    where = f.sig.range;
    return false;
  }
  bool sms = false, axis = false;
  walk(f.body, [&](const Op& o) {
    sms = sms || o.kind == OpKind::NumSms;
    axis = axis || ((o.kind == OpKind::BlockId || o.kind == OpKind::NumBlocks) && o.axis >= int(f.sig.grid.size()));
  });
  if (sms || axis) {
    error = sms ? "split_k: the kernel reads num_sms(), a persistent loop the slices cannot split"
                : "split_k: the kernel reads a grid axis it does not declare, which the slices would take";
    where = f.sig.range;
    return false;
  }
  return true;
}

// Adds the workspace array [kWorkspaceRows, shape[1], ...] of `dtype` as f's last parameter and
// returns its argument (arrays come first among the arguments: it goes after the last array).
Value* add_workspace(Function& f, DType dtype, const std::vector<int64_t>& shape) {
  std::vector<ArrayDim> dims{ArrayDim{"", kWorkspaceRows}};
  for (size_t d = 1; d < shape.size(); ++d) dims.push_back(ArrayDim{"", shape[d]});
  int index = int(f.sig.params.size());
  f.sig.arrays.push_back(std::make_unique<ArrayParam>(ArrayParam{kPartialsParam, dtype, dims, index}));
  f.sig.params.push_back(Param{kPartialsParam, f.sig.range, true, f.sig.arrays.back().get(), dtype});
  size_t at = 0;
  while (at < f.body.args.size() && f.body.args[at]->type.is_array) ++at;
  Value* v = f.new_value(Type{true, {}, f.sig.arrays.back().get()});
  v->owner = &f.body;
  v->name = kPartialsParam;
  f.body.args.insert(f.body.args.begin() + std::ptrdiff_t(at), v);
  for (size_t i = 0; i < f.body.args.size(); ++i) f.body.args[i]->index = int(i);
  return v;
}

OpIt nth_op(Function& f, int n) { return std::next(f.body.ops.begin(), n); }

// The CTA's position and the CTAs of the original grid, `axes` axes of it (x fastest), as i64.
struct CtaIndex {
  Value* cta;
  Value* ctas;
};
CtaIndex cta_index(Builder& b, int axes, SourceRange loc) {
  auto grid = [&](OpKind k, int axis) {
    Op* op = b.create(k, loc, {}, {Type::scalar(DType::I32)});
    op->axis = axis;
    return b.cast(op->result(), DType::I64, loc);
  };
  CtaIndex out{grid(OpKind::BlockId, 0), grid(OpKind::NumBlocks, 0)};
  if (axes == 2) {
    out.cta = b.binary(OpKind::Add, out.cta, b.binary(OpKind::Mul, out.ctas, grid(OpKind::BlockId, 1), loc), loc);
    out.ctas = b.binary(OpKind::Mul, out.ctas, grid(OpKind::NumBlocks, 1), loc);
  }
  return out;
}

// The workspace index operands of slice `slice`'s accumulator tile: its tile row is
// slice * CTAs + cta, then zeros.
std::vector<Value*> workspace_index(Builder& b, Value* slice, const CtaIndex& c, size_t rank, SourceRange loc) {
  std::vector<Value*> index{b.binary(OpKind::Add, b.binary(OpKind::Mul, slice, c.ctas, loc), c.cta, loc)};
  for (size_t i = 1; i < rank; ++i) index.push_back(b.constant(DType::I64, Scalar{0, 0}, loc));
  return index;
}

// The partials kernel: slice bid(axis) of the loop's range, then the accumulators into the
// workspace (one workspace slot per accumulator would need several arrays: one accumulator).
void make_partials(Function& f, int position, int slices) {
  OpIt it = nth_op(f, position);
  Op& loop = **it;
  SourceRange loc = loop.loc;
  Value* acc = loop.results[0];
  Value* ws = add_workspace(f, acc->type.tile.dtype, acc->type.tile.shape);
  int axis = int(f.sig.grid.size());
  f.sig.grid.push_back(GridExpr::constant(slices));
  Builder b(f, &f.body);
  b.set_before(&f.body, it);
  // This slice's iterations: [lower + z*per, min(upper, lower + z*per + per)), per = cdiv(n, S).
  DType idx = loop.operands[0]->type.tile.dtype;
  Op* z_op = b.create(OpKind::BlockId, loc, {}, {Type::scalar(DType::I32)});
  z_op->axis = axis;
  Value* z = b.cast(z_op->result(), idx, loc);
  Value* lower = loop.operands[0];
  Value* upper = loop.operands[1];
  Value* s = b.constant(idx, Scalar{slices, 0}, loc);
  Value* n = b.binary(OpKind::Sub, upper, lower, loc);
  Value* per = b.unary(OpKind::Neg, b.binary(OpKind::FloorDiv, b.unary(OpKind::Neg, n, loc), s, loc), loc);
  Value* lo = b.binary(OpKind::Add, lower, b.binary(OpKind::Mul, z, per, loc), loc);
  Value* hi = b.binary(OpKind::Min, upper, b.binary(OpKind::Add, lo, per, loc), loc);
  loop.operands[0] = lo;
  loop.operands[1] = hi;
  // Everything after the loop goes: the reduce kernel runs it.
  f.body.ops.erase(std::next(it), f.body.ops.end());
  b.set_end(&f.body);
  Value* slice = b.cast(z_op->result(), DType::I64, loc);
  CtaIndex cta = cta_index(b, axis, loc);
  std::vector<Value*> ops{ws, acc};
  for (Value* v : workspace_index(b, slice, cta, acc->type.tile.shape.size(), loc)) ops.push_back(v);
  b.create(OpKind::Store, loc, ops, {});
}

// The reduce kernel: the loop becomes the sum of the workspace's slices, in slice order.
void make_reduce(Function& f, int position, int slices) {
  OpIt it = nth_op(f, position);
  Op& loop = **it;
  SourceRange loc = loop.loc;
  Value* old = loop.results[0];
  const TileType acc = old->type.tile;
  Value* ws = add_workspace(f, acc.dtype, acc.shape);
  Builder b(f, &f.body);
  b.set_before(&f.body, it);
  CtaIndex cta = cta_index(b, int(f.sig.grid.size()), loc);
  Value* zero = b.constant(acc.dtype, Scalar{0, 0}, loc);
  Op* init = b.create(OpKind::Splat, loc, {zero}, {Type::tile_of(acc.dtype, acc.shape)});
  init->shape = acc.shape;
  Op* sum = b.create(OpKind::For, loc,
                     {b.constant(DType::I64, Scalar{0, 0}, loc), b.constant(DType::I64, Scalar{slices, 0}, loc),
                      b.constant(DType::I64, Scalar{1, 0}, loc), init->result()},
                     {old->type});
  Block* body = b.new_block(sum);
  Value* s = b.block_arg(body, Type::scalar(DType::I64));
  Value* carried = b.block_arg(body, old->type);
  b.set_end(body);
  std::vector<Value*> ops{ws};
  for (Value* v : workspace_index(b, s, cta, acc.shape.size(), loc)) ops.push_back(v);
  Op* load = b.create(OpKind::Load, loc, ops, {old->type});
  load->shape = acc.shape;
  b.create(OpKind::Yield, loc, {b.binary(OpKind::Add, carried, load->result(), loc)}, {});
  // The loop's result is used only after it, at the top level or inside later ops.
  ValueReplacements uses;
  uses.replace(old, sum->results[0]);
  auto apply = [&](Op& o) { uses.apply(o); };
  for (auto later = std::next(it); later != f.body.ops.end(); ++later) {
    apply(**later);
    for (auto& r : (*later)->regions) walk(*r, apply);
  }
  f.body.ops.erase(it);
}

}  // namespace

bool split_k(const Function& f, int slices, SplitKernels& out, std::string& error, SourceRange& where) {
  int position = find_k_loop(f, slices, error, where);
  if (position < 0) return false;
  const Op& loop = **std::next(f.body.ops.begin(), position);
  if (!check_k_loop(f, loop, error, where)) return false;
  if (loop.results.size() != 1) {
    error = "split_k: the K loop carries " + std::to_string(loop.results.size()) +
            " accumulators; split_k handles one";
    where = loop.loc;
    return false;
  }
  out.partials = clone(f);
  make_partials(*out.partials, position, slices);
  int64_t rows = loop.results[0]->type.tile.shape[0];
  out.partials->sig.split = SplitRole{slices, false, rows};
  out.reduce = clone(f);
  make_reduce(*out.reduce, position, slices);
  // The reduce kernel is elementwise work on the accumulator tile, which it holds twice (the
  // sum and the slice being added): 32 elements a thread of each, up to 32 warps, instead of the
  // GEMM's warps, with which a 128x256 f32 tile takes 128 registers a thread for the sum alone
  // (16 elements a thread at 32 warps, 64 registers, spilled in the general variant).
  int64_t elements = loop.results[0]->type.tile.numel();
  int warps = 1;
  while (warps < 32 && int64_t(warps) * 32 * 32 < elements) warps *= 2;
  out.reduce->sig.options.num_warps = warps;
  // Its own register limit, so that no occupancy cap (language.md §3.5 "Register caps") makes it
  // spill: 64 registers a thread spilled a 128x128 tile's sum at 16 warps on sm_80.
  out.reduce->sig.options.max_registers = std::min(255, 65536 / (warps * 32));  // one CTA's worth of the SM
  out.reduce->sig.options.by_target.clear();
  out.reduce->sig.split = SplitRole{slices, true, rows};
  out.reduce->name = out.reduce->sig.name = f.name + "_tilec_reduce";  // `_tilec_` is reserved: no user kernel has it
  return true;
}

}  // namespace tilec::ir
