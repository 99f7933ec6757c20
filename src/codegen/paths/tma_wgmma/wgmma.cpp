// wgmma (PTX ISA §9.7.15): the tma_wgmma path's mma (wgmma.h). B is in 128-byte-swizzled shared
// memory where TMA put it (ring.cpp) and is read through a 64-bit matrix descriptor; so is A when
// it came by TMA too, else A is in registers (the RS form: a value computed in the loop, such
// as attention's probabilities, or one loaded once before it); the accumulator is in registers, in wgmma_layout (codegen/lowering/layout.h): warpgroup
// g owns rows 64g .. 64g+63, and one m64nNk instruction per k step covers them (k = 32 bytes
// of a row: 16 for f16 and bf16, 32 for f8e4m3, f8e5m2 and i8, 8 for tf32; all but the
// 16-bit types take A by TMA).
//
// f16 accumulators (the .f16.f16.f16 form, f16 operands only; PTX ISA §9.7.15.5.1): D is N/4
// .b32 registers per thread, register i packing elements 2i (low half) and 2i + 1 of the f32
// form's fragment, two adjacent columns of one row. The tile keeps one .b16 register per
// element (wgmma_layout, as every other op reads it): the pairs are packed before the
// instructions and unpacked after wait_group 0, so no f16 group stays in flight. Keeping a
// loop-carried accumulator packed through the whole loop, with one group in flight, measured
// the same on the H200 (bench/results/2026-12-02-wgmma-f16-acc-h200.md: within the run-to-run
// spread at 4096^3 and 8192^3), so the simpler form is the one here.
//
// Descriptor facts (PTX ISA "Matrix Descriptor Format"; checked on the H200 by
// bench/hopper_proto): bits 0-13 start address >> 4, 16-29 leading byte offset >> 4, 32-45
// stride byte offset >> 4, 62-63 swizzle (1 = 128 bytes). With 128-byte lines the stride byte
// offset is 1024 (8 lines). A K-major operand (K along the lines: A[M,K], B[N,K]) steps k by 32
// bytes inside a line's 128 bytes and by a box (lines x 128 bytes) every 128 bytes of K; its
// leading byte offset is unused. An MN-major operand (M or N along the lines: B[K,N]) steps k
// by 16 lines (2048 bytes); its leading byte offset is the distance between 64-element boxes,
// and the instruction's transpose bit is set (16-bit types only: the 8-bit and tf32 forms have
// no transpose operands and take K-major operands only).
#include "codegen/paths/tma_wgmma/wgmma.h"

#include <algorithm>

#include <fmt/format.h>

#include "codegen/paths/tma_wgmma/lowering.h"

