// The vectorized variant's access size of each tile load and store (vector_access.h).
#include "codegen/lowering/vector_access.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "codegen/lowering/integer_facts.h"

namespace tilec::codegen {

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

std::map<const ir::Op*, int> access_vector_bytes(const LoweredKernel& low) {
  std::map<const ir::Op*, int> out;
  std::map<const ir::ArrayParam*, int> at_indices;  // the stub's check from tile-index accesses
  std::vector<const ir::Op*> at_offsets;
  ir::walk(low.fn->body, [&](ir::Op& op) {
    // Tile loads and stores (not the cp.async loads of a pipeline: those handle vectors that
    // straddle the edge).
    bool async = op.kind == ir::OpKind::Load && low.async_load(op.results[0]);
    if ((op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store) || async) return;
    const ir::Value* tile = op.kind == ir::OpKind::Load ? op.results[0] : op.operands[1];
    if (tile->type.is_scalar()) return;
    int bytes = vector_access_bytes(op, low.layout(tile));
    out[&op] = bytes;
    if (op.offsets || ir::has_bound(op)) {  // vectors as wide as the offsets' and bounds' alignment
      at_offsets.push_back(&op);
    } else {
      int& v = at_indices[op.operands[0]->type.array];
      v = std::max({v, bytes, 1});
    }
  });
  // The offsets' alignments from the facts the stub's check gives, which grow with the vectors
  // the offset accesses take: start from the tile-index accesses' check and widen to the least
  // fixed point (each round only adds facts that the previous round's vectors make the stub
  // check; at most 16-byte vectors, so a few rounds). There, every width is justified by facts
  // that the final check implies.
  std::map<const ir::Op*, int> layout_bytes;
  for (const ir::Op* op : at_offsets) layout_bytes[op] = std::exchange(out[op], 0);
  for (bool changed = true; changed;) {
    changed = false;
    std::map<const ir::ArrayParam*, int> check = at_indices;
    for (const ir::Op* op : at_offsets) {
      int& v = check[op->operands[0]->type.array];
      v = std::max({v, out[op], 1});
    }
    IntegerFacts facts(low, check);
    for (const ir::Op* op : at_offsets) {
      const ir::ArrayParam* arr = op->operands[0]->type.array;
      size_t last = arr->dims.size() - 1;
      // A vector must be wholly inside or outside: its start and the innermost bound, if any,
      // are multiples of it (an index= origin is a multiple of the tile).
      int64_t align = op->offsets ? facts.divisor(op->operands[ir::first_index(*op) + last]) : INT64_MAX;
      if (ir::has_bound(*op) && !ir::bound_is_extent(*low.fn, *op, last))
        align = std::min(align, facts.divisor(ir::bound_operand(*op, last)));
      align = align == INT64_MAX ? INT64_MAX : align * dtype_bytes(arr->dtype);
      int bytes = int(std::min<int64_t>(layout_bytes[op], align));
      if (bytes < 4) bytes = 0;
      if (bytes > out[op]) {
        out[op] = bytes;
        changed = true;
      }
    }
  }
  return out;
}

std::map<const ir::ArrayParam*, int> array_vector_bytes(const LoweredKernel& low) {
  std::map<const ir::ArrayParam*, int> vector_bytes;
  for (const auto& [op, bytes] : low.vector_bytes) {
    int& v = vector_bytes[op->operands[0]->type.array];
    v = std::max({v, bytes, 1});
  }
  return vector_bytes;
}

}  // namespace tilec::codegen
