// The lowered IR's text form (--emit=tir-lowered, and --print-after-all after each lowering
// step): the launch choices and the pipelines' plans as comments, the layouts of each tile
// shape, then the IR, in which the pipelines' asynchronous copies, waits and barriers are
// printed as ops where the emitter puts them (ptx/cp_async.cpp, ptx/tma.cpp), and the loads
// that go through shared memory carry an annotation. Stable text: values in program order.
//
// cp.async (portable path, vectorized variant; S stages):
//   cp_async.copy %a, %b first S      before the loop (first S - 1 without a late sync)
//   cp_async.wait_group S-1; barrier  before the loop, with a late sync
//   cp_async.wait_group S-2; barrier; cp_async.copy %a, %b ahead S-1
//                                     at the top of each iteration, without a late sync
//   {late_sync: ...}                  on the mma that holds them instead, before its last k step
//   cp_async.wait_all; barrier        after the loop
// TMA (tma_wgmma path; S stages, W consumer warpgroups), inline producer (thread 0):
//   mbarrier.init full xS count 1, empty xS count W; tma.copy %a, %b first S-1; barrier
//                                     before the loop
//   mbarrier.wait full                at the top of each iteration
//   mbarrier.arrive empty; tma.copy %a, %b ahead S-1   at its end
//   wgmma.wait_group 0; barrier; mbarrier.inval full, empty   after the loop
// Warp-specialized: the barriers are set up once, before the kernel's first op; the producer
// warpgroup's copies are one line before the loop; the consumers only wait and release:
//   mbarrier.init full xS count 1, empty xS count W; barrier   before the first op
//   producer: tma.copy %a, %b every iteration                 before the loop
//   mbarrier.wait full / mbarrier.arrive empty                 in each iteration
//   wgmma.wait_group 0; mbarrier.arrive empty                  after the loop
// Tiles loaded once before the loop (Pipeline::resident, on either schedule) have their own
// mbarrier: "resident x1 count 1" in the init line, "tma.copy %q once" with the first copies,
// "mbarrier.wait resident" before the loop, and the annotation {tma resident}. A store that
// leaves through the dead stages and TMA (TmaStore) carries {tma store: B boxes of Lx128 bytes,
// staged at stage offset O}. A load whose tile the emitter takes from an earlier load's
// registers (window_loads.h) carries {window of %b shifted by d}.
#include "codegen/lower.h"
#include "codegen/window_loads.h"

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

// The pipelined loop whose body `op` opens (first op) or closes (last op), or null.
const Pipeline* body_of(const LoweredKernel& k, const ir::Op& op, bool first) {
  const ir::Block* body = op.parent;
  if (!body || !body->parent || body->ops.empty()) return nullptr;
  const ir::Op* edge = first ? body->ops.front().get() : body->ops.back().get();
  return edge == &op ? k.pipeline(body->parent) : nullptr;
}

// "%31, %32": the loads whose tiles the pipeline copies.
std::string loads_text(const Pipeline& p, const ir::ValueName& name) {
  std::string s;
  for (const AsyncLoad& al : p.loads) s += (s.empty() ? "" : ", ") + name(al.load->results[0]);
  return s;
}

std::vector<std::string> cp_async_issue(const Pipeline& p, const ir::ValueName& name) {
  return {fmt::format("cp_async.wait_group {}", p.stages - 2), "barrier",
          fmt::format("cp_async.copy {} ahead {}", loads_text(p, name), p.sync_mma ? p.stages : p.stages - 1)};
}

std::string mbarrier_init(const LoweredKernel& k, const Pipeline& p) {
  return fmt::format("mbarrier.init full x{} count 1, empty x{} count {}{}", p.stages, p.stages, k.num_warps / 4,
                     p.resident.empty() ? "" : ", resident x1 count 1");
}

// "tma.copy %3 once, " when the pipeline has resident tiles.
std::string resident_text(const Pipeline& p, const ir::ValueName& name) {
  std::string s;
  for (const AsyncLoad& al : p.resident) s += (s.empty() ? "" : ", ") + name(al.load->results[0]);
  return s.empty() ? s : "tma.copy " + s + " once, ";
}

