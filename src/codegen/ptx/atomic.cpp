// Atomics with element indices (language.md §6.3, docs/language.md §7.2.5): one relaxed,
// GPU-scope read-modify-write per element (PTX ISA §9.7.13.5 `atom`, §9.7.13.6 `red`), in
// one of three forms per dtype × operation × arch:
//   - native: `atom.relaxed.gpu.global.<op>.<type>`, or `red` (no result register) when no op
//     reads the old values;
//   - a compare-and-swap loop on the element itself (16, 32 or 64 bits, `atom.cas.b16/b32/b64`)
//     where PTX has no instruction: float max/min (PTX's only float max/min atomics are sm_90's
//     f16/bf16 ones, which return the non-NaN operand, while §6.5 propagates NaN), bf16 add
//     before sm_90, and every 16-bit operation but add and cas;
//   - a compare-and-swap loop on the aligned 16-bit halfword holding an 8-bit element (i8, u8,
//     bool), replacing only its byte (PTX has no 8-bit atomics). The other byte of the
//     halfword is read and written back unchanged, so an 8-bit array whose first or last byte
//     shares a halfword with memory outside it touches that byte (docs/language.md §7.2.5).
// Elements that are masked off or out of range do nothing and return 0. Only one thread does
// the atomic for an element that several threads hold (a replicated layout, a scalar); the
// others receive its old value through shared memory.
#include "codegen/ptx/atomic.h"

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

using ir::AtomicOp;

enum class How { Native, CasLoop, ByteLoop, Error };

// The table of docs/language.md §7.2.5.
How plan(AtomicOp a, DType d, int sm) {
  if (is_restricted(d)) return How::Error;
  if (d == DType::Bool) return a == AtomicOp::Xchg || a == AtomicOp::Cas ? How::ByteLoop : How::Error;
  int bits = dtype_bits(d);
  bool fl = is_float(d);
  if (bits == 8) return How::ByteLoop;
  if (fl && (a == AtomicOp::And || a == AtomicOp::Or || a == AtomicOp::Xor)) return How::Error;
  if (a == AtomicOp::Cas) return How::Native;  // cas.b16 (sm_70+), cas.b32, cas.b64
  if (bits == 16) {
    // atom.add.noftz.f16 needs sm_70, atom.add.noftz.bf16 sm_90 (ptxas: "requires .target sm_90").
    if (a == AtomicOp::Add && (d == DType::F16 || (d == DType::BF16 && sm >= 90))) return How::Native;
    return How::CasLoop;
  }
  if (fl && (a == AtomicOp::Max || a == AtomicOp::Min)) return How::CasLoop;
  return How::Native;
}

const char* ptx_op(AtomicOp a) {
  static const char* kOps[] = {"add", "max", "min", "and", "or", "xor", "exch", "cas"};
  return kOps[int(a)];
}

// The type suffix of the native instruction (plan: 16-bit dtypes only for f16/bf16 add, 8-bit
// ones never).
std::string native_type(AtomicOp a, DType d) {
  switch (a) {
    case AtomicOp::Add:
      if (is_half(d)) return "noftz." + ptx_type(d);
      // two's complement: the same bits for i64 (PTX has no add.s64)
      if (is_integer(d) && dtype_bits(d) == 64) return "u64";
      return ptx_arith_type(d);
    case AtomicOp::Max:
    case AtomicOp::Min: return ptx_arith_type(d);
    default: return ptx_bits_type(d);
  }
}

ir::OpKind binary_of(AtomicOp a) {
  switch (a) {
    case AtomicOp::Max: return ir::OpKind::Max;
    case AtomicOp::Min: return ir::OpKind::Min;
    case AtomicOp::And: return ir::OpKind::And;
    case AtomicOp::Or: return ir::OpKind::Or;
    case AtomicOp::Xor: return ir::OpKind::Xor;
    default: return ir::OpKind::Add;
  }
}

std::string builtin_name(AtomicOp a) { return std::string("atomic_") + ir::atomic_name(a); }

}  // namespace

