// The tma_wgmma path's part of the lowered IR's text form (--emit=tir-lowered, lowered_text.cpp;
// Plan's PathPlan text hooks): the producer/consumer split and the TMA pipelines as comments,
// the copies, waits and barriers where the emitter puts them, and the annotations.
//
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
// "mbarrier.wait resident" before the loop, and the annotation {tma resident}; on a persistent
// grid also an empty mbarrier ("resident x1 count 1, resident empty x1 count W"), copied "once
// per tile" and released after the loop ("mbarrier.arrive resident empty"). A store that
// leaves through the dead stages and TMA (TmaStore) carries {tma store: B boxes of Lx128 bytes,
// staged at stage offset O}. A load whose tile the emitter takes from an earlier load's
// registers (window_loads.h) carries {window of %b shifted by d}.
#include <algorithm>

#include <fmt/format.h>

#include "codegen/lowering/lowered_text.h"
#include "codegen/paths/tma_wgmma/lowering.h"

namespace tilec::codegen::tma_wgmma {
namespace {

std::string mbarrier_init(const LoweredKernel& k, const Pipeline& p, bool persistent) {
  std::string resident;
  if (!p.resident.empty())
    resident = persistent ? fmt::format(", resident x1 count 1, resident empty x1 count {}", k.num_warps / 4)
                          : ", resident x1 count 1";
  return fmt::format("mbarrier.init full x{} count 1, empty x{} count {}{}", p.stages, p.stages, k.num_warps / 4,
                     resident);
}

// "tma.copy %3 once, " when the pipeline has resident tiles ("once per tile, " on a persistent
// grid).
std::string resident_text(const Pipeline& p, const ir::ValueName& name, bool persistent) {
  std::string s;
  for (const AsyncLoad& al : p.resident) s += (s.empty() ? "" : ", ") + name(al.load->results[0]);
  return s.empty() ? s : "tma.copy " + s + (persistent ? " once per tile, " : " once, ");
}

bool is_resident(const LoweredKernel& k, const AsyncLoad* al) {
  for (const Pipeline& p : k.pipelines)
    for (const AsyncLoad& r : p.resident)
      if (&r == al) return true;
  return false;
}

// The rows of the pipelined loop's accumulators 0 without one.
int64_t tile_rows(const LoweredKernel& k) {
  for (const Pipeline& p : k.pipelines)
    for (const AsyncLoad& al : p.loads) return al.mma->operands[2]->type.tile.shape[0];
  return 0;
}

}  // namespace

// Only an mma at the top level of a pipelined loop's body, whose operands are that pipeline's
// loads, runs on wgmma.
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

std::vector<const ir::Op*> sync_mmas(const LoweredKernel& k) {
  std::vector<const ir::Op*> out;
  ir::walk(k.fn->body, [&](ir::Op& op) {
    if (op.kind == ir::OpKind::Mma && !plan_of(k).is_wgmma(k, op)) out.push_back(&op);
  });
  return out;
}

std::string Plan::summary(const LoweredKernel& k) const {
  std::string out = fmt::format("// kernel {}, {} path for {}: {} warpgroups ({} threads per CTA), {} bytes of shared memory for layout conversions\n",
                                k.fn->name, code_path_name(k.path), k.target.arch, k.launch_threads() / 128,
                                k.launch_threads(), k.conversion_smem_vectorized);
  if (spec.specialized()) {
    std::string consumers =
        spec.pingpong
            ? "ping-pong: warpgroups 1 and 2 each hold a whole tile and take alternate logical CTAs, their main "
              "loops in turn (named barriers 4 and 5), so one's epilogue overlaps the other's main loop"
            : fmt::format("cooperative: {} warpgroup(s) of {} accumulator rows per tile each",
                          consumer_warpgroups(k), 64 * std::max<int64_t>(1, tile_rows(k) / 64 / consumer_warpgroups(k)));
    if (!spec.why_not_pingpong.empty()) consumers += " (not ping-pong: " + spec.why_not_pingpong + ")";
    out += fmt::format("// warp-specialized: producer warpgroup 0 ({}) repeats {} scalar ops before the loop and "
                       "issues its TMA copies; consumer warpgroups 1-{} ({}) run the body; {}; consumers: {}\n",
                       spec.producer_registers ? fmt::format("setmaxnreg {}", spec.producer_registers)
                                                 : "its entry registers",
                       spec.producer_ops.size(),
                       consumer_warpgroups(k),
                       spec.consumer_registers ? fmt::format("setmaxnreg {}", spec.consumer_registers)
                                                 : "their entry registers",
                       spec.persistent ? "persistent grid: min(CTAs, SMs) CTAs loop over the logical CTAs" +
                                               (spec.cluster > 1
                                                    ? fmt::format(", in clusters of {} CTAs (TMA multicast of the "
                                                                  "boxes of a tile both read)",
                                                                  spec.cluster)
                                                    : " (no clusters: " + spec.why_not_cluster + ")")
                                         : "one CTA per tile (not persistent: " + spec.why_not_persistent + ")",
                       consumers);
  } else {
    out += "// inline TMA producer (thread 0): " + spec.why_inline + "\n";
  }
  for (const Pipeline& p : k.pipelines) {
    out += fmt::format("// TMA pipeline: {} stages of {} bytes at shared offset {}, mbarriers at {};", p.stages,
                       p.stage_bytes, k.pipeline_offset, k.pipeline_offset + barriers_of(p));
    for (const AsyncLoad& al : p.loads) {
      bool kmajor = al.contiguous_dim == (al.operand == 0 ? 1 : 0);
      out += fmt::format("{} wgmma operand {} from a {}x{} tile ({} boxes of 128-byte lines, {}-major)",
                         &al == &p.loads[0] ? "" : ";", al.operand == 0 ? "a" : "b", al.lines, al.line_elems,
                         al.boxes(), kmajor ? "K" : al.operand == 0 ? "M" : "N");
    }
    for (const LoweredKernel::UnalignedLoad& u : k.unaligned_loads)
      if (u.operand == 0 && u.mma->parent == p.loop->regions[0].get() && is_wgmma(k, *u.mma))
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
  return out;
}

std::vector<std::string> Plan::notes_before(const LoweredKernel& k, const ir::Op& op, const ir::ValueName& name) const {
  bool specialized = spec.specialized();
  std::vector<std::string> lines;
  if (specialized && &op == k.fn->body.ops.front().get())
    lines = {mbarrier_init(k, k.pipelines[0], spec.persistent), "barrier"};
  if (const Pipeline* p = k.pipeline(&op)) {
    std::string loads = loads_text(*p, name);
    std::string once = resident_text(*p, name, spec.persistent);
    if (specialized) lines.push_back(fmt::format("producer: {}tma.copy {} every iteration", once, loads));
    else lines = {mbarrier_init(k, *p, false), fmt::format("{}tma.copy {} first {}", once, loads, p->stages - 1), "barrier"};
    if (!p->resident.empty()) lines.push_back("mbarrier.wait resident");
  } else if (body_of(k, op, true)) {
    lines = {"mbarrier.wait full"};
  }
  return lines;
}

std::vector<std::string> Plan::notes_after(const LoweredKernel& k, const ir::Op& op, const ir::ValueName& name) const {
  bool specialized = spec.specialized();
  if (const Pipeline* p = k.pipeline(&op)) {
    if (specialized && spec.persistent && !p->resident.empty())
      return {"wgmma.wait_group 0", "mbarrier.arrive empty", "mbarrier.arrive resident empty"};
    if (specialized) return {"wgmma.wait_group 0", "mbarrier.arrive empty"};
    return {"wgmma.wait_group 0", "barrier", "mbarrier.inval full, empty"};
  }
  if (const Pipeline* p = body_of(k, op, false)) {
    if (specialized) return {"mbarrier.arrive empty"};
    return {"mbarrier.arrive empty", fmt::format("tma.copy {} ahead {}", loads_text(*p, name), p->stages - 1)};
  }
  return {};
}

std::string Plan::annotation(const LoweredKernel& k, const ir::Op& op) const {
  if (!op.results.empty())
    if (const AsyncLoad* al = k.async_load(op.results[0])) {
      bool resident = is_resident(k, al);
      if (op.kind != ir::OpKind::Load) return resident ? " {view of the resident tile}" : " {view of the stage}";
      return resident ? " {tma resident}" : " {tma stage}";
    }
  if (const TmaStore* ts = tma_store(op))
    return fmt::format(" {{tma store: {} boxes of {}x128 bytes{}, staged at stage offset {}}}", ts->boxes(), ts->lines,
                       ts->slots < ts->boxes() ? fmt::format(" through a ring of {} slots", ts->slots) : "",
                       ts->offset);
  if (op.kind != ir::OpKind::Mma) return "";
  if (is_wgmma(k, op)) return " {wgmma}";
  return " {mma.sync: " + why_mma_sync(k, op) + "}";
}

std::vector<std::pair<const ir::Op*, std::string>> Plan::mmas_off_path(const LoweredKernel& k) const {
  std::vector<std::pair<const ir::Op*, std::string>> out;
  for (const ir::Op* mma : sync_mmas(k)) out.push_back({mma, why_mma_sync(k, *mma)});
  return out;
}

}  // namespace tilec::codegen::tma_wgmma