bool is_resident(const LoweredKernel& k, const AsyncLoad* al) {
  for (const Pipeline& p : k.pipelines)
    for (const AsyncLoad& r : p.resident)
      if (&r == al) return true;
  return false;
}

std::vector<std::string> before(const LoweredKernel& k, const ir::Op& op, const ir::ValueName& name) {
  bool tma = k.path == CodePath::TmaWgmma, specialized = tma && k.spec.specialized();
  std::vector<std::string> lines;
  if (specialized && &op == k.fn->body.ops.front().get()) lines = {mbarrier_init(k, k.pipelines[0]), "barrier"};
  if (const Pipeline* p = k.pipeline(&op)) {
    std::string loads = loads_text(*p, name);
    std::string once = resident_text(*p, name);
    if (specialized) lines.push_back(fmt::format("producer: {}tma.copy {} every iteration", once, loads));
    else if (tma) lines = {mbarrier_init(k, *p), fmt::format("{}tma.copy {} first {}", once, loads, p->stages - 1), "barrier"};
    else if (p->sync_mma)
      lines = {fmt::format("cp_async.copy {} first {}", loads, p->stages),
               fmt::format("cp_async.wait_group {}", p->stages - 1), "barrier"};
    else lines = {fmt::format("cp_async.copy {} first {}", loads, p->stages - 1)};
    if (tma && !p->resident.empty()) lines.push_back("mbarrier.wait resident");
  } else if (const Pipeline* p = body_of(k, op, true)) {
    if (tma) lines = {"mbarrier.wait full"};
    else if (!p->sync_mma) lines = cp_async_issue(*p, name);
  }
  return lines;
}

std::vector<std::string> after(const LoweredKernel& k, const ir::Op& op, const ir::ValueName& name) {
  bool tma = k.path == CodePath::TmaWgmma, specialized = tma && k.spec.specialized();
  if (k.pipeline(&op)) {
    if (specialized) return {"wgmma.wait_group 0", "mbarrier.arrive empty"};
    if (tma) return {"wgmma.wait_group 0", "barrier", "mbarrier.inval full, empty"};
    return {"cp_async.wait_all", "barrier"};
  }
  if (const Pipeline* p = body_of(k, op, false); p && tma) {
    if (specialized) return {"mbarrier.arrive empty"};
    return {"mbarrier.arrive empty", fmt::format("tma.copy {} ahead {}", loads_text(*p, name), p->stages - 1)};
  }
  return {};
}

std::string annotation(const LoweredKernel& k, const std::map<const ir::Op*, WindowLoad>& windows, const ir::Op& op,
                       const ir::ValueName& name) {
  bool tma = k.path == CodePath::TmaWgmma;
  if (auto w = windows.find(&op); w != windows.end())
    return fmt::format(" {{window of {} shifted by {}}}", name(w->second.base->results[0]), w->second.delta);
  if (!op.results.empty())
    if (const AsyncLoad* al = k.async_load(op.results[0])) {
      bool resident = is_resident(k, al);
      if (op.kind != ir::OpKind::Load) return resident ? " {view of the resident tile}" : " {view of the stage}";
      return resident ? " {tma resident}" : tma ? " {tma stage}" : " {cp_async stage}";
    }
  if (op.kind == ir::OpKind::Load && k.unaligned_load(op.results[0]))
    return " {registers: innermost offset not known to be a multiple of 16 bytes}";
  if (const TmaStore* ts = k.tma_store(op))
    return fmt::format(" {{tma store: {} boxes of {}x128 bytes{}, staged at stage offset {}}}", ts->boxes(), ts->lines,
                       ts->slots < ts->boxes() ? fmt::format(" through a ring of {} slots", ts->slots) : "",
                       ts->offset);
  if (auto d = k.divided_at_launch.find(&op); d != k.divided_at_launch.end())
    return fmt::format(" {{launch divisor {}: magic number}}", d->second);
  if (k.computed_at_launch.count(&op)) return " {computed by the launch stub}";
  if (op.kind != ir::OpKind::Mma) return "";
  if (k.is_wgmma(op)) return " {wgmma}";
  for (const Pipeline& p : k.pipelines)
    if (p.sync_mma == &op) {
      std::vector<std::string> sync = cp_async_issue(p, name);
      return fmt::format(" {{late_sync: {}, {}, {}}}", sync[0], sync[1], sync[2]);
    }
  if (k.path == CodePath::TmaWgmma) return " {mma.sync: " + why_mma_sync(k, op) + "}";
  return "";
}

