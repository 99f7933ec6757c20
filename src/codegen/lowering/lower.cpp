// Lowering: each code path's steps, in order, from one registry table (lowering_steps.h). A
// step is a free function over the kernel being lowered, declared in a header of its own
// (mma_shape.h, warps.h, schedule.h, vector_widths.h, pipelines.h, assign_layouts.h with
// staging.h, stages.h, launch_divisors.h); here are the wrappers with the table's signature, the
// table and the runner, then LoweredKernel's answers (lower.h) that the steps, the emitter and
// the text ask. An arch-specific path's own steps are in its folder (paths/<name>/), listed by
// its row of the paths table.
#include "codegen/lowering/lower.h"

#include <algorithm>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "basic/diagnostics.h"
#include "basic/stage_timer.h"
#include "codegen/launch/host_assert.h"
#include "codegen/lowering/assign_layouts.h"
#include "codegen/lowering/launch_divisors.h"
#include "codegen/lowering/lowered_text.h"
#include "codegen/lowering/lowering_steps.h"
#include "codegen/lowering/mma_shape.h"
#include "codegen/lowering/pipelines.h"
#include "codegen/lowering/schedule.h"
#include "codegen/lowering/stages.h"
#include "codegen/lowering/staging.h"
#include "codegen/lowering/vector_access.h"
#include "codegen/lowering/vector_widths.h"
#include "codegen/lowering/warps.h"
#include "codegen/lowering/window_loads.h"

