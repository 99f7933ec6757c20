// The tma_wgmma path's plan (plan.h): what it answers for shared code (PathPlan), and the
// resident tiles of its pipelined loops.
#include "codegen/paths/tma_wgmma/plan.h"

#include "codegen/lowering/pipeline_loads.h"
#include "codegen/paths/tma_wgmma/lowering.h"

namespace tilec::codegen::tma_wgmma {
namespace {

constexpr int64_t kAlign = 1024;  // the 128-byte swizzle repeats every 8 lines of 128 bytes

int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

}  // namespace

Plan& plan_of(LoweredKernel& k) { return static_cast<Plan&>(*k.plan); }
const Plan& plan_of(const LoweredKernel& k) { return static_cast<const Plan&>(*k.plan); }

Layout wgmma_layout(const std::vector<int64_t>& shape, int num_warps) {
  Layout l;
  l.kind = Layout::Kind::Mma;
  l.shape = shape;
  l.inst_m = 16;
  l.warps_m = num_warps;
  l.warps_n = 1;
  return l;
}

void Plan::plan_loop(LoweredKernel& k, const ir::Op& loop, Pipeline& p, const ir::Users& users,
                     const IntegerFacts& facts) {
  // The loads before `loop`, in the block that holds it, whose tile reaches operand a of an mma
  // at the top level of the loop's body and nothing else, in TMA boxes (Pipeline::resident).
  // Others stay in registers (wgmma's register-A form).
  const ir::Block& outer = *loop.parent;
  const ir::Block& body = *loop.regions[0];
  int64_t at = 0;
  for (const auto& op : outer.ops) {
    if (op.get() == &loop) break;
    Copy kind = copy_kind(*op, facts);
    AsyncLoad al;
    std::vector<const ir::Value*> chain;
    if (kind == Copy::No || !follow_chain(*op, users, body, &outer, al, chain) || al.operand != 0 ||
        al.mma->parent != &body || !tma_box_ok(al))
      continue;
    if (kind == Copy::Yes) {
      al.offset = at;
      at += align_up(al.bytes(), kAlign);
      p.resident.push_back(al);
    } else {
      k.unaligned_loads.push_back({k.path, op.get(), offset_align(*op, facts), chain, al.mma, al.operand});
    }
  }
}

bool Plan::is_wgmma(const LoweredKernel& k, const ir::Op& mma) const {
  // wgmma_plan_ok checked every mma a pipelined load feeds; B always comes by TMA.
  return k.async_load(mma.operands[1]) != nullptr;
}

std::vector<const AsyncLoad*> Plan::tensor_maps(const LoweredKernel& k) const {
  std::vector<const AsyncLoad*> out;
  for (const Pipeline& p : k.pipelines) {
    for (const AsyncLoad& al : p.loads) out.push_back(&al);
    for (const AsyncLoad& al : p.resident) out.push_back(&al);
  }
  return out;
}

const TmaStore* Plan::tma_store(const ir::Op& op) const {
  for (const TmaStore& ts : tma_stores)
    if (ts.store == &op) return &ts;
  return nullptr;
}

Layout Plan::own_accumulator_layout(const LoweredKernel& k, const ir::Op& mma) const {
  return wgmma_layout(mma.operands[2]->type.tile.shape, k.num_warps);
}

std::optional<Layout> Plan::register_a_layout(const LoweredKernel& k, const ir::Op& mma) const {
  // wgmma's A from registers: in the fragment layout of m64nNk16's accumulator, which is also
  // its A fragment layout (wgmma.cpp).
  if (!is_wgmma(k, mma) || k.async_load(mma.operands[0])) return std::nullopt;
  return wgmma_layout(mma.operands[0]->type.tile.shape, k.num_warps);
}

int64_t Plan::shared_bytes(const LoweredKernel& k) const {
  int64_t stages = 0;
  for (const Pipeline& p : k.pipelines) {
    // The resident tiles, the full and empty mbarriers and the resident tiles' one, and up to
    // 1024 bytes to align the stages at run time.
    int64_t extra = p.resident_bytes() + mbarrier_bytes(p, p.stages) + 1024;
    stages = std::max(stages, p.stages * p.stage_bytes + extra);
  }
  // TMA stores staged beyond the stages (a persistent grid: tma_store.cpp).
  // Ping-pong: consumer 1's buffers follow consumer 0's, staging_stride bytes on.
  for (const TmaStore& ts : tma_stores) stages = std::max(stages, staging_stride + ts.offset + ts.staging_bytes() + 1024);
  // One entry, compiled like the vectorized variant: no general variant's conversion buffer.
  return stages ? k.pipeline_offset + stages : k.conversion_smem_vectorized;
}

const char* tma_schedule_name(TmaSchedule s) {
  switch (s) {
    case TmaSchedule::Inline: return "inline";
    case TmaSchedule::Specialized: return "warp-specialized";
  }
  return "?";
}

}  // namespace tilec::codegen::tma_wgmma