ir::PrintNotes async_notes(const LoweredKernel& k) {
  ir::PrintNotes notes;
  notes.before = [&k](const ir::Op& op, const ir::ValueName& name) { return before(k, op, name); };
  notes.after = [&k](const ir::Op& op, const ir::ValueName& name) { return after(k, op, name); };
  notes.annotation = [&k, windows = window_loads(k)](const ir::Op& op, const ir::ValueName& name) {
    return annotation(k, windows, op, name);
  };
  return notes;
}

}  // namespace

// Why `mma`, in a kernel on the tma_wgmma path, stays on mma.sync: only an mma at the top level
// of a pipelined loop's body, whose operands are that pipeline's loads, runs on wgmma.
std::string why_mma_sync(const LoweredKernel& k, const ir::Op& mma) {
  const ir::Op* owner = mma.parent ? mma.parent->parent : nullptr;
  for (const ir::Value* operand : {mma.operands[1], mma.operands[0]})
    if (const LoweredKernel::UnalignedLoad* u = k.unaligned_load(operand))
      return fmt::format("its {} operand is {}", operand == mma.operands[0] ? "a" : "b", unaligned_text(*u));
  if (owner && owner->kind == ir::OpKind::For && k.pipeline(owner))
    return fmt::format("its operands are not loads the loop at line {} pipelines (an operand computed in registers, "
                       "or a load with nonzero padding, at an index computed in the loop, or with another use)",
                       owner->loc.begin.line);
  for (const ir::Op* o = owner; o; o = o->parent ? o->parent->parent : nullptr) {
    if (o->kind == ir::OpKind::If) return fmt::format("it runs under the if at line {}", o->loc.begin.line);
    if (o->kind == ir::OpKind::For || o->kind == ir::OpKind::While)
      return fmt::format("the loop at line {} that holds it has no pipeline", o->loc.begin.line);
  }
  return "it is not in a loop";
}

// The mmas of a tma_wgmma kernel that stay on mma.sync, in program order.
std::vector<const ir::Op*> sync_mmas(const LoweredKernel& k) {
  std::vector<const ir::Op*> out;
  ir::walk(k.fn->body, [&](ir::Op& op) {
    if (op.kind == ir::OpKind::Mma && !k.is_wgmma(op)) out.push_back(&op);
  });
  return out;
}

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

// The rows of the pipelined loop's accumulators (TmaWgmma), 0 without one.
static int64_t tile_rows(const LoweredKernel& k) {
  for (const Pipeline& p : k.pipelines)
    for (const AsyncLoad& al : p.loads) return al.mma->operands[2]->type.tile.shape[0];
  return 0;
}

