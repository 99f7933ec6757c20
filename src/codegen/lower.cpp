// Layout assignment: every tile of one shape gets the same blocked layout, vectorized for the
// narrowest dtype that shape is loaded or stored with; values that change shape (reshape,
// broadcast) go through a conversion the PTX emitter performs in registers when the two
// layouts agree and through shared memory otherwise.
#include "codegen/lower.h"

#include <algorithm>

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

int64_t conversion_bytes(const ir::Op& op) {
  // A conversion stages the whole source tile in shared memory.
  const ir::Value* src = op.operands[0];
  return src->type.tile.numel() * std::max(4, dtype_bytes(src->type.tile.dtype));
}

}  // namespace

LoweredKernel lower_kernel(ir::Function& f, int num_warps) {
  LoweredKernel k;
  k.fn = &f;
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
    // About 16 elements per thread for the largest tile, between 1 and 8 warps.
    num_warps = int(std::clamp<int64_t>(largest / (32 * 16), 1, 8));
    while (num_warps & (num_warps - 1)) --num_warps;
  }
  k.num_warps = num_warps;
  for (auto& [shape, bytes] : min_bytes) k.vec[shape] = std::max(1, 16 / bytes);
  auto layout_for = [&](const ir::Type& t) {
    int vec = 4;
    auto it = k.vec.find(t.tile.shape);
    if (it != k.vec.end()) vec = it->second;
    else vec = std::max(1, 16 / std::max(4, dtype_bytes(t.tile.dtype)));
    return blocked_layout(t.tile.shape, vec, num_warps);
  };
  for (ir::Value* a : f.body.args)
    if (!a->type.is_array) k.layouts[a] = layout_for(a->type);
  ir::walk(f.body, [&](ir::Op& op) {
    for (ir::Value* r : op.results)
      if (!r->type.is_array) k.layouts[r] = layout_for(r->type);
    for (auto& reg : op.regions)
      for (ir::Value* a : reg->args) k.layouts[a] = layout_for(a->type);
    if (op.kind == ir::OpKind::Reshape || op.kind == ir::OpKind::Broadcast)
      k.conversion_smem = std::max(k.conversion_smem, conversion_bytes(op));
  });
  return k;
}

std::string print_lowered(const LoweredKernel& k) {
  std::string out = fmt::format("// kernel {}: {} warps ({} threads per CTA), {} bytes of shared memory for layout conversions\n",
                                k.fn->name, k.num_warps, k.threads(), k.conversion_smem);
  std::map<std::string, std::string> seen;
  for (const auto& [v, l] : k.layouts) {
    if (l.shape.empty()) continue;
    std::string shape;
    for (int64_t d : l.shape) shape += (shape.empty() ? "" : "x") + std::to_string(d);
    seen[shape] = l.str() + fmt::format(" ({} registers per thread{})", l.regs_per_thread(), l.replicated() ? ", replicated" : "");
  }
  for (const auto& [shape, desc] : seen) out += "// layout of " + shape + " tiles: " + desc + "\n";
  return out + ir::print(*k.fn);
}

}  // namespace tilec::codegen
