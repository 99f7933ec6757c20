// Padding mma operands to whole tensor-core instructions (mma_shape.h).
#include "codegen/lowering/mma_shape.h"

#include <vector>

#include "ir/passes/passes.h"

namespace tilec::codegen {

MmaInstructionShape mma_sync_shape(DType t) {
  if (t == DType::F64) return {8, 8, 4};
  if (t == DType::TF32) return {16, 8, 8};
  if (dtype_bits(t) == 8) return {16, 8, 32};
  return {16, 8, 16};
}

namespace {

// `cut`: each padded product's extract, for the uses after it (applied as the walk reaches them).
bool pad_block(ir::Function& f, ir::Block& b, ir::ValueReplacements& cut) {
  bool changed = false;
  for (auto it = b.ops.begin(); it != b.ops.end(); ++it) {
    ir::Op& op = **it;
    cut.apply(op);
    for (auto& r : op.regions) changed = pad_block(f, *r, cut) || changed;
    if (op.kind != ir::OpKind::Mma) continue;
    MmaInstructionShape s = mma_sync_shape(op.operands[0]->type.tile.dtype);
    ir::Builder bld(f, &b);
    bld.set_before(&b, it);
    auto pad = [&](ir::Value* v, int axis, int64_t want) {
      while (v->type.tile.shape[size_t(axis)] < want) {
        ir::Value* zero = bld.broadcast_to(bld.constant(v->type.tile.dtype, Scalar{0, 0}, op.loc), v->type.tile.shape, op.loc);
        std::vector<int64_t> shape = v->type.tile.shape;
        shape[size_t(axis)] *= 2;
        ir::Op* cat = bld.create(ir::OpKind::Cat, op.loc, {v, zero}, {ir::Type::tile_of(v->type.tile.dtype, shape)});
        cat->axis = axis;
        v = cat->result();
      }
      return v;
    };
    ir::Value* result = op.results[0];
    ir::Type out = result->type;
    ir::Value* x = pad(pad(op.operands[0], 0, s.m), 1, s.k);
    ir::Value* y = pad(pad(op.operands[1], 0, s.k), 1, s.n);
    ir::Value* acc = pad(pad(op.operands[2], 0, s.m), 1, s.n);
    if (acc->type == out && x == op.operands[0] && y == op.operands[1]) continue;
    changed = true;
    op.operands = {x, y, acc};
    result->type = acc->type;
    if (acc->type == out) continue;
    // The padded product, cut back to the accumulator's shape for the uses.
    bld.set_before(&b, std::next(it));
    ir::Op* e = bld.create(ir::OpKind::Extract, op.loc, {result}, {out});
    e->order = {0, 0};
    cut.replace(result, e->result());
    ++it;  // past the extract, which keeps its operand
  }
  return changed;
}

}  // namespace

void pad_mma_operands(ir::Function& f, const Target&) {
  // The zero tiles are new constants: cse merges them with the ones the kernel already has.
  std::string trace;
  ir::ValueReplacements cut;
  if (pad_block(f, f.body, cut)) ir::run_passes(f, {"cse", "dce"}, false, trace);
}

}  // namespace tilec::codegen
