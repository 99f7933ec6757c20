// The lowering step `warps` (warps.h).
#include "codegen/lowering/warps.h"

#include <algorithm>

namespace tilec::codegen {

void choose_warps(LoweredKernel& k, int num_warps) {
  if (num_warps == 0) {
    // About 16 elements per thread for the largest tile, 32 once it has 4096 elements or more,
    // between 1 and 16 warps. Row kernels pay their CTA-wide reductions per warp: on the H200
    // layernorm over 4096 f16 and 8192 bf16 ran 1.0x Triton with 4 and 8 warps (32 elements
    // per thread) and 0.89x / 0.66x with 8 and 16 (bench/results/2026-11-30-session2-h200.md).
    int64_t largest = 1;
    ir::walk(k.fn->body, [&](ir::Op& op) {
      for (const ir::Value* r : op.results)
        if (!r->type.is_array) largest = std::max(largest, r->type.tile.numel());
    });
    int64_t per_thread = largest >= 4096 ? 32 : 16;
    num_warps = int(std::clamp<int64_t>(largest / (32 * per_thread), 1, 16));
    while (num_warps & (num_warps - 1)) --num_warps;
  }
  k.num_warps = num_warps;
}

}  // namespace tilec::codegen
