// The general variant's store of a large mma accumulator through shared memory: the fragments
// are written row-major into the conversion buffer, then read back 16 bytes of a row per thread
// and stored element by element (memory.cpp's store_in_groups), one piece at a time. Stored
// straight from the fragments, each of the 128 values a thread holds needs a 64-bit address,
// and ptxas computes many of them ahead: with a 128x256 accumulator in 8 warps that took more
// than 255 registers and spilled (issue 20). From shared memory only one piece's values and
// addresses are live, and the global stores of a warp cover whole row pieces (coalesced)
// instead of 8 rows x 4 columns. Which stores go this way, and the bytes they take, the lowering
// decides (lowering/staging.h, plan_staged_stores).
#include "codegen/ptx/mma_sync.h"

#include <fmt/format.h>

namespace tilec::codegen {

bool MmaSyncEmitter::large_accumulator(const ir::Op& store) const {
  const ir::Value* v = store.operands[1];
  if (cx_.o_.vectorized || v->type.is_scalar()) return false;
  const Layout& l = cx_.k_.layout(v);
  return l.kind == Layout::Kind::Mma && l.regs_per_thread() >= 128;
}

bool MmaSyncEmitter::stores_accumulator(const ir::Op& store) const {
  return !cx_.o_.vectorized && cx_.k_.staged_stores.count(&store) > 0;
}

void MmaSyncEmitter::store_accumulator(const ir::Op& store) {
  const ir::Value* v = store.operands[1];
  const std::vector<int64_t>& shape = v->type.tile.shape;
  int rank = int(shape.size());
  DType dt = v->type.tile.dtype;
  int e = dtype_bytes(dt);
  // Rows padded by 16 bytes: the fragments' 8 rows x 4 words of one st.shared fall in 32
  // different banks (as for staged operands, mma_sync.cpp).
  int64_t pitch = shape.back() * e + 16;
  std::string base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {base, cx_.smem_});
  stage_operand(v, base, pitch);
  cx_.cta_barrier();

  // Read back in the blocked layout of 16 bytes per thread along the row: piece `first` is
  // registers first .. first + per of that layout, one ld.shared each.
  Layout rd = blocked_layout(shape, 16 / e, cx_.k_.num_warps);
  const ThreadCoords& tc = cx_.coords(rd);
  std::string addr = b_.reg(RegClass::B32), col = b_.reg(RegClass::B32);
  b_.ins("mad.lo.u32", {addr, tc.base[size_t(rank - 2)], u32(pitch), base});
  b_.ins("mul.lo.u32", {col, tc.base[size_t(rank - 1)], u32(e)});
  b_.ins("add.u32", {addr, addr, col});
  int per = rd.spt(rank - 1);
  RegClass c = reg_class(dt);
  memory_.store_in_groups(store, rd, per, [&](int64_t first) {
    std::vector<int64_t> off = rd.reg_offset(first);
    std::string at = fmt::format("[{}+{}]", addr, off[size_t(rank - 2)] * pitch + off[size_t(rank - 1)] * e);
    std::vector<std::string> out, words;
    for (int i = 0; i < per; ++i) out.push_back(b_.reg(c));
    // 16-bit elements travel two to a 32-bit word.
    if (e == 2)
      for (int i = 0; i < per; i += 2) words.push_back(b_.reg(RegClass::B32));
    const std::vector<std::string>& dst = e == 2 ? words : out;
    std::string ty = e == 8 ? "b64" : "b32";
    std::string opcode = dst.size() == 1 ? "ld.shared." + ty : fmt::format("ld.shared.v{}.{}", dst.size(), ty);
    b_.ins(opcode, {dst.size() == 1 ? dst[0] : "{" + fmt::format("{}", fmt::join(dst, ", ")) + "}", at});
    for (size_t i = 0; i < words.size(); ++i) b_.ins("mov.b32", {"{" + out[2 * i] + ", " + out[2 * i + 1] + "}", words[i]});
    return out;
  });
  // The conversion buffer is reused by the next op that needs it.
  cx_.cta_barrier();
}

}  // namespace tilec::codegen
