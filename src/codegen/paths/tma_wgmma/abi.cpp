// How the launch ABI describes a kernel on the tma_wgmma path (path.h, kernel_abi.h AbiPath).
#include "codegen/lowering/abi.h"
#include "codegen/lowering/path_table.h"
#include "codegen/paths/tma_wgmma/path.h"
#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

AbiPath abi_path(const LoweredKernel& low) {
  const CodePathInfo& info = code_path(low.path);
  const Plan& pl = plan_of(low);
  AbiPath path;
  path.name = info.name;
  path.target = low.target;
  path.variants = {{entry_name(low.fn->sig.name, info.entries.front()), true}};
  path.threads_per_cta = low.launch_threads();
  path.num_warps = low.launch_threads() / 32;
  path.num_stages = low.num_stages();
  path.dynamic_shared_bytes = int(low.shared_bytes());
  path.persistent = pl.spec.persistent;
  path.cluster_dims[0] = pl.spec.cluster;
  // Boxes of the tile's extents with one 128-byte swizzle span innermost: the tile's line
  // takes boxes() of them. The loads' maps, then the stores'.
  auto add_map = [&](const ir::Value* array, const ir::Value* tile, int esz) {
    AbiTensorMap m;
    m.param = array->type.array->index;
    const std::vector<int64_t>& shape = tile->type.tile.shape;
    for (size_t d = shape.size(); d-- > 0;) m.box.push_back(shape[d]);
    m.box[0] = 128 / esz;
    path.tensor_maps.push_back(m);
  };
  for (const AsyncLoad* al : pl.tensor_maps(low)) add_map(al->load->operands[0], al->load->results[0], al->esz);
  for (const TmaStore& ts : pl.tma_stores) add_map(ts.store->operands[0], ts.store->operands[1], ts.esz);
  path.divisors = abi_divisors(low);
  return path;
}

}  // namespace tilec::codegen::tma_wgmma
