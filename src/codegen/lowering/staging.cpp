// What the portable path stages through shared memory (staging.h): the bytes of staged mma
// operands and the general variant's staged accumulator stores.
#include "codegen/lowering/staging.h"

namespace tilec::codegen {
namespace {

// Bytes of one mma operand element: tf32 operands sit in 32-bit registers.
int elem_bytes(DType d) { return d == DType::TF32 ? 4 : dtype_bytes(d); }

// Whether `op` is a permute that swaps the last two dimensions and keeps the others, all of
// extent 1 (a load with order=(1, 0), or (0, 1, 3, 2) of a 1x1xRxC tile): a 2-D transposition.
bool transposes_rows(const ir::Op& op) {
  if (op.kind != ir::OpKind::Permute) return false;
  const std::vector<int64_t>& shape = op.results[0]->type.tile.shape;
  size_t n = shape.size();
  if (n < 2 || op.order.size() != n || op.order[n - 2] != int64_t(n - 1) || op.order[n - 1] != int64_t(n - 2))
    return false;
  for (size_t d = 0; d + 2 < n; ++d)
    if (op.order[d] != int64_t(d) || shape[d] != 1) return false;
  return true;
}

}  // namespace

const ir::Value* viewed_value(const ir::Value* v, bool& transposed, std::vector<const ir::Op*>* chain) {
  transposed = false;
  while (v->def && (v->def->kind == ir::OpKind::Reshape || (!transposed && transposes_rows(*v->def)))) {
    if (v->def->kind == ir::OpKind::Permute) transposed = true;
    if (chain) chain->push_back(v->def);
    v = v->def->operands[0];
  }
  return v;
}

int64_t mma_staging_bytes(const ir::Op& op, bool stage_a, bool stage_b) {
  const auto& a = op.operands[0]->type.tile.shape;
  const auto& b = op.operands[1]->type.tile.shape;
  int e = elem_bytes(op.operands[0]->type.tile.dtype);
  return (stage_a ? a[0] * (a[1] * e + 16) : 0) + (stage_b ? b[0] * (b[1] * e + 16) : 0);
}

int64_t general_mma_staging_bytes(const ir::Op& op) {
  int e = elem_bytes(op.operands[0]->type.tile.dtype);
  int64_t bytes = 0;
  for (int i = 0; i < 2; ++i) {
    const std::vector<int64_t>& s = op.operands[size_t(i)]->type.tile.shape;
    bool transposed;
    viewed_value(op.operands[size_t(i)], transposed);
    bytes += transposed ? s[1] * (s[0] * e + 16) : s[0] * (s[1] * e + 16);
  }
  return bytes;
}

int64_t staged_store_bytes(const ir::Value* tile, const Layout& l) {
  if (tile->type.is_scalar() || l.kind != Layout::Kind::Mma || !l.sliced_dims().empty()) return 0;
  // 128 registers or more (a 128x256 f32 accumulator in 8 warps): stored straight, such a tile
  // spilled; a 64-register one (128x128) leaves room for its addresses, and ptxas, which then
  // aims at two CTAs of 8 warps per SM (128 registers), spilled when it was staged too.
  if (l.regs_per_thread() < 128) return 0;
  const std::vector<int64_t>& shape = tile->type.tile.shape;
  for (size_t d = 0; d + 2 < shape.size(); ++d)
    if (shape[d] != 1) return 0;
  DType dt = tile->type.tile.dtype;
  int e = dt == DType::Bool ? 1 : dtype_bytes(dt);
  // 16-bit and wider elements, at least 16 bytes per row: every read-back piece is one
  // ld.shared of 4 to 16 bytes.
  if (shape.size() < 2 || e < 2 || shape.back() * e < 16) return 0;
  return shape[shape.size() - 2] * (shape.back() * e + 16);
}

void plan_staged_stores(LoweredKernel& k, int64_t smem_limit) {
  if (k.path != CodePath::Portable) return;
  ir::walk(k.fn->body, [&](ir::Op& op) {
    if (op.kind != ir::OpKind::Store || op.operands[1]->type.is_scalar()) return;
    int64_t bytes = staged_store_bytes(op.operands[1], k.layout(op.operands[1]));
    // Too large a tile (128x256 f32: 130 KiB) is stored straight from registers.
    if (!bytes || bytes > smem_limit) return;
    k.staged_stores.insert(&op);
    if (bytes > k.conversion_smem) {
      k.conversion_smem = bytes;
      k.conversion_smem_loc = op.loc;
    }
  });
}

}  // namespace tilec::codegen
