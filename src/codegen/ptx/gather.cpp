// gather and scatter with element indices (language.md §6.3, docs/language.md §7.2.3-7.2.4):
// one integer tile per array dimension, every element addressed on its own as
// base + sum(index_d * stride_bytes_d) in 64 bits (so i32 indices reach arrays past 2^31
// elements); an element whose index is negative or past the extent, or whose mask is false,
// reads the padding (gather) or writes nothing (scatter). No vector accesses: the indices are
// arbitrary. The address arithmetic is shared with the atomics (atomic.cpp).
#include "codegen/ptx/gather.h"

#include <map>

#include <fmt/format.h>

namespace tilec::codegen {

GatherEmitter::ElementAccess GatherEmitter::element_access(const ir::Op& op) {
  const ir::ArrayParam* arr = op.operands[0]->type.array;
  const ArrayRegs& ar = cx_.arrays_.at(arr);
  size_t first = 1 + size_t(ir::element_values(op));
  size_t rank = arr->dims.size();
  const ir::Value* shaped = op.kind == ir::OpKind::Scatter ? op.operands[1] : op.results[0];
  size_t n = shaped->type.is_scalar() ? 1 : size_t(cx_.k_.layout(shaped).regs_per_thread());
  // Per dimension and index register: the byte offset and the in-range predicate, computed
  // once (a broadcast index repeats one register across many elements).
  struct Part {
    std::string offset, valid;
  };
  std::vector<std::map<std::string, Part>> parts(rank);
  auto part = [&](size_t d, const ir::Value* iv, const std::string& reg) -> const Part& {
    auto it = parts[d].find(reg);
    if (it != parts[d].end()) return it->second;
    DType t = iv->type.tile.dtype;
    std::string w = reg;
    if (dtype_bits(t) < 64) {
      w = b_.reg(RegClass::B64);
      b_.ins(is_signed_int(t) ? "cvt.s64.s32" : "cvt.u64.u32", {w, reg});
    }
    // One unsigned compare checks both ends: a negative index is a huge unsigned number, and
    // the extent is a non-negative s64.
    Part p;
    p.valid = b_.reg(RegClass::Pred);
    b_.ins("setp.lt.u64", {p.valid, w, ar.extents[d]});
    p.offset = b_.reg(RegClass::B64);
    if (int64_t csb = ar.const_stride_bytes[d]) b_.ins("shl.b64", {p.offset, w, std::to_string(log2_exact(csb))});
    else b_.ins("mul.lo.s64", {p.offset, w, ar.stride_bytes[d]});
    return parts[d].emplace(reg, p).first->second;
  };
  ElementAccess a;
  for (size_t r = 0; r < n; ++r) {
    std::string addr = ar.base, valid;
    for (size_t d = 0; d < rank; ++d) {
      const ir::Value* iv = op.operands[first + d];
      const Part& p = part(d, iv, cx_.regs(iv)[r]);
      std::string sum = b_.reg(RegClass::B64);
      b_.ins("add.s64", {sum, addr, p.offset});
      addr = sum;
      if (valid.empty()) {
        valid = p.valid;
      } else {
        std::string q = b_.reg(RegClass::Pred);
        b_.ins("and.pred", {q, valid, p.valid});
        valid = q;
      }
    }
    if (ir::has_mask(op)) {
      const std::string& m = cx_.regs(op.operands.back())[r];
      if (valid.empty()) {
        valid = m;
      } else {
        std::string q = b_.reg(RegClass::Pred);
        b_.ins("and.pred", {q, valid, m});
        valid = q;
      }
    }
    a.addr.push_back(addr);
    a.valid.push_back(valid);
  }
  return a;
}

void GatherEmitter::gather(const ir::Op& op) {
  const ir::Value* res = op.results[0];
  DType d = res->type.tile.dtype;
  ElementAccess a = element_access(op);
  std::vector<std::string>& out = cx_.define(res);
  RegClass c = reg_class(d);
  std::string type = ptx_load_type(d);
  // Every thread reads its own registers, copies included: reads have no side effects.
  for (size_t r = 0; r < out.size(); ++r) {
    std::string addr = "[" + a.addr[r] + "]";
    const std::string& p = a.valid[r];
    if (c == RegClass::Pred) {
      // bool: a byte, then != 0; the padding where the element is not read.
      std::string w = b_.reg(RegClass::B32);
      b_.ins("mov.b32", {w, op.value.i ? "1" : "0"});
      b_.ins_if(p, "ld.global.u8", {w, addr});
      b_.ins("setp.ne.u32", {out[r], w, "0"});
      continue;
    }
    if (!p.empty()) {
      b_.ins(c == RegClass::B16 ? "mov.b16" : c == RegClass::B32 ? "mov.b32" : "mov.b64", {out[r], imm(d, op.value)});
      b_.ins_if(p, "ld.global." + type, {out[r], addr});
    } else {
      b_.ins("ld.global." + type, {out[r], addr});
    }
  }
}

void GatherEmitter::scatter(const ir::Op& op) {
  const ir::Value* val = op.operands[1];
  DType d = val->type.tile.dtype;
  ElementAccess a = element_access(op);
  const std::vector<std::string>& in = cx_.regs(val);
  std::string primary = cx_.primary_copy(val);  // one copy of each element writes
  std::string type = ptx_store_type(d);
  for (size_t r = 0; r < in.size(); ++r) {
    std::string v = in[r];
    if (d == DType::Bool) {
      v = b_.reg(RegClass::B32);
      b_.ins("selp.b32", {v, "1", "0", in[r]});
    }
    std::string p = a.valid[r];
    if (!primary.empty()) {
      if (p.empty()) {
        p = primary;
      } else {
        std::string q = b_.reg(RegClass::Pred);
        b_.ins("and.pred", {q, p, primary});
        p = q;
      }
    }
    std::string addr = "[" + a.addr[r] + "]";
    b_.ins_if(p, "st.global." + type, {addr, v});
  }
}

}  // namespace tilec::codegen
