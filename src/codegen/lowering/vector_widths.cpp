// The lowering step `vector-widths` (vector_widths.h).
#include "codegen/lowering/vector_widths.h"

#include <algorithm>
#include <map>
#include <vector>

namespace tilec::codegen {

void choose_vector_widths(LoweredKernel& k) {
  // Per tile shape: 16 bytes of the narrowest dtype loaded or stored with that shape.
  std::map<std::vector<int64_t>, int> min_bytes;
  ir::walk(k.fn->body, [&](ir::Op& op) {
    if (op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store) return;
    const ir::Value* t = op.kind == ir::OpKind::Load ? op.results[0] : op.operands[1];
    int bytes = std::max(1, dtype_bytes(t->type.tile.dtype));
    auto [it, fresh] = min_bytes.try_emplace(t->type.tile.shape, bytes);
    if (!fresh) it->second = std::min(it->second, bytes);
  });
  for (auto& [shape, bytes] : min_bytes) k.vec[shape] = std::max(1, 16 / bytes);
}

}  // namespace tilec::codegen
