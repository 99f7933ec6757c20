// The tma_wgmma path's pipelines (tma_pipeline.h; the types in plan.h): which pipelined mmas
// run on wgmma, the warpgroups, the TMA stages with their mbarriers, and the producer/consumer split (Specialization). The
// loads themselves are found by plan_pipelines (pipeline.cpp), as for cp.async, with the
// resident tiles from Plan::plan_loop; this file checks them against what TMA and wgmma take and
// places the stages. The PTX is written by the emitter families (emitter.h).
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "codegen/paths/tma_wgmma/lowering.h"
#include "codegen/paths/tma_wgmma/tma_pipeline.h"

namespace tilec::codegen::tma_wgmma {
namespace {

constexpr int64_t kAlign = 1024;    // the 128-byte swizzle repeats every 8 lines of 128 bytes
constexpr int kMaxStages = 8;
constexpr int64_t kBarrierBytes = 16;  // per stage: the full and the empty mbarrier

bool is_16bit_float(DType d) { return d == DType::F16 || d == DType::BF16; }
bool is_int8(DType d) { return d == DType::I8; }  // mma takes i8 x i8 -> i32 (check_builtins)

// Registers per thread the wgmma ops of a pipelined loop need: each accumulator of N columns
// N / 2 for f32 and N / 4 for f16 (packed pairs; PTX ISA §9.7.15.5.1, m64nN: N/2 .f32 or N/4
// .f16x2 registers of D per thread), each A operand of K 16-bit columns in registers K / 4
// (RS form), plus about 40 for addresses, descriptors and the epilogue.
// `warpgroups` hold each accumulator (0: one per 64 rows), so each holds rows / 64 / warpgroups
// m64 fragments.
int64_t loop_registers(const LoweredKernel& k, const Pipeline& p, int warpgroups = 0) {
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

}  // namespace

int64_t wgmma_k(DType t) { return 32 / dtype_bytes(t); }

bool tma_box_ok(const AsyncLoad& al) {
  return al.pitch() % 128 == 0 && al.lines % 8 == 0 && al.lines <= 256 &&
         al.load->operands[0]->type.array->dims.size() <= 5;
}

// "the loop at line L holds an mma and a break at line B" for the first for loop with an mma in
// its body that a break, continue or return leaves early (no pipeline then), or "".
std::string loop_exit_text(ir::Function& fn) {
  std::string text;
  ir::walk(fn.body, [&](ir::Op& loop) {
    if (!text.empty() || loop.kind != ir::OpKind::For) return;
    const ir::Op* exit = nullptr;
    bool mma = false;
    for (auto& r : loop.regions)
      ir::walk(*r, [&](ir::Op& op) {
        mma = mma || op.kind == ir::OpKind::Mma;
        if (!exit && (op.kind == ir::OpKind::Break || op.kind == ir::OpKind::Continue || op.kind == ir::OpKind::Return))
          exit = &op;
      });
    if (mma && exit)
      text = fmt::format("the loop at line {} holds an mma and a {} at line {}: a loop that a break, continue or "
                         "return may leave early has no pipeline (language.md §7.9), so its mma operands are not "
                         "copied ahead by TMA",
                         loop.loc.begin.line, ir::op_name(exit->kind), exit->loc.begin.line);
  });
  return text;
}

// "the b operand of the mma at line L is an astype at line C of the load at line D: ..." for the
// first mma in the body of a for loop with an operand converted from a load (a pipeline copies
// a load to the mma unchanged: follow_chain), or "".
std::string converted_operand_text(ir::Function& fn) {
  std::string text;
  ir::walk(fn.body, [&](ir::Op& mma) {
    const ir::Op* loop = mma.parent ? mma.parent->parent : nullptr;
    if (!text.empty() || mma.kind != ir::OpKind::Mma || !loop || loop->kind != ir::OpKind::For) return;
    for (int i : {1, 0}) {
      // Back from the operand through permutes, reshapes and casts to a load.
      const ir::Op *cast = nullptr, *load = mma.operands[size_t(i)]->def;
      while (load && (load->kind == ir::OpKind::Permute || load->kind == ir::OpKind::Reshape ||
                      load->kind == ir::OpKind::Cast)) {
        if (load->kind == ir::OpKind::Cast && !cast) cast = load;
        load = load->operands[0]->def;
      }
      if (!cast || !load || load->kind != ir::OpKind::Load) continue;
      text = fmt::format("the {} operand of the mma at line {} is an astype at line {} of the load at line {}: a "
                         "pipeline copies a load to the mma unchanged, so load the mma's dtype (an array "
                         "parameter declared {} holds the same bits as {})",
                         i ? "b" : "a", mma.loc.begin.line, cast->loc.begin.line, load->loc.begin.line,
                         dtype_name(cast->dtype), dtype_name(load->results[0]->type.tile.dtype));
      return;
    }
  });
  return text;
}

bool wgmma_plan_ok(const LoweredKernel& k, int& warpgroups, std::string& why) {
  warpgroups = 0;
  if (k.pipelines.empty() && k.fn) {
    why = loop_exit_text(*k.fn);
    if (why.empty()) why = converted_operand_text(*k.fn);
    if (!why.empty()) return false;
  }
  if (k.pipelines.empty() && !k.unaligned_loads.empty()) {
    // wgmma can take a from registers, so a b operand is the one that keeps the loop from a pipeline.
    const LoweredKernel::UnalignedLoad* u = &k.unaligned_loads.front();
    for (const LoweredKernel::UnalignedLoad& v : k.unaligned_loads)
      if (v.operand == 1) {
        u = &v;
        break;
      }
    why = fmt::format("no loop has a pipeline for its mma operands: the {} operand of the mma at line {} is {}",
                      u->operand == 0 ? "a" : "b", u->mma->loc.begin.line, unaligned_text(*u));
    return false;
  }
  if (k.pipelines.empty()) {
    why = "no loop has a pipeline for its mma operands (language.md §7.9: a for loop with a positive constant "
          "step, no break, continue or return, num_stages other than 1, and an mma at the top of its body whose "
          "operands are loads with zero padding, indexed by the loop variable or values from before the loop (or "
          "scalar arithmetic of those in the loop body), used by nothing else)";
    return false;
  }
  bool ok = true;
  auto fail = [&](const std::string& text) {
    if (ok) why = text;
    ok = false;
  };
  for (const Pipeline& p : k.pipelines)
    for (const AsyncLoad& al : p.loads) {
      const ir::Op& mma = *al.mma;
      if (const LoweredKernel::UnalignedLoad* u = k.unaligned_load(mma.operands[1])) {
        fail(fmt::format("the b operand of the mma at line {} is {}; wgmma reads b from shared memory", mma.loc.begin.line,
                         unaligned_text(*u)));
        continue;
      }
      if (!k.async_load(mma.operands[1])) {
        fail("the b operand of an mma of the loop is not a pipelined load (computed in registers, or a load with "
             "nonzero padding, an index read from memory in the loop, or another use): wgmma reads b from shared "
             "memory");
        continue;
      }
      if (mma.parent != p.loop->regions[0].get()) fail("an mma of the loop runs conditionally");
      DType t = mma.operands[0]->type.tile.dtype, tb = mma.operands[1]->type.tile.dtype,
            acc = mma.operands[2]->type.tile.dtype;
      // PTX ISA §9.7.15.5: .f32 accumulators for f16 and bf16, .f16 ones for f16 only; e4m3 and
      // e5m2 (in any pairing), and tf32, with .f32 accumulators (f8's .f16 ones are left out);
      // s8 with .s32 accumulators (the language's mma has no u8).
      bool pair_ok = is_16bit_float(t) ? tb == t && (acc == DType::F32 || (acc == DType::F16 && t == DType::F16))
                     : is_int8(t)      ? is_int8(tb) && acc == DType::I32
                                       : ((is_f8(t) && is_f8(tb)) || (t == DType::TF32 && tb == t)) && acc == DType::F32;
      if (!pair_ok)
        fail(fmt::format("the tma_wgmma path takes f16 or bf16 operands with f32 accumulators (or f16 operands "
                         "with f16 accumulators), f8e4m3 or f8e5m2 operands or tf32 ones with f32 accumulators, "
                         "and i8 operands with i32 accumulators, not {} and {} with {}",
                         dtype_name(t), dtype_name(tb), dtype_name(acc)));
      if (!is_16bit_float(t) && pair_ok) {
        // PTX ISA §9.7.15.5.1: only the 16-bit forms have the transpose immediates; 8-bit
        // (float and integer) and tf32 operands must both come by TMA with K along the 128-byte
        // lines.
        const AsyncLoad* la = k.async_load(mma.operands[0]);
        bool a_ok = la && la->contiguous_dim == 1, b_ok = k.async_load(mma.operands[1])->contiguous_dim == 0;
        const LoweredKernel::UnalignedLoad* ua = k.unaligned_load(mma.operands[0]);
        if (!la && ua)  // a load that TMA could copy but for its alignment, not its layout
          fail(fmt::format("the a operand of the mma at line {} is {}; wgmma on {} reads a from shared memory",
                           mma.loc.begin.line, unaligned_text(*ua), dtype_name(t)));
        else if (!a_ok || !b_ok)
          fail(fmt::format("wgmma on {} has no transpose: both operands must be K-major tile loads (a from an "
                           "[M, K] array, b from an [N, K] array through order=(1, 0)), and {} is not; the "
                           "portable path (mma.sync) runs this kernel",
                           dtype_name(t), a_ok ? "b" : "a"));
      }
      const std::vector<int64_t>& c = mma.operands[2]->type.tile.shape;
      int64_t K = mma.operands[0]->type.tile.shape[1], k_step = wgmma_k(t);
      // (The integer forms take N = 8, 24 and multiples of 16 only, PTX ISA §9.7.15.5.1: tile
      // extents are powers of two, so 8 or a multiple of 16.)
      if (c[0] % 64 || c[0] > 256 || c[1] % 8 || c[1] > 256 || K % k_step)
        fail(fmt::format("the accumulator is {}x{} with k {}: wgmma needs rows in multiples of 64 (at most 256), "
                         "columns in multiples of 8 (at most 256) and k in multiples of {}",
                         c[0], c[1], K, k_step));
      if (!tma_box_ok(al))
        fail(fmt::format("a {}x{} tile: TMA boxes of the 128-byte swizzle need lines of a multiple of 128 bytes "
                         "and a multiple of 8 lines, at most 256",
                         al.lines, al.line_elems));
      int wg = int(c[0] / 64);
      // Registers (loop_registers) within 64 Ki per SM shared by 128 threads per warpgroup
      // (255 at most).
      int64_t budget = std::min<int64_t>(255, 65536 / (128 * std::max(wg, 1)));
      if (loop_registers(k, p) > budget)
        fail(fmt::format("the loop's wgmma accumulators and register operands ({}x{} {} here) need about {} "
                         "registers per thread in {} warpgroups ({} threads); at most {} fit: use fewer rows or "
                         "columns per tile",
                         c[0], c[1], dtype_name(acc), loop_registers(k, p), wg, 128 * wg, budget));
      if (warpgroups && wg != warpgroups) fail("the wgmma accumulators need different numbers of warpgroups");
      warpgroups = std::max(warpgroups, wg);
    }
  if (ok && warpgroups == 0) fail("no loop feeds an mma from tile loads");
  return ok;
}

// setmaxnreg counts for a CTA of `consumers` consumer warpgroups and a producer one: ptxas gives
// each thread 64 Ki / threads at entry (multiples of 8, .minnctapersm 1); the producer keeps 40
// (its one thread counts and issues copies), the consumers share the rest, at most 240 (fast.cu
// and CUTLASS use 40 / 232-240 for two consumer warpgroups). setmaxnreg.inc takes registers only
// from the CTA's own pool (what its threads got at entry, less what the producer gave back):
// asking for more waits forever (a 640-thread CTA hung on the H200 with 96 at entry, 112 asked).
static void consumer_register_counts(int consumers, int& entry, int& consumer) {
  entry = std::min(255, 65536 / (128 * (consumers + 1)) / 8 * 8);
  consumer = std::min(240, (entry * 128 * (consumers + 1) - 40 * 128) / (128 * consumers) / 8 * 8);
}

bool consumers_fit(const LoweredKernel& k, int tile_warpgroups, int consumers, std::string& why) {
  for (const Pipeline& p : k.pipelines) {
    std::set<const ir::Op*> mmas;
    for (const AsyncLoad& al : p.loads) mmas.insert(al.mma);
    for (const ir::Op* mma : mmas) {
      int64_t rows = mma->operands[2]->type.tile.shape[0];
      if (rows % (64 * tile_warpgroups)) {
        why = fmt::format("the {}-row accumulator does not split into {} warpgroups of a multiple of 64 rows", rows,
                          tile_warpgroups);
        return false;
      }
      const AsyncLoad* la = k.async_load(mma->operands[0]);
      if (rows > 64 * tile_warpgroups && !(la && la->contiguous_dim == 1)) {
        why = fmt::format("a warpgroup would hold {} rows of the accumulator, and the a operand is not a tile load "
                          "with K along its lines (an [M, K] array): its wgmma takes 64 rows per warpgroup",
                          rows / tile_warpgroups);
        return false;
      }
    }
    int entry = 0, consumer = 0;
    consumer_register_counts(consumers, entry, consumer);
    int64_t need = loop_registers(k, p, tile_warpgroups), have = std::max(entry, consumer);
    if (need > have) {
      why = fmt::format("the loop's wgmma accumulators need about {} registers per thread when {} warpgroup(s) hold "
                        "a tile; {} consumer warpgroup(s) get {}",
                        need, tile_warpgroups, consumers, have);
      return false;
    }
  }
  return true;
}

void finish_tma_pipelines(LoweredKernel& k, int num_stages, int64_t smem_limit) {
  k.pipeline_offset = (k.conversion_smem_vectorized + kAlign - 1) / kAlign * kAlign;
  // The stages start at the next 1024-byte boundary of the shared address, found at run time
  // (TmaRing::setup): up to 1024 bytes more.
  int64_t room = smem_limit - k.pipeline_offset - kAlign;
  for (Pipeline& p : k.pipelines) {
    int64_t per_stage = p.stage_bytes + kBarrierBytes;
    int64_t resident = p.resident_bytes() + Plan::mbarrier_bytes(p, 0);
    int fit = int(std::min<int64_t>((room - resident) / per_stage, kMaxStages));
    int s = num_stages ? std::min(num_stages, fit) : fit;
    if (s < 2) {
      k.pipelines.clear();
      k.async_values.clear();
      return;
    }
    if (num_stages && s < num_stages)
      k.warnings.push_back({Warning::NumStages, p.loop->loc,
                            fmt::format("num_stages={}: only {} TMA stages of {} bytes fit in the {} bytes of shared "
                                        "memory per CTA on {} left beside {} bytes for layout conversions; this "
                                        "loop runs {} on the tma_wgmma path",
                                        num_stages, s, p.stage_bytes, room, k.target.arch, k.pipeline_offset, s)});
    p.stages = s;
    plan_of(k).barriers[p.loop] = s * p.stage_bytes + p.resident_bytes();
  }
}

namespace {

// Scalar ops without side effects whose result the producer thread can compute again.
bool repeatable(const ir::Op& op) {
  using ir::OpKind;
  for (const ir::Value* r : op.results)
    if (r->type.is_array || !r->type.is_scalar()) return false;
  if (!op.regions.empty()) return false;
  switch (op.kind) {
    case OpKind::Constant:
    case OpKind::Cast:
    case OpKind::Bitcast:
    case OpKind::Cmp:
    case OpKind::Select:
    case OpKind::Fma:
    case OpKind::BlockId:
    case OpKind::NumBlocks:
    case OpKind::NumSms: return true;
    default: return ir::is_unary_elementwise(op.kind) || ir::is_binary_elementwise(op.kind);
  }
}

bool may_leave(const ir::Op& op) {
  auto leaves = [](const ir::Op& o) {
    return o.kind == ir::OpKind::Return || o.kind == ir::OpKind::Break || o.kind == ir::OpKind::Continue;
  };
  bool found = leaves(op);
  for (const auto& r : op.regions) ir::walk(*r, [&](ir::Op& o) { found = found || leaves(o); });
  return found;
}

// Whether `v` depends on bid() through the ops of `body` (kernel arguments do not).
bool depends_on_bid(const ir::Value* v) {
  std::vector<const ir::Value*> work = {v};
  std::set<const ir::Op*> seen;
  while (!work.empty()) {
    const ir::Op* d = work.back()->def;
    work.pop_back();
    if (!d || !seen.insert(d).second) continue;
    if (d->kind == ir::OpKind::BlockId) return true;
    for (const ir::Value* o : d->operands) work.push_back(o);
  }
  return false;
}

// Specialization::cluster, for a persistent kernel.
void plan_cluster(LoweredKernel& k, const ir::Op& loop) {
  Specialization& s = plan_of(k).spec;
  const ir::LaunchOptions& opt = k.fn->sig.options;
  bool shareable = false;
  for (const AsyncLoad& al : k.pipelines[0].loads) shareable = shareable || al.boxes() >= 2;
  if (!s.persistent) s.why_not_cluster = "not persistent";
  else if (!k.target.has_tma_multicast()) s.why_not_cluster = "TMA multicast needs sm_90a";
  else if (depends_on_bid(loop.operands[0]) || depends_on_bid(loop.operands[1]) || depends_on_bid(loop.operands[2]))
    s.why_not_cluster = "the loop's trip count depends on bid()";
  else if (!shareable) s.why_not_cluster = "no operand tile of two or more 128-byte boxes to share";
  else if (s.pingpong) s.why_not_cluster = "ping-pong consumers";
  else if (!k.pipelines[0].resident.empty()) s.why_not_cluster = "a tile is loaded once before the loop (resident)";
  else if (opt.cluster == 1) s.why_not_cluster = "cluster=1";
  // Measured on the H200 (bench/results/2026-12-02-clusters-h200.md): the coupled rings cost
  // what the multicast saves (matmul 4096^3 0.95x against 0.98x cuBLAS, 8192^3 1.00x both), so
  // clusters are taken only when asked for.
  else if (opt.cluster == 0) s.why_not_cluster = "not asked for (cluster=2)";
  s.cluster = s.why_not_cluster.empty() ? 2 : 1;
  if (s.cluster == 1 && opt.cluster == 2)
    k.warnings.push_back({Warning::Cluster, k.fn->sig.range,
                          fmt::format("cluster=2: the kernel runs without clusters on {}: {}", k.target.arch,
                                      s.why_not_cluster)});
}

}  // namespace

void plan_specialization(LoweredKernel& k) {
  Plan& pl = plan_of(k);
  Specialization& s = pl.spec;
  s = Specialization{};
  // pingpong=True that cannot be honoured: the kernel, lowered with one warpgroup per tile,
  // runs with one cooperative consumer warpgroup.
  auto no_pingpong = [&](const std::string& why) {
    if (!pl.pingpong_layout) return;
    s.why_not_pingpong = why;
    k.warnings.push_back({Warning::Pingpong, k.fn->sig.range,
                          fmt::format("pingpong=True: the kernel runs one cooperative consumer warpgroup per tile on "
                                      "{}: {}",
                                      k.target.arch, why)});
  };
  auto inline_because = [&](std::string why) {
    s.why_inline = why;
    no_pingpong("its TMA producer runs inline (" + why + ")");
    if (k.fn->sig.options.persistent == 1)
      k.warnings.push_back({Warning::Persistent, k.fn->sig.range,
                            fmt::format("persistent=True: the kernel keeps one CTA per tile on {}: its TMA producer "
                                        "runs inline ({})",
                                        k.target.arch, why)});
  };
  if (k.pipelines.empty()) return inline_because("no TMA pipeline");
  if (k.pipelines.size() != 1) return inline_because("more than one pipelined loop");
  const ir::Op& loop = *k.pipelines[0].loop;
  const ir::Block& body = k.fn->body;
  if (loop.parent != &body) return inline_because("the pipelined loop is inside another loop or an if");
  const ir::LaunchOptions& opt = k.fn->sig.options;
  if (opt.max_registers || opt.min_ctas_per_sm)
    return inline_because("max_registers or min_ctas_per_sm is set (setmaxnreg needs the register count ptxas "
                          "gives one CTA per SM)");
  // Registers: consumer_register_counts. Ping-pong runs two consumer warpgroups, each with the
  // whole tile.
  int tile_wg = k.num_warps / 4, wg = pl.pingpong_layout ? 2 : tile_wg;
  int entry = 0, consumer = 0;
  consumer_register_counts(wg, entry, consumer);
  int64_t need = loop_registers(k, k.pipelines[0], tile_wg);
  if (need > std::max(entry, consumer))
    return inline_because(fmt::format("the loop's wgmma ops need about {} registers per thread; the consumers of "
                                      "a warp-specialized CTA get {}",
                                      need, std::max(entry, consumer)));
  // The producer's ops: the backward slice of the loop's bounds and the TMA indices (through the
  // ones computed in the body).
  std::set<const ir::Op*> slice;
  std::vector<const ir::Value*> work = {loop.operands[0], loop.operands[1], loop.operands[2]};
  const ir::Value* iv = loop.regions[0]->args[0];
  for (const std::vector<AsyncLoad>* loads : {&k.pipelines[0].loads, &k.pipelines[0].resident})
    for (const AsyncLoad& al : *loads)
      for (size_t d = 1; d < al.load->operands.size(); ++d)
        if (al.load->operands[d] != iv) work.push_back(al.load->operands[d]);
  while (!work.empty()) {
    const ir::Value* v = work.back();
    work.pop_back();
    if (v == iv) continue;
    if (v->def && v->def->parent == loop.regions[0].get()) {
      // An index computed in the body from the induction variable (pipeline.cpp): the producer
      // computes it again per iteration it issues (ring.h TmaRing::value_at), from what it uses.
      for (const ir::Value* o : v->def->operands) work.push_back(o);
      continue;
    }
    if (!v->def) {
      if (v->owner != &body) return inline_because("a TMA index depends on a value defined in the loop");
      continue;  // a kernel argument: an extent or a scalar
    }
    const ir::Op* d = v->def;
    if (slice.count(d)) continue;
    if (d->parent != &body || !repeatable(*d))
      return inline_because(fmt::format("the loop's bounds or a TMA index depend on '{}', which the producer "
                                        "cannot repeat (only scalar arithmetic at the top level of the kernel)",
                                        ir::op_name(d->kind)));
    slice.insert(d);
    for (const ir::Value* o : d->operands) work.push_back(o);
  }
  for (const auto& o : body.ops) {
    if (o.get() == &loop) break;
    if (may_leave(*o)) return inline_because("the kernel may return before the pipelined loop");
    if (slice.count(o.get())) s.producer_ops.push_back(o.get());
  }
  s.schedule = TmaSchedule::Specialized;
  bool returns = false;
  for (const auto& o : body.ops) returns = returns || may_leave(*o);
  // Ping-pong: each consumer skips the other's trips round the ring by its own tile's trip
  // count, so the count must be the same for every tile; layout conversions would share one
  // buffer between two consumers at different tiles.
  if (pl.pingpong_layout) {
    std::string why;
    if (returns) why = "the kernel may return";
    else if (!k.pipelines[0].resident.empty()) why = "a tile is loaded once before the loop (resident)";
    else if (opt.persistent == 0) why = "persistent=False (ping-pong consumers take alternate tiles of the persistent grid)";
    else if (depends_on_bid(loop.operands[0]) || depends_on_bid(loop.operands[1]) || depends_on_bid(loop.operands[2]))
      why = "the loop's trip count depends on bid()";
    else if (k.conversion_smem_vectorized)
      why = fmt::format("the kernel converts layouts through {} bytes of shared memory", k.conversion_smem_vectorized);
    else if (opt.cluster == 2) why = "cluster=2";
    if (why.empty()) {
      s.pingpong = true;
    } else {
      no_pingpong(why);
      wg = 1;
      consumer_register_counts(wg, entry, consumer);
    }
  }
  // One consumer warpgroup: ptxas 13.0 serializes its wgmma inside a tile loop (advisory C7518,
  // "compiler-inserted WG.DP in divergent path", branch persistent-wip of 2026-12-01), so those
  // kernels keep one CTA per tile.
  if (returns) s.why_not_persistent = "the kernel may return";
  else if (wg < 2) s.why_not_persistent = "one consumer warpgroup";
  // Resident tiles (attention's Q) on a persistent grid: reloaded per tile once the last tile's
  // wgmma have read them (TmaRing::issue_resident). Not the default until measured.
  else if (!k.pipelines[0].resident.empty() && opt.persistent != 1)
    s.why_not_persistent = "a tile is loaded once before the loop (resident)";
  else if (opt.persistent == 0) s.why_not_persistent = "persistent=False";
  s.persistent = s.why_not_persistent.empty();
  if (!s.persistent && opt.persistent == 1)
    k.warnings.push_back({Warning::Persistent, k.fn->sig.range,
                          fmt::format("persistent=True: the kernel keeps one CTA per tile on {}: {}", k.target.arch,
                                      s.why_not_persistent)});
  plan_cluster(k, loop);
  // With one consumer warpgroup the entry's registers (255) already exceed what setmaxnreg
  // would give; the count must not shrink below what the entry has (PTX ISA §9.7.17.1).
  if (consumer > entry) {
    s.producer_registers = 40;
    s.consumer_registers = consumer;
  }
}

const char* tma_schedule_name(TmaSchedule s) {
  switch (s) {
    case TmaSchedule::Inline: return "inline";
    case TmaSchedule::Specialized: return "warp-specialized";
  }
  return "?";
}

}  // namespace tilec::codegen::tma_wgmma
