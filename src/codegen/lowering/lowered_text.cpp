// The lowered IR's text form (--emit=tir-lowered, and --print-after-all after each lowering
// step): the launch choices and the pipelines' plans as comments, the layouts of each tile
// shape, then the IR, in which the pipelines' asynchronous copies, waits and barriers are
// printed as ops where the emitter puts them (ptx/cp_async.cpp), and the loads
// that go through shared memory carry an annotation. Stable text: values in program order.
//
// cp.async (portable path, vectorized variant; S stages):
//   cp_async.copy %a, %b first S      before the loop (first S - 1 without a late sync)
//   cp_async.wait_group S-1; barrier  before the loop, with a late sync
//   cp_async.wait_group S-2; barrier; cp_async.copy %a, %b ahead S-1
//                                     at the top of each iteration, without a late sync
//   {late_sync: ...}                  on the mma that holds them instead, before its last k step
//   cp_async.wait_all; barrier        after the loop
// An arch-specific path prints its own summary, copies, waits and barriers and annotations
// (PathPlan; the tma_wgmma path's: paths/tma_wgmma/lowered_text.cpp). A load whose tile the
// emitter takes from an earlier load's registers (window_loads.h) carries {window of %b shifted
// by d}.
#include "codegen/lowering/lowered_text.h"

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

std::string layouts_text(const LoweredKernel& k) {
  std::string out;
  std::map<std::string, std::string> seen;
  for (const ir::Value* v : values_in_program_order(k)) {
    auto it = k.layouts.find(v);
    if (it == k.layouts.end() || it->second.shape.empty()) continue;
    const Layout& l = it->second;
    std::string shape;
    for (int64_t d : l.shape) shape += (shape.empty() ? "" : "x") + std::to_string(d);
    std::string desc = l.str() + fmt::format(" ({} registers per thread{})", l.regs_per_thread(), l.replicated() ? ", replicated" : "");
    std::string& slot = seen[shape];
    if (slot.find(desc) == std::string::npos) slot += (slot.empty() ? "" : "; ") + desc;
  }
  for (const auto& [shape, desc] : seen) out += "// layouts of " + shape + " tiles: " + desc + "\n";
  return out;
}

}  // namespace

const Pipeline* body_of(const LoweredKernel& k, const ir::Op& op, bool first) {
  const ir::Block* body = op.parent;
  if (!body || !body->parent || body->ops.empty()) return nullptr;
  const ir::Op* edge = first ? body->ops.front().get() : body->ops.back().get();
  return edge == &op ? k.pipeline(body->parent) : nullptr;
}

std::string loads_text(const Pipeline& p, const ir::ValueName& name) {
  std::string s;
  for (const AsyncLoad& al : p.loads) s += (s.empty() ? "" : ", ") + name(al.load->results[0]);
  return s;
}