namespace tilec::codegen {
namespace {

bool mma_shapes(LoweringContext& cx) {
  pad_mma_operands(*cx.k.fn, cx.k.target);
  return true;
}

bool warps(LoweringContext& cx) {
  choose_warps(cx.k, cx.num_warps);
  return true;
}

bool early_loads(LoweringContext& cx) {
  schedule_loads(*cx.k.fn, cx.k.threads());
  return true;
}

bool vector_widths(LoweringContext& cx) {
  choose_vector_widths(cx.k);
  return true;
}

bool pipelines(LoweringContext& cx) {
  plan_pipelines(cx.k, cx.num_stages);
  return true;
}

bool layouts(LoweringContext& cx) {
  assign_layouts(cx.k);
  plan_staged_stores(cx.k, cx.smem_limit);
  return true;
}

bool stages(LoweringContext& cx) {
  finish_pipelines(cx.k, cx.num_stages, cx.smem_limit);
  return true;
}

bool launch_divisors(LoweringContext& cx) {
  plan_launch_divisors(cx.k);
  return true;
}

const LoweringStep* find_step(const std::string& name) {
  for (const LoweringStep& s : all_lowering_steps())
    if (name == s.name) return &s;
  return nullptr;
}

// What the later stages read of a finished lowering, decided here once (LoweredKernel's last
// fields): the vectorized variant's bytes per access, the window loads, the asserts the launch
// stub checks. Not a step: no step reads them, and --list-passes and the trace stay as they are.
void record_decisions(LoweredKernel& k) {
  k.vector_bytes = access_vector_bytes(k);
  k.windows = window_loads(k);
  k.host_asserts = host_checked_asserts(*k.fn);
}

// Runs the steps of cx.k's path in order, then records their decisions; false when one finds
// that the path does not fit. With `print_after`, the lowered form after each step is appended
// to it (with the window loads as they stand then: the text shows them).
bool run_steps(LoweringContext& cx, std::string* print_after) {
  const LoweredKernel& k = cx.k;
  for (const std::string& name : code_path(k.path).steps) {
    const LoweringStep* step = find_step(name);
    TILEC_ASSERT(step, "lowering step '" + name + "' is not in the table");
    double start = thread_cpu_us();
    bool ok = step->run(cx);
    double us = thread_cpu_us() - start;
    spdlog::trace("lowering {:<15} {:>8.1f} us  ({}, {} path for {})", name, us, k.fn->name, code_path_name(k.path),
                  k.target.arch);
    if (!ok) return false;
    if (print_after) {
      cx.k.windows = window_loads(cx.k);
      *print_after += fmt::format("// -----// IR after lowering step {} ({} path for {}) //----- //\n", name,
                                  code_path_name(k.path), k.target.arch) +
                      print_lowered(k);
    }
  }
  record_decisions(cx.k);
  return true;
}

}  // namespace

const std::vector<LoweringStep>& all_lowering_steps() {
  // The shared steps, then each path's own (path_table.h), and last the one every path runs last.
  static const std::vector<LoweringStep> kSteps = [] {
    std::vector<LoweringStep> steps = {
        {"mma-shapes", "pad mma operands smaller than one tensor-core instruction of the target", mma_shapes},
        {"warps", "choose warps per CTA: num_warps, else about 16 elements per thread", warps},
        {"early-loads", "issue top-level loads early, within a register budget", early_loads},
        {"vector-widths", "per tile shape: 16 bytes of the narrowest dtype loaded or stored with it", vector_widths},
        {"pipelines", "find the loops whose mma operand loads can go through shared memory ahead", pipelines},
        {"layouts", "give every tile value a layout; convert where two uses disagree", layouts},
        {"stages", "place the cp.async stages, choose how many fit and the mma that holds the sync", stages},
    };
    for (const CodePathInfo& path : code_paths())
      if (path.own_steps) steps.insert(steps.end(), path.own_steps().begin(), path.own_steps().end());
    steps.push_back({"launch-divisors", "// and % by extents and scalars: a magic number from the launch stub, no "
                     "division", launch_divisors});
    return steps;
  }();
  return kSteps;
}

LoweredKernel lower_kernel(ir::Function& f, const Target& target, int64_t smem_limit, std::string* print_after) {
  LoweredKernel k;
  k.fn = &f;
  k.target = target;
  LoweringContext cx(k, f.sig.options.num_warps, f.sig.options.num_stages, smem_limit);
  bool ok = run_steps(cx, print_after);
  TILEC_ASSERT(ok, "a portable lowering step failed: " + cx.why);
  return k;
}

std::optional<LoweredKernel> lower_on_path(const CodePathInfo& path, ir::Function& f, const Target& target,
                                           int64_t smem_limit, std::string& why, std::string* print_after) {
  LoweredKernel k;
  k.fn = &f;
  k.target = target;
  k.path = path.id;
  if (path.make_plan) k.plan = path.make_plan();
  // The path's own steps choose its warps (an arch-specific path's are its warpgroups).
  LoweringContext cx(k, 0, f.sig.options.num_stages, smem_limit);
  if (!run_steps(cx, print_after)) {
    why = cx.why;
    return std::nullopt;
  }
  return k;
}

std::vector<std::pair<const ir::Op*, std::string>> mmas_off_path(const LoweredKernel& k) {
  if (!k.plan) return {};
  return k.plan->mmas_off_path(k);
}

std::vector<const ir::Value*> values_in_program_order(const LoweredKernel& k) {
  std::vector<const ir::Value*> order(k.fn->body.args.begin(), k.fn->body.args.end());
  ir::walk(k.fn->body, [&](ir::Op& op) {
    order.insert(order.end(), op.results.begin(), op.results.end());
    for (const auto& r : op.regions) order.insert(order.end(), r->args.begin(), r->args.end());
  });
  return order;
}

// LoweredKernel's answers (lower.h).

const Pipeline* LoweredKernel::pipeline(const ir::Op* loop) const {
  for (const Pipeline& p : pipelines)
    if (p.loop == loop) return &p;
  return nullptr;
}

std::string unaligned_text(const LoweredKernel::UnalignedLoad& u) {
  const ir::Value* inner = u.load->operands.back();
  std::string what = "innermost offset";
  if (inner->def && inner->def->loc.valid())
    what += fmt::format(" (the expression at column {})", inner->def->loc.begin.col);
  else if (!inner->name.empty())
    what += " (" + inner->name + ")";
  else if (inner->owner && inner->owner->parent && inner->owner->parent->kind == ir::OpKind::For)
    what += fmt::format(" (the variable of the loop at line {})", inner->owner->parent->loc.begin.line);
  return fmt::format("the load at line {}, whose {} is known to be a multiple of {} byte{} but not of 16: {} "
                     "must start at a multiple of 16 bytes along its innermost dimension (language.md §7.2.1)",
                     u.load->loc.begin.line, what, u.align, u.align == 1 ? "" : "s",
                     code_path(u.path).copy_engine);
}

const LoweredKernel::UnalignedLoad* LoweredKernel::unaligned_load(const ir::Value* v) const {
  for (const UnalignedLoad& u : unaligned_loads)
    if (std::find(u.chain.begin(), u.chain.end(), v) != u.chain.end()) return &u;
  return nullptr;
}

const AsyncLoad* LoweredKernel::async_load(const ir::Value* v) const {
  auto it = async_values.find(v);
  return it == async_values.end() ? nullptr : it->second;
}

int64_t Pipeline::resident_bytes() const {
  int64_t n = 0;
  for (const AsyncLoad& al : resident) n = std::max(n, al.offset + stage_aligned(al.bytes()));
  return n;
}

int LoweredKernel::num_stages() const {
  int stages = 1;
  for (const Pipeline& p : pipelines) stages = std::max(stages, p.stages);
  return stages;
}

Layout LoweredKernel::accumulator_layout(const ir::Op& mma) const {
  if (plan && plan->own_mma(*this, mma)) return plan->own_accumulator_layout(*this, mma);
  const ir::Value* acc = mma.operands[2];
  return mma_layout(acc->type.tile.shape, acc->type.tile.dtype == DType::F64 ? 8 : 16, num_warps);
}

int64_t LoweredKernel::shared_bytes() const {
  if (plan) return plan->shared_bytes(*this);
  int64_t stages = 0;
  for (const Pipeline& p : pipelines) stages = std::max(stages, p.stages * p.stage_bytes);
  return std::max(conversion_smem, stages ? pipeline_offset + stages : conversion_smem_vectorized);
}

}  // namespace tilec::codegen
