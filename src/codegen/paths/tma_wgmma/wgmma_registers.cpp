// The registers per thread of the tma_wgmma path's pipelined loops (wgmma_registers.h), which
// the steps `tma-wgmma-plan` (wgmma_fit.cpp, tma_wgmma_plan.cpp) and `specialize` weigh.
#include "codegen/paths/tma_wgmma/wgmma_registers.h"

#include <algorithm>
#include <set>

namespace tilec::codegen::tma_wgmma {

int64_t loop_registers(const LoweredKernel& k, const Pipeline& p, int warpgroups) {
  std::set<const ir::Op*> mmas;
  for (const AsyncLoad& al : p.loads) mmas.insert(al.mma);
  int64_t n = 40;
  for (const ir::Op* mma : mmas) {
    const TileType& acc = mma->operands[2]->type.tile;
    int64_t per_wg = warpgroups ? std::max<int64_t>(acc.shape[0] / 64 / warpgroups, 1) : 1;
    n += per_wg * acc.shape[1] / (acc.dtype == DType::F16 ? 4 : 2);
    if (!k.async_load(mma->operands[0])) n += mma->operands[0]->type.tile.shape[1] / 4;
  }
  return n;
}

void consumer_register_counts(int consumers, int& entry, int& consumer) {
  entry = std::min(255, 65536 / (128 * (consumers + 1)) / 8 * 8);
  consumer = std::min(240, (entry * 128 * (consumers + 1) - 40 * 128) / (128 * consumers) / 8 * 8);
}

}  // namespace tilec::codegen::tma_wgmma