namespace {

std::vector<std::string> cp_async_issue(const Pipeline& p, const ir::ValueName& name) {
  return {fmt::format("cp_async.wait_group {}", p.stages - 2), "barrier",
          fmt::format("cp_async.copy {} ahead {}", loads_text(p, name), p.sync_mma ? p.stages : p.stages - 1)};
}

std::vector<std::string> before(const LoweredKernel& k, const ir::Op& op, const ir::ValueName& name) {
  if (k.plan) return k.plan->notes_before(k, op, name);
  if (const Pipeline* p = k.pipeline(&op)) {
    std::string loads = loads_text(*p, name);
    if (p->sync_mma)
      return {fmt::format("cp_async.copy {} first {}", loads, p->stages),
              fmt::format("cp_async.wait_group {}", p->stages - 1), "barrier"};
    return {fmt::format("cp_async.copy {} first {}", loads, p->stages - 1)};
  }
  if (const Pipeline* p = body_of(k, op, true); p && !p->sync_mma) return cp_async_issue(*p, name);
  return {};
}

std::vector<std::string> after(const LoweredKernel& k, const ir::Op& op, const ir::ValueName& name) {
  if (k.plan) return k.plan->notes_after(k, op, name);
  if (k.pipeline(&op)) return {"cp_async.wait_all", "barrier"};
  return {};
}

std::string annotation(const LoweredKernel& k, const std::map<const ir::Op*, WindowLoad>& windows, const ir::Op& op,
                       const ir::ValueName& name) {
  if (auto w = windows.find(&op); w != windows.end())
    return fmt::format(" {{window of {} shifted by {}}}", name(w->second.base->results[0]), w->second.delta);
  if (k.plan)
    if (std::string own = k.plan->annotation(k, op); !own.empty()) return own;
  if (!op.results.empty() && k.async_load(op.results[0]))
    return op.kind != ir::OpKind::Load ? " {view of the stage}" : " {cp_async stage}";
  if (op.kind == ir::OpKind::Load && k.unaligned_load(op.results[0]))
    return " {registers: innermost offset not known to be a multiple of 16 bytes}";
  if (auto d = k.divided_at_launch.find(&op); d != k.divided_at_launch.end())
    return fmt::format(" {{launch divisor {}: magic number}}", d->second);
  if (k.computed_at_launch.count(&op)) return " {computed by the launch stub}";
  if (op.kind != ir::OpKind::Mma) return "";
  for (const Pipeline& p : k.pipelines)
    if (p.sync_mma == &op) {
      std::vector<std::string> sync = cp_async_issue(p, name);
      return fmt::format(" {{late_sync: {}, {}, {}}}", sync[0], sync[1], sync[2]);
    }
  return "";
}

ir::PrintNotes async_notes(const LoweredKernel& k) {
  ir::PrintNotes notes;
  notes.before = [&k](const ir::Op& op, const ir::ValueName& name) { return before(k, op, name); };
  notes.after = [&k](const ir::Op& op, const ir::ValueName& name) { return after(k, op, name); };
  notes.annotation = [&k](const ir::Op& op, const ir::ValueName& name) { return annotation(k, k.windows, op, name); };
  return notes;
}

}  // namespace

// The divisors the launch stub computes, with their C expressions (LaunchDivisor).
static std::string launch_divisors_text(const LoweredKernel& k) {
  std::string out;
  for (size_t i = 0; i < k.launch_divisors.size(); ++i) {
    const ir::Value* d = k.launch_divisors[i].value;
    out += fmt::format("// launch divisor {}: {} {} = {}, with its magic number, from the launch stub\n", i,
                       dtype_name(d->type.tile.dtype), d->def ? "value" : d->name, k.launch_divisors[i].c_expr);
  }
  return out;
}

std::string print_lowered(const LoweredKernel& k) {
  std::string out;
  if (k.plan) {
    out = k.plan->summary(k);
  } else {
    out = fmt::format("// kernel {}: {} warp{} ({} threads per CTA), {} bytes of shared memory for layout conversions\n",
                      k.fn->name, k.num_warps, k.num_warps == 1 ? "" : "s", k.threads(), k.conversion_smem);
    for (const Pipeline& p : k.pipelines) {
      out += fmt::format("// cp.async pipeline (vectorized variant): {} stages of {} bytes at shared offset {};",
                         p.stages, p.stage_bytes, k.pipeline_offset);
      for (const AsyncLoad& al : p.loads)
        out += fmt::format("{} mma operand {} from a {}x{} tile ({}-byte lines{})", &al == &p.loads[0] ? "" : ";",
                           al.operand == 0 ? "a" : "b", al.lines, al.line_elems, al.pitch(),
                           al.contiguous_dim == 0 ? ", transposed" : "");
      out += "\n";
    }
    for (const LoweredKernel::UnalignedLoad& u : k.unaligned_loads)
      out += fmt::format("// mma operand {} of the mma at line {} from registers: {}\n", u.operand == 0 ? "a" : "b",
                         u.mma->loc.begin.line, unaligned_text(u));
  }
  return out + launch_divisors_text(k) + layouts_text(k) + ir::print(*k.fn, async_notes(k));
}

}  // namespace tilec::codegen
