// cat and extract (docs/language.md §7.4) through the shared-memory buffer of layout
// conversions: the operands are written in row-major order of one shape, then every thread reads
// the elements its result registers hold. cat writes its two operands into the two halves of the
// result's row-major order; extract reads the sub-tile at a constant offset. The same two
// helpers move the old values of atomics to the threads that hold copies (atomic.cpp).
#include "codegen/ptx/shape.h"

#include <fmt/format.h>

namespace tilec::codegen {
namespace {

// Slot bytes: 8 for 64-bit values, 4 for the rest (16-bit values and bools widen to a word, as in
// convert_layout, so that consecutive elements fall in consecutive banks).
int slot_bytes(DType d) { return reg_class(d) == RegClass::B64 ? 8 : 4; }

}  // namespace

void ShapeEmitter::smem_store(const std::vector<std::string>& v, const Layout& l, DType d,
                              const std::vector<int64_t>& strides, int64_t offset) {
  const ThreadCoords& tc = cx_.coords(l);
  int esz = slot_bytes(d);
  RegClass c = reg_class(d);
  std::string lin = b_.reg(RegClass::B32), addr = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {lin, u32(offset)});
  for (int k = 0; k < l.rank(); ++k)
    if (strides[size_t(k)]) b_.ins("mad.lo.u32", {lin, tc.base[size_t(k)], u32(strides[size_t(k)]), lin});
  std::string base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {base, cx_.smem_});
  b_.ins("mad.lo.u32", {addr, lin, u32(esz), base});
  std::string st = c == RegClass::B64 ? "st.shared.b64" : c == RegClass::B16 ? "st.shared.b16" : "st.shared.b32";
  for (size_t r = 0; r < v.size(); ++r) {
    std::vector<int64_t> off = l.reg_offset(int64_t(r));
    int64_t o = 0;
    for (int k = 0; k < l.rank(); ++k) o += off[size_t(k)] * strides[size_t(k)];
    std::string x = v[r];
    if (c == RegClass::Pred) {
      x = b_.reg(RegClass::B32);
      b_.ins("selp.b32", {x, "1", "0", v[r]});
    }
    std::string a = fmt::format("[{}+{}]", addr, o * esz);
    if (tc.primary.empty()) b_.ins(st, {a, x});
    else b_.ins_if(tc.primary, st, {a, x});
  }
}

std::vector<std::string> ShapeEmitter::smem_load(const Layout& l, DType d, const std::vector<int64_t>& strides,
                                                 int64_t offset) {
  const ThreadCoords& tc = cx_.coords(l);
  int esz = slot_bytes(d);
  RegClass c = reg_class(d);
  std::string lin = b_.reg(RegClass::B32), addr = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {lin, u32(offset)});
  for (int k = 0; k < l.rank(); ++k)
    if (strides[size_t(k)]) b_.ins("mad.lo.u32", {lin, tc.base[size_t(k)], u32(strides[size_t(k)]), lin});
  std::string base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {base, cx_.smem_});
  b_.ins("mad.lo.u32", {addr, lin, u32(esz), base});
  std::string ld = c == RegClass::B64 ? "ld.shared.b64" : c == RegClass::B16 ? "ld.shared.b16" : "ld.shared.b32";
  std::vector<std::string> out;
  for (int64_t r = 0; r < l.regs_per_thread(); ++r) {
    std::vector<int64_t> off = l.reg_offset(r);
    int64_t o = 0;
    for (int k = 0; k < l.rank(); ++k) o += off[size_t(k)] * strides[size_t(k)];
    std::string a = fmt::format("[{}+{}]", addr, o * esz);
    if (c == RegClass::Pred) {
      std::string w = b_.reg(RegClass::B32), p = b_.reg(RegClass::Pred);
      b_.ins(ld, {w, a});
      b_.ins("setp.ne.u32", {p, w, "0"});
      out.push_back(p);
    } else {
      std::string x = b_.reg(c);
      b_.ins(ld, {x, a});
      out.push_back(x);
    }
  }
  return out;
}

void ShapeEmitter::cat(const ir::Op& op) {
  const ir::Value* a = op.operands[0];
  const ir::Value* b = op.operands[1];
  const ir::Value* dst = op.results[0];
  DType d = dst->type.tile.dtype;
  std::vector<int64_t> rm = row_major_strides(dst->type.tile.shape);
  // b starts where a's extent along the axis ends.
  int64_t second = a->type.tile.shape[size_t(op.axis)] * rm[size_t(op.axis)];
  smem_store(cx_.regs(a), cx_.k_.layout(a), d, rm, 0);
  smem_store(cx_.regs(b), cx_.k_.layout(b), d, rm, second);
  cx_.cta_barrier();
  cx_.regs_[dst] = smem_load(cx_.k_.layout(dst), d, rm, 0);
  cx_.cta_barrier();  // the buffer is free again for the next conversion
}

void ShapeEmitter::extract(const ir::Op& op) {
  const ir::Value* src = op.operands[0];
  const ir::Value* dst = op.results[0];
  DType d = dst->type.tile.dtype;
  std::vector<int64_t> rm = row_major_strides(src->type.tile.shape);
  // Result element c is source element index[k] * shape[k] + c[k].
  int64_t offset = 0;
  for (size_t k = 0; k < rm.size(); ++k) offset += op.order[k] * dst->type.tile.shape[k] * rm[k];
  smem_store(cx_.regs(src), cx_.k_.layout(src), d, rm, 0);
  cx_.cta_barrier();
  cx_.regs_[dst] = smem_load(cx_.k_.layout(dst), d, rm, offset);
  cx_.cta_barrier();
}

}  // namespace tilec::codegen
