// Whether the pipelined mmas of a kernel fit wgmma with their operands by TMA (wgmma_fit.h):
// the loads are found by the step `pipelines` (lowering/pipelines.cpp), as for cp.async, with
// the resident tiles from Plan::plan_loop; this file checks them against what TMA and wgmma
// take, for the steps `tma-wgmma-plan` and `tma-wgmma-check`. The PTX is written by the emitter
// families (emitter.h).
#include "codegen/paths/tma_wgmma/wgmma_fit.h"

#include <algorithm>

#include <fmt/format.h>

#include "codegen/paths/tma_wgmma/lowering.h"
#include "codegen/paths/tma_wgmma/wgmma_registers.h"

namespace tilec::codegen::tma_wgmma {
namespace {

bool is_16bit_float(DType d) { return d == DType::F16 || d == DType::BF16; }
bool is_int8(DType d) { return d == DType::I8; }  // mma takes i8 x i8 -> i32 (check_builtins)

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

}  // namespace

int64_t wgmma_k(DType t) { return 32 / dtype_bytes(t); }

bool tma_box_ok(const AsyncLoad& al) {
  return al.pitch() % 128 == 0 && al.lines % 8 == 0 && al.lines <= 256 &&
         al.load->operands[0]->type.array->dims.size() <= 5;
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

}  // namespace tilec::codegen::tma_wgmma