void AtomicEmitter::atomic(const ir::Op& op) {
  const ir::Value* res = op.results[0];
  DType d = res->type.tile.dtype;
  AtomicOp a = op.atomic;
  How how = plan(a, d, cx_.o_.target.sm);
  if (how == How::Error) {
    cx_.error(op.loc, fmt::format("{} is not supported on {} arrays (docs/language.md §7.2.5 lists the dtypes of "
                                  "each atomic)",
                                  builtin_name(a), dtype_name(d)));
    return;
  }
  bool used = cx_.is_used(res);
  GatherEmitter::ElementAccess acc = gather_.element_access(op);
  const std::vector<std::string>& val = cx_.regs(op.operands[1]);
  const std::vector<std::string>* desired = a == AtomicOp::Cas ? &cx_.regs(op.operands[2]) : nullptr;
  const Layout* layout = res->type.is_scalar() ? nullptr : &cx_.k_.layout(res);
  std::string primary = cx_.primary_copy(res);  // one thread per element
  RegClass rc = reg_class(d);
  int bits = dtype_bits(d);
  bool narrow_int = is_integer(d) && bits == 16;  // held widened in a 32-bit register
  std::string w = ptx_bits_type(d);  // the CAS loop's word (16, 32 or 64 bits)
  RegClass wc = bits == 64 ? RegClass::B64 : bits == 16 ? RegClass::B16 : RegClass::B32;
  auto mov = [&](RegClass c) { return c == RegClass::B16 ? "mov.b16" : c == RegClass::B32 ? "mov.b32" : "mov.b64"; };
  auto to16 = [&](const std::string& r) {  // a widened 16-bit integer → its 16 bits
    std::string h = b_.reg(RegClass::B16);
    b_.ins("cvt.u16.u32", {h, r});
    return h;
  };
  auto from16 = [&](const std::string& h) {  // 16 bits → the widened register of dtype d
    std::string r = b_.reg(RegClass::B32);
    b_.ins(is_signed_int(d) ? "cvt.s32.s16" : "cvt.u32.u16", {r, h});
    return r;
  };
  std::string sem = "relaxed.gpu.global.";
  std::vector<std::string> out;
  for (size_t r = 0; r < acc.addr.size(); ++r) {
    std::string exec = acc.valid[r];
    if (!primary.empty()) {
      if (exec.empty()) {
        exec = primary;
      } else {
        std::string q = b_.reg(RegClass::Pred);
        b_.ins("and.pred", {q, exec, primary});
        exec = q;
      }
    }
    std::string addr = "[" + acc.addr[r] + "]";
    // The old value, 0 where the element is skipped.
    std::string old = b_.reg(rc);
    if (used) {
      if (rc == RegClass::Pred) b_.ins("setp.ne.u32", {old, "0", "0"});
      else b_.ins(mov(rc), {old, "0"});
    }
    if (how == How::Native) {
      std::string v = narrow_int ? to16(val[r]) : val[r];
      std::string type = native_type(a, d);
      bool has_red = a != AtomicOp::Xchg && a != AtomicOp::Cas;
      if (!used && has_red) {
        std::string ins = "red." + sem + ptx_op(a) + "." + type;
        b_.ins_if(exec, ins, {addr, v});
        out.push_back(old);
        continue;
      }
      std::string dst = narrow_int ? b_.reg(RegClass::B16) : old;
      if (narrow_int) b_.ins("mov.b16", {dst, "0"});
      std::string ins = "atom." + sem + ptx_op(a) + "." + type;
      std::vector<std::string> operands{dst, addr, v};
      if (desired) operands.push_back(narrow_int ? to16((*desired)[r]) : (*desired)[r]);
      b_.ins_if(exec, ins, operands);
      if (narrow_int && used) b_.ins("mov.b32", {old, from16(dst)});
      out.push_back(old);
      continue;
    }
    // Compare-and-swap loops: read, compute, swap if unchanged, retry with what was there.
    std::string done = b_.label_name("atomic_done"), loop = b_.label_name("atomic_retry");
    if (!exec.empty()) b_.ins_if("!" + exec, "bra", {done});
    if (how == How::CasLoop) {
      std::string cur = b_.reg(wc), prev = b_.reg(wc);
      b_.ins("ld." + sem + w, {cur, addr});
      b_.label(loop);
      std::string x = narrow_int ? from16(cur) : cur;  // the old value as dtype d holds it
      std::string next;
      if (a == AtomicOp::Xchg) next = narrow_int ? to16(val[r]) : val[r];
      else {
        next = arith_.binary_reg(binary_of(a), d, x, val[r]);
        if (narrow_int) next = to16(next);
      }
      b_.ins("atom." + sem + "cas." + w, {prev, addr, cur, next});
      std::string again = b_.reg(RegClass::Pred);
      b_.ins("setp.ne." + w, {again, prev, cur});
      b_.ins(mov(wc), {cur, prev});
      b_.ins_if(again, "bra", {loop});
      if (used) b_.ins(mov(rc), {old, x});
    } else {
      // 8-bit elements: CAS the aligned halfword that holds them (atom.cas.b16, sm_70+),
      // changing only their byte; the other byte is written back as it was read.
      std::string half = b_.reg(RegClass::B64), shift = b_.reg(RegClass::B32);
      b_.ins("and.b64", {half, acc.addr[r], "0xFFFFFFFFFFFFFFFE"});
      b_.ins("cvt.u32.u64", {shift, acc.addr[r]});
      b_.ins("and.b32", {shift, shift, "1"});
      b_.ins("shl.b32", {shift, shift, "3"});
      std::string cur = b_.reg(RegClass::B16), prev = b_.reg(RegClass::B16), cur32 = b_.reg(RegClass::B32);
      b_.ins("ld." + sem + "b16", {cur, "[" + half + "]"});
      b_.label(loop);
      b_.ins("cvt.u32.u16", {cur32, cur});
      std::string byte = b_.reg(RegClass::B32);
      b_.ins(d == DType::I8 ? "bfe.s32" : "bfe.u32", {byte, cur32, shift, "8"});
      std::string x = byte, next;
      if (d == DType::Bool) {
        // bools travel as predicates; in memory they are bytes 0 or 1
        x = b_.reg(RegClass::Pred);
        b_.ins("setp.ne.u32", {x, byte, "0"});
        std::string v = val[r];
        if (a == AtomicOp::Cas) {
          std::string ne = b_.reg(RegClass::Pred), take = b_.reg(RegClass::Pred), keep = b_.reg(RegClass::Pred);
          std::string np = b_.reg(RegClass::Pred), nv = b_.reg(RegClass::Pred);
          b_.ins("xor.pred", {ne, x, val[r]});  // old != expected
          b_.ins("not.pred", {np, ne});
          b_.ins("and.pred", {take, np, (*desired)[r]});
          b_.ins("and.pred", {keep, ne, x});
          b_.ins("or.pred", {nv, take, keep});
          v = nv;
        }
        next = b_.reg(RegClass::B32);
        b_.ins("selp.b32", {next, "1", "0", v});
      } else if (a == AtomicOp::Cas) {
        std::string eq = b_.reg(RegClass::Pred);
        next = b_.reg(RegClass::B32);
        b_.ins("setp.eq.b32", {eq, byte, val[r]});
        b_.ins("selp.b32", {next, (*desired)[r], byte, eq});
      } else if (a == AtomicOp::Xchg) {
        next = val[r];
      } else {
        next = arith_.binary_reg(binary_of(a), d, byte, val[r]);
      }
      std::string nword = b_.reg(RegClass::B32), nhalf = b_.reg(RegClass::B16);
      b_.ins("bfi.b32", {nword, next, cur32, shift, "8"});
      b_.ins("cvt.u16.u32", {nhalf, nword});
      b_.ins("atom." + sem + "cas.b16", {prev, "[" + half + "]", cur, nhalf});
      std::string again = b_.reg(RegClass::Pred);
      b_.ins("setp.ne.b16", {again, prev, cur});
      b_.ins("mov.b16", {cur, prev});
      b_.ins_if(again, "bra", {loop});
      if (used) {
        if (rc == RegClass::Pred) b_.ins("mov.pred", {old, x});
        else b_.ins("mov.b32", {old, x});
      }
    }
    b_.label(done);
    out.push_back(old);
  }
  if (!used) {
    cx_.regs_[res] = out;
    return;
  }
  // The copies of each element (other threads of a replicated layout, every thread for a
  // scalar) read the old value the one thread that did the atomic got.
  if (!layout) {
    int esz = rc == RegClass::B64 ? 8 : 4;
    std::string base = b_.reg(RegClass::B32);
    b_.ins("mov.u32", {base, cx_.smem_});
    std::string v = out[0];
    if (rc == RegClass::Pred) {
      v = b_.reg(RegClass::B32);
      b_.ins("selp.b32", {v, "1", "0", out[0]});
    }
    std::string st = esz == 8 ? "st.shared.b64" : rc == RegClass::B16 ? "st.shared.b16" : "st.shared.b32";
    b_.ins_if(primary, st, {"[" + base + "]", v});
    cx_.cta_barrier();
    std::string got = b_.reg(rc == RegClass::Pred ? RegClass::B32 : rc);
    b_.ins(esz == 8 ? "ld.shared.b64" : rc == RegClass::B16 ? "ld.shared.b16" : "ld.shared.b32", {got, "[" + base + "]"});
    cx_.cta_barrier();
    if (rc == RegClass::Pred) {
      std::string p = b_.reg(RegClass::Pred);
      b_.ins("setp.ne.u32", {p, got, "0"});
      got = p;
    }
    cx_.regs_[res] = {got};
    return;
  }
  if (primary.empty()) {
    cx_.regs_[res] = out;
    return;
  }
  std::vector<int64_t> rm = row_major_strides(res->type.tile.shape);
  shape_.smem_store(out, *layout, d, rm, 0);
  cx_.cta_barrier();
  cx_.regs_[res] = shape_.smem_load(*layout, d, rm, 0);
  cx_.cta_barrier();
}

}  // namespace tilec::codegen
