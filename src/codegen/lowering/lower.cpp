// Lowering: each code path's steps, in order, from one registry table (lowering_steps.h). A
// step is a free function over the kernel being lowered; most live in a file of their own
// (mma_shape.cpp, schedule.cpp, pipeline.cpp, assign_layouts.cpp); the small ones (the warps,
// the vector widths, and the wrappers with the table's signature) are here. An arch-specific
// path's own steps are in its folder (paths/<name>/), listed by its row of the paths table.
#include "codegen/lowering/lower.h"

#include <algorithm>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "basic/diagnostics.h"
#include "basic/stage_timer.h"
#include "codegen/launch/host_assert.h"
#include "codegen/lowering/integer_facts.h"
#include "codegen/lowering/lowering_steps.h"
#include "codegen/lowering/mma_shape.h"
#include "codegen/lowering/schedule.h"
#include "codegen/lowering/window_loads.h"

namespace tilec::codegen {
namespace {

bool mma_shapes(LoweringContext& cx) {
  pad_mma_operands(*cx.k.fn, cx.k.target);
  return true;
}

bool choose_warps(LoweringContext& cx) {
  int num_warps = cx.num_warps;
  if (num_warps == 0) {
    // About 16 elements per thread for the largest tile, 32 once it has 4096 elements or more,
    // between 1 and 16 warps. Row kernels pay their CTA-wide reductions per warp: on the H200
    // layernorm over 4096 f16 and 8192 bf16 ran 1.0x Triton with 4 and 8 warps (32 elements
    // per thread) and 0.89x / 0.66x with 8 and 16 (bench/results/2026-11-30-session2-h200.md).
    int64_t largest = 1;
    ir::walk(cx.k.fn->body, [&](ir::Op& op) {
      for (const ir::Value* r : op.results)
        if (!r->type.is_array) largest = std::max(largest, r->type.tile.numel());
    });
    int64_t per_thread = largest >= 4096 ? 32 : 16;
    num_warps = int(std::clamp<int64_t>(largest / (32 * per_thread), 1, 16));
    while (num_warps & (num_warps - 1)) --num_warps;
  }
  cx.k.num_warps = num_warps;
  return true;
}

bool early_loads(LoweringContext& cx) {
  schedule_loads(*cx.k.fn, cx.k.threads());
  return true;
}

bool vector_widths(LoweringContext& cx) {
  // Per tile shape: 16 bytes of the narrowest dtype loaded or stored with that shape.
  std::map<std::vector<int64_t>, int> min_bytes;
  ir::walk(cx.k.fn->body, [&](ir::Op& op) {
    if (op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store) return;
    const ir::Value* t = op.kind == ir::OpKind::Load ? op.results[0] : op.operands[1];
    int bytes = std::max(1, dtype_bytes(t->type.tile.dtype));
    auto [it, fresh] = min_bytes.try_emplace(t->type.tile.shape, bytes);
    if (!fresh) it->second = std::min(it->second, bytes);
  });
  for (auto& [shape, bytes] : min_bytes) cx.k.vec[shape] = std::max(1, 16 / bytes);
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
  // The shared steps, then each path's own (paths.h), and last the one every path runs last.
  static const std::vector<LoweringStep> kSteps = [] {
    std::vector<LoweringStep> steps = {
        {"mma-shapes", "pad mma operands smaller than one tensor-core instruction of the target", mma_shapes},
        {"warps", "choose warps per CTA: num_warps, else about 16 elements per thread", choose_warps},
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

int vector_access_bytes(const ir::Op& op, const Layout& l) {
  const ir::Value* tile = op.kind == ir::OpKind::Load ? op.results[0] : op.operands[1];
  const ir::ArrayParam* arr = op.operands[0]->type.array;
  int rank = int(arr->dims.size());
  if (tile->type.is_scalar() || rank == 0) return 0;
  int last = op.order.empty() ? rank - 1 : int(op.order[size_t(rank - 1)]);
  if (last != rank - 1) return 0;
  DType d = arr->dtype;
  int esz = d == DType::Bool ? 1 : dtype_bytes(d);
  int piece = std::min(l.spt(l.rank() - 1) * esz, 16);
  bool vectorizable = piece >= 4 && (esz >= 4 || d == DType::F16 || d == DType::BF16);
  return vectorizable ? piece : 0;
}

std::map<const ir::Op*, int> access_vector_bytes(const LoweredKernel& low) {
  std::map<const ir::Op*, int> out;
  std::map<const ir::ArrayParam*, int> at_indices;  // the stub's check from tile-index accesses
  std::vector<const ir::Op*> at_offsets;
  ir::walk(low.fn->body, [&](ir::Op& op) {
    // Tile loads and stores (not the cp.async loads of a pipeline: those handle vectors that
    // straddle the edge).
    bool async = op.kind == ir::OpKind::Load && low.async_load(op.results[0]);
    if ((op.kind != ir::OpKind::Load && op.kind != ir::OpKind::Store) || async) return;
    const ir::Value* tile = op.kind == ir::OpKind::Load ? op.results[0] : op.operands[1];
    if (tile->type.is_scalar()) return;
    int bytes = vector_access_bytes(op, low.layout(tile));
    out[&op] = bytes;
    if (op.offsets || ir::has_bound(op)) {  // vectors as wide as the offsets' and bounds' alignment
      at_offsets.push_back(&op);
    } else {
      int& v = at_indices[op.operands[0]->type.array];
      v = std::max({v, bytes, 1});
    }
  });
  // The offsets' alignments from the facts the stub's check gives, which grow with the vectors
  // the offset accesses take: start from the tile-index accesses' check and widen to the least
  // fixed point (each round only adds facts that the previous round's vectors make the stub
  // check; at most 16-byte vectors, so a few rounds). There, every width is justified by facts
  // that the final check implies.
  std::map<const ir::Op*, int> layout_bytes;
  for (const ir::Op* op : at_offsets) layout_bytes[op] = std::exchange(out[op], 0);
  for (bool changed = true; changed;) {
    changed = false;
    std::map<const ir::ArrayParam*, int> check = at_indices;
    for (const ir::Op* op : at_offsets) {
      int& v = check[op->operands[0]->type.array];
      v = std::max({v, out[op], 1});
    }
    IntegerFacts facts(low, check);
    for (const ir::Op* op : at_offsets) {
      const ir::ArrayParam* arr = op->operands[0]->type.array;
      size_t last = arr->dims.size() - 1;
      // A vector must be wholly inside or outside: its start and the innermost bound, if any,
      // are multiples of it (an index= origin is a multiple of the tile).
      int64_t align = op->offsets ? facts.divisor(op->operands[ir::first_index(*op) + last]) : INT64_MAX;
      if (ir::has_bound(*op) && !ir::bound_is_extent(*low.fn, *op, last))
        align = std::min(align, facts.divisor(ir::bound_operand(*op, last)));
      align = align == INT64_MAX ? INT64_MAX : align * dtype_bytes(arr->dtype);
      int bytes = int(std::min<int64_t>(layout_bytes[op], align));
      if (bytes < 4) bytes = 0;
      if (bytes > out[op]) {
        out[op] = bytes;
        changed = true;
      }
    }
  }
  return out;
}

std::map<const ir::ArrayParam*, int> array_vector_bytes(const LoweredKernel& low) {
  std::map<const ir::ArrayParam*, int> vector_bytes;
  for (const auto& [op, bytes] : low.vector_bytes) {
    int& v = vector_bytes[op->operands[0]->type.array];
    v = std::max({v, bytes, 1});
  }
  return vector_bytes;
}

}  // namespace tilec::codegen