std::string print_lowered(const LoweredKernel& k) {
  if (k.path == CodePath::TmaWgmma) {
    std::string out = fmt::format("// kernel {}, {} path for {}: {} warpgroups ({} threads per CTA), {} bytes of shared memory for layout conversions\n",
                                  k.fn->name, code_path_name(k.path), k.target.arch, k.launch_threads() / 128,
                                  k.launch_threads(), k.conversion_smem_vectorized);
    if (k.spec.specialized()) {
      std::string consumers =
          k.spec.pingpong
              ? "ping-pong: warpgroups 1 and 2 each hold a whole tile and take alternate logical CTAs, their main "
                "loops in turn (named barriers 4 and 5), so one's epilogue overlaps the other's main loop"
              : fmt::format("cooperative: {} warpgroup(s) of {} accumulator rows per tile each",
                            k.consumer_warpgroups(), 64 * std::max<int64_t>(1, tile_rows(k) / 64 / k.consumer_warpgroups()));
      if (!k.spec.why_not_pingpong.empty()) consumers += " (not ping-pong: " + k.spec.why_not_pingpong + ")";
      out += fmt::format("// warp-specialized: producer warpgroup 0 ({}) repeats {} scalar ops before the loop and "
                         "issues its TMA copies; consumer warpgroups 1-{} ({}) run the body; {}; consumers: {}\n",
                         k.spec.producer_registers ? fmt::format("setmaxnreg {}", k.spec.producer_registers)
                                                   : "its entry registers",
                         k.spec.producer_ops.size(),
                         k.consumer_warpgroups(),
                         k.spec.consumer_registers ? fmt::format("setmaxnreg {}", k.spec.consumer_registers)
                                                   : "their entry registers",
                         k.spec.persistent ? "persistent grid: min(CTAs, SMs) CTAs loop over the logical CTAs" +
                                                 (k.spec.cluster > 1
                                                      ? fmt::format(", in clusters of {} CTAs (TMA multicast of the "
                                                                    "boxes of a tile both read)",
                                                                    k.spec.cluster)
                                                      : " (no clusters: " + k.spec.why_not_cluster + ")")
                                           : "one CTA per tile (not persistent: " + k.spec.why_not_persistent + ")",
                         consumers);
    } else {
      out += "// inline TMA producer (thread 0): " + k.spec.why_inline + "\n";
    }
    for (const Pipeline& p : k.pipelines) {
      out += fmt::format("// TMA pipeline: {} stages of {} bytes at shared offset {}, mbarriers at {};", p.stages,
                         p.stage_bytes, k.pipeline_offset, k.pipeline_offset + p.barriers);
      for (const AsyncLoad& al : p.loads) {
        bool kmajor = al.contiguous_dim == (al.operand == 0 ? 1 : 0);
        out += fmt::format("{} wgmma operand {} from a {}x{} tile ({} boxes of 128-byte lines, {}-major)",
                           &al == &p.loads[0] ? "" : ";", al.operand == 0 ? "a" : "b", al.lines, al.line_elems,
                           al.boxes(), kmajor ? "K" : al.operand == 0 ? "M" : "N");
      }
      for (const LoweredKernel::UnalignedLoad& u : k.unaligned_loads)
        if (u.operand == 0 && u.mma->parent == p.loop->regions[0].get() && k.is_wgmma(*u.mma))
          out += "; wgmma operand a from registers: " + unaligned_text(u);
      for (const AsyncLoad& al : p.resident)
        out += fmt::format("; wgmma operand a from a {}x{} tile loaded once, at stage offset {} ({} boxes of "
                           "128-byte lines, {}-major)",
                           al.lines, al.line_elems, p.stages * p.stage_bytes + al.offset, al.boxes(),
                           al.contiguous_dim == 1 ? "K" : "M");
      out += "\n";
    }
    for (const ir::Op* mma : sync_mmas(k))
      out += fmt::format("// the mma at line {} stays on mma.sync (the other mmas run wgmma): {}\n", mma->loc.begin.line,
                         why_mma_sync(k, *mma));
    return out + launch_divisors_text(k) + layouts_text(k) + ir::print(*k.fn, async_notes(k));
  }
  std::string out = fmt::format("// kernel {}: {} warp{} ({} threads per CTA), {} bytes of shared memory for layout conversions\n",
                                k.fn->name, k.num_warps, k.num_warps == 1 ? "" : "s", k.threads(), k.conversion_smem);
  for (const Pipeline& p : k.pipelines) {
    out += fmt::format("// cp.async pipeline (vectorized variant): {} stages of {} bytes at shared offset {};", p.stages,
                       p.stage_bytes, k.pipeline_offset);
    for (const AsyncLoad& al : p.loads)
      out += fmt::format("{} mma operand {} from a {}x{} tile ({}-byte lines{})", &al == &p.loads[0] ? "" : ";", al.operand == 0 ? "a" : "b", al.lines,
                         al.line_elems, al.pitch(), al.contiguous_dim == 0 ? ", transposed" : "");
    out += "\n";
  }
  for (const LoweredKernel::UnalignedLoad& u : k.unaligned_loads)
    out += fmt::format("// mma operand {} of the mma at line {} from registers: {}\n", u.operand == 0 ? "a" : "b",
                       u.mma->loc.begin.line, unaligned_text(u));
  return out + launch_divisors_text(k) + layouts_text(k) + ir::print(*k.fn, async_notes(k));
}

}  // namespace tilec::codegen