namespace tilec::codegen::tma_wgmma {

std::string WgmmaEmitter::descriptor(const std::string& addr, int64_t lbo, int64_t sbo) {
  std::string lo = b_.reg(RegClass::B32), hi = b_.reg(RegClass::B32), desc = b_.reg(RegClass::B64);
  b_.ins("bfe.u32", {lo, addr, "4", "14"});
  b_.ins("or.b32", {lo, lo, u32((lbo >> 4) << 16)});
  // High word: stride byte offset >> 4 (1024 >> 4 = 64 for 8 consecutive lines), swizzle mode 1
  // (128 bytes) in bits 62-63.
  b_.ins("mov.b32", {hi, u32((uint64_t(1) << 30) | uint64_t(sbo >> 4))});
  b_.ins("mov.b64", {desc, "{" + lo + ", " + hi + "}"});
  return desc;
}

void WgmmaEmitter::wgmma(const ir::Op& op) {
  cx_.need_ptx(80);
  const ir::Value* A = op.operands[0];
  const ir::Value* B = op.operands[1];
  const ir::Value* C = op.operands[2];
  const AsyncLoad* la = cx_.k_.async_load(A);  // null: A is in registers (the RS form)
  const AsyncLoad& lb = *cx_.k_.async_load(B);
  int64_t N = C->type.tile.shape[1], K = A->type.tile.shape[1];
  DType t = A->type.tile.dtype;
  bool f16_acc = C->type.tile.dtype == DType::F16;

  // The accumulator: updated in place when this mma is its only reader (the loop-carried
  // value), so no copy touches registers a wgmma in flight writes; else a fresh copy. A splat
  // (one register for every element) always gets fresh registers; a splat of zero needs no
  // copy at all: the first k step runs with scale-d false (D = A B).
  bool zero_init = false, splat = C->def && C->def->kind == ir::OpKind::Splat;
  if (splat) {
    const ir::Value* x = C->def->operands[0];
    zero_init = x->def && x->def->kind == ir::OpKind::Constant && x->def->value.i == 0 && x->def->value.f == 0.0;
  }
  const ir::Value* home = f16_acc ? nullptr : deferred_home(op);  // an f16 group never stays in flight
  if (home) {
    // Accumulated in the loop-carried registers themselves, so the yield moves nothing while
    // the group is still in flight (deferred_home).
    const std::vector<std::string>& dst = cx_.regs(home);
    const std::vector<std::string>& cin = cx_.regs(C);
    for (size_t i = 0; i < dst.size(); ++i)
      if (dst[i] != cin[i]) b_.ins("mov.b32", {dst[i], cin[i]});
    cx_.regs_[op.results[0]] = dst;
  } else if (cx_.use_count_[C] == 1 && !splat) {
    cx_.regs_[op.results[0]] = cx_.regs(C);
  } else {
    std::vector<std::string>& acc = cx_.define(op.results[0]);
    const std::vector<std::string>& cin = cx_.regs(C);
    if (!zero_init && !f16_acc)
      for (size_t i = 0; i < acc.size(); ++i) b_.ins("mov.b32", {acc[i], cin[i]});
  }
  const std::vector<std::string>& d = cx_.regs(op.results[0]);
  std::vector<std::string> packed;  // f16: the .b32 pairs the instructions update
  if (f16_acc && zero_init)
    for (int64_t i = 0; i < N / 4; ++i) packed.push_back(b_.reg(RegClass::B32));
  else if (f16_acc)
    packed = pack(cx_.regs(C));

  bool a_kmajor = la && la->contiguous_dim == 1, b_kmajor = lb.contiguous_dim == 0;
  std::string da;
  std::vector<std::string> a_regs;  // RS: per k step, the four .b32 registers of A's fragment
  // m64 instructions per k step: a warpgroup holds `reps` x 64 rows of the accumulator
  // (wgmma_layout: warp w of the warpgroup rows 16 reps w .. 16 reps (w + 1) - 1). Instruction q
  // reads the 8-line groups q, q + reps, q + 2 reps, ... of the warpgroup's part of A (K-major
  // only, consumers_fit: stride byte offset reps x 1024), so that lane l of warp w gets the rows
  // of its own block: 8-line groups 2 reps w + q and 2 reps w + q + reps of the warpgroup's rows.
  const std::vector<int64_t>& c_shape = C->type.tile.shape;
  int64_t reps = c_shape[0] / 64 / std::max(cx_.k_.num_warps / 4, 1);
  if (reps > 1 && !a_kmajor) return cx_.error(op.loc, "internal: several m64 wgmma per warpgroup need a K-major A");
  if (la) {
    // This warpgroup's part of A: its 64 reps rows. K-major A: 64 reps lines of 128 bytes per
    // warpgroup; M-major A: one 64-element box each.
    std::string wg = b_.reg(RegClass::B32), a0 = b_.reg(RegClass::B32);
    b_.ins("shr.u32", {wg, cx_.tid_, "7"});
    // The same in every lane, said so by a shuffle from lane 0 (as CUTLASS's
    // canonical_warp_group_idx): ptxas then keeps the descriptors in uniform registers instead
    // of moving each one there (R2UR) before every wgmma.
    b_.ins("shfl.sync.idx.b32", {wg, wg, "0", "31", "-1"});
    b_.ins("mad.lo.u32", {a0, wg, u32(a_kmajor ? reps * 64 * 128 : la->box_bytes()), cx_.async_base_.at(la)});
    da = descriptor(a0, a_kmajor ? 16 : la->box_bytes(), 1024 * reps);
  } else {
    // A in wgmma_layout (the accumulator fragment layout, which is also wgmma's A fragment
    // layout, PTX ISA §9.7.15.5.1): registers 8 kk .. 8 kk + 7 are the elements of k step kk
    // in the order a0 .. a7 (rows g, g + 8; columns 2 (l%4) + {0, 1}, + 8), packed in pairs.
    // Packed here, every time, also for a value from before the loop (Q): ptxas 13.0 reused
    // the registers of a loop-invariant register A operand for other values inside the loop
    // (found on the H200: attention with D = BN lost Q after the first iteration; Triton
    // reports the same class of bug, fixed in CUDA 13.3's ptxas).
    a_regs = pack(cx_.regs(A));
  }
  std::string db = descriptor(cx_.async_base_.at(&lb), b_kmajor ? 16 : lb.box_bytes());
  // Byte offset of k step kk from the operand's start: K-major, 32 bytes of a line per step
  // (every dtype's k) and a box per 128 bytes; MN-major (16-bit only), 16 lines per step.
  int64_t k_step = wgmma_k(t);
  auto k_offset = [&](const AsyncLoad& al, bool kmajor, int64_t kk) {
    if (kmajor) return (kk * 32 / 128) * al.box_bytes() + kk * 32 % 128;
    return kk * k_step * 128;
  };
  // Instruction q's D fragment (PTX ISA §9.7.15.5.1, m64nNk: per 8 columns j, rows g and g + 8
  // of the warp's 16, columns 2 (l % 4) + {0, 1}) in the layout's registers: its rows g and
  // g + 8 are the warp's 8-line groups q and q + reps, i.e. (mma_layout) instruction tile rm =
  // group / 2, half = group % 2; f16 packs the two columns into one register.
  std::vector<std::string> acc_lists;
  const std::vector<std::string>& flat = f16_acc ? packed : d;
  for (int64_t q = 0; q < reps; ++q) {
    std::vector<std::string> list;
    for (int64_t j = 0; j < N / 8; ++j)
      for (int64_t h = 0; h < 2; ++h) {
        int64_t group = q + reps * h, first = ((group / 2) * (N / 8) + j) * 4 + (group % 2) * 2;
        if (f16_acc) list.push_back(flat[size_t(first / 2)]);
        else list.insert(list.end(), {flat[size_t(first)], flat[size_t(first + 1)]});
      }
    acc_lists.push_back("{" + fmt::format("{}", fmt::join(list, ", ")) + "}");
  }
  std::string scale_d = b_.reg(RegClass::Pred), first_scale_d = scale_d;
  b_.ins("setp.eq.u32", {scale_d, cx_.tid_, cx_.tid_});  // accumulate: D = A B + D
  if (zero_init) {
    first_scale_d = b_.reg(RegClass::Pred);
    b_.ins("setp.ne.u32", {first_scale_d, cx_.tid_, cx_.tid_});  // D = A B
  }
  // e4m3 and e5m2 may pair (the b type is its own); the 8-bit and tf32 forms
  // have no transpose immediates (wgmma_plan_ok took only K-major operands for them), and the
  // integer forms no scale immediates either: `d, a-desc, b-desc, scale-d` (PTX ISA
  // §9.7.15.5.2, the .s32 forms).
  bool has_trans = dtype_bits(t) == 16, integer = is_integer(t);
  std::string opcode = fmt::format("wgmma.mma_async.sync.aligned.m64n{}k{}.{}.{}.{}", N, k_step,
                                   f16_acc ? "f16" : integer ? "s32" : "f32", ptx_type(t),
                                   ptx_type(B->type.tile.dtype));
  b_.ins("wgmma.fence.sync.aligned", {});
  for (int64_t kk = 0; kk < K / k_step; ++kk)
   for (int64_t q = 0; q < reps; ++q) {
    const std::string& acc_list = acc_lists[size_t(q)];
    std::string dak = da, dbk = db;
    // Instruction q starts q 8-line groups (1024 bytes) into the warpgroup's rows.
    if (int64_t off = la ? k_offset(*la, a_kmajor, kk) + q * 1024 : 0) {
      dak = b_.reg(RegClass::B64);
      b_.ins("add.s64", {dak, da, std::to_string(off >> 4)});
    }
    if (int64_t off = k_offset(lb, b_kmajor, kk)) {
      dbk = b_.reg(RegClass::B64);
      b_.ins("add.s64", {dbk, db, std::to_string(off >> 4)});
    }
    std::string sd = kk == 0 ? first_scale_d : scale_d;
    if (la && integer) {
      b_.ins(opcode, {acc_list, dak, dbk, sd});
    } else if (la && !has_trans) {
      b_.ins(opcode, {acc_list, dak, dbk, sd, "1", "1"});
    } else if (la) {
      b_.ins(opcode, {acc_list, dak, dbk, sd, "1", "1", a_kmajor ? "0" : "1", b_kmajor ? "0" : "1"});
    } else {
      std::string a = fmt::format("{{{}, {}, {}, {}}}", a_regs[size_t(4 * kk)], a_regs[size_t(4 * kk + 1)],
                                  a_regs[size_t(4 * kk + 2)], a_regs[size_t(4 * kk + 3)]);
      b_.ins(opcode, {acc_list, a, dbk, sd, "1", "1", b_kmajor ? "0" : "1"});
    }
  }
  b_.ins("wgmma.commit_group.sync.aligned", {});
  if (f16_acc) {
    // The elements are unpacked from the registers the group writes: it must have finished.
    wait(0);
    unpack(packed, d);
    return;
  }
  // The group may stay in flight through the rest of the iteration only when nothing reads the
  // accumulator before the next wgmma on it: its one use is the loop's yield (the result lives
  // on in the same registers). Any other reader (a reshape, an elementwise op) waits for it.
  // Likewise the accumulator must come straight from the loop-carried value, which nothing
  // else reads: an op on it at the top of the next iteration (acc * 0.5, an if that resets it)
  // would read registers the group in flight still writes. A register A operand (the RS form)
  // keeps the group from staying in flight: the next iteration writes A's registers again before
  // its own wgmma, and writing a register an unfinished wgmma reads is undefined (PTX ISA
  // §9.7.15.5.1); ptxas 13.0 took it at its word and gave A's physical registers to the next
  // iteration's address arithmetic while the group still read them (wrong products, found on an
  // H100: an A loaded at unaligned run-time offsets). deferred_home keeps such a group in flight
  // only where a wgmma that waits for every group runs first in the next iteration.
  bool carried = la && yield_only(op, nullptr) && !C->def && C->owner == op.parent && cx_.use_count_[C] == 1;
  wait(carried || home ? 1 : 0);
}

bool WgmmaEmitter::yield_only(const ir::Op& mma, size_t* slot) const {
  const ir::Op& last = *mma.parent->ops.back();
  if (cx_.use_count_.count(mma.results[0]) == 0 || cx_.use_count_.at(mma.results[0]) != 1 || last.kind != ir::OpKind::Yield)
    return false;
  auto it = std::find(last.operands.begin(), last.operands.end(), mma.results[0]);
  if (it == last.operands.end()) return false;
  if (slot) *slot = size_t(it - last.operands.begin());
  return true;
}

const ir::Value* WgmmaEmitter::deferred_home(const ir::Op& mma) const {
  // An accumulator that is only yielded (attention's O += P V) can stay in flight into the next
  // iteration when every read of the carried value there comes after a wgmma of the body that
  // waits for all groups (the next S = Q K^T): that wait finishes this group too. Its stage is
  // released one iteration later anyway (tma_advance). The register A operand (P) stays
  // in flight with it: A from before the loop (a register Q) is not allowed, because ptxas
  // 13.0 gave a loop-invariant register A's registers to P (wrong results on the H200).
  size_t slot = 0;
  const ir::Block& body = *mma.parent;
  const ir::Op* loop = body.parent;
  if (!loop || loop->kind != ir::OpKind::For || !yield_only(mma, &slot)) return nullptr;
  const ir::Value* C = mma.operands[2];
  if (!C->def && C->owner == &body) return nullptr;  // the in-place case (wait_group 1 already)
  const ir::Value* carried = body.args[slot + 1];
  bool invariant_a = false;
  ir::walk(const_cast<ir::Block&>(body), [&](ir::Op& o) {
    const ir::Value* a = o.kind == ir::OpKind::Mma && pl_.is_wgmma(cx_.k_, o) ? o.operands[0] : nullptr;
    invariant_a = invariant_a || (a && !cx_.k_.async_load(a) && !(a->def ? a->def->parent == &body : a->owner == &body));
  });
  if (invariant_a) return nullptr;
  // The wgmma that waits for every group must come before this one in the body: until it has
  // run, the group of the previous iteration still reads this mma's register A and writes its
  // accumulator, so neither may be written (A packed, the accumulator copied home) before it.
  for (const auto& o : body.ops) {
    if (o.get() == &mma) return nullptr;
    if (o->kind == ir::OpKind::Mma && pl_.is_wgmma(cx_.k_, *o) && !yield_only(*o, nullptr)) return carried;
    bool reads = false;
    auto check = [&](const ir::Op& x) {
      for (const ir::Value* v : x.operands) reads = reads || v == carried;
    };
    check(*o);
    for (const auto& r : o->regions) ir::walk(*r, [&](ir::Op& x) { check(x); });
    if (reads) return nullptr;
  }
  return nullptr;
}

std::vector<std::string> WgmmaEmitter::pack(const std::vector<std::string>& halves) {
  std::vector<std::string> out;
  for (size_t i = 0; i + 1 < halves.size(); i += 2) {
    std::string r = b_.reg(RegClass::B32);
    b_.ins("mov.b32", {r, "{" + halves[i] + ", " + halves[i + 1] + "}"});
    out.push_back(r);
  }
  return out;
}

void WgmmaEmitter::unpack(const std::vector<std::string>& packed, const std::vector<std::string>& halves) {
  for (size_t i = 0; i < packed.size(); ++i)
    b_.ins("mov.b32", {"{" + halves[2 * i] + ", " + halves[2 * i + 1] + "}", packed[i]});
}

void WgmmaEmitter::wait(int n) {
  b_.ins("wgmma.wait_group.sync.aligned", {std::to_string(n)});
  if (n == 0) b_.ins("fence.acq_rel.cta", {});
}

}  // namespace tilec::codegen::tma_wgmma
