// mma on tensor cores with mma.sync (mma_sync.cpp): operands in shared memory, from a cp.async
// stage (cp_async.h) or staged from registers, fragments by ldmatrix or ld.shared.
#pragma once

#include <string>

#include "codegen/ptx/context.h"
#include "codegen/ptx/cp_async.h"

namespace tilec::codegen {

class MmaSyncEmitter : FamilyEmitter {
 public:
  MmaSyncEmitter(EmitContext& cx, CpAsyncPipeline& pipeline) : FamilyEmitter(cx), pipeline_(pipeline) {}

  /// a @ b + acc with mma.sync: each operand from the stage its async load filled (vectorized
  /// variant) or staged row-major in the conversion buffer; f8 needs sm_89.
  void mma(const ir::Op& op);

 private:
  /// An mma operand (a: M x K, b: K x N elements) in shared memory, stored as lines of `pitch`
  /// bytes from `base` (a u32 register): element (r, c) is in line r at position c
  /// (`contiguous_dim` 1) or in line c at position r (0). Swizzled lines follow
  /// swizzled_offset (layout.h); the others are plain (padded) rows.
  struct SmemOperand {
    std::string base;
    int esz = 2;
    int contiguous_dim = 1;
    int64_t pitch = 0;
    bool swizzled = false;
  };
  struct LaneAddress;
  /// Fragment loads and mma.sync instructions for `op` with its operands in shared memory.
  void mma_compute(const ir::Op& op, const SmemOperand& a, const SmemOperand& b);
  /// Writes tile `v` (2-D, any layout) row-major into shared memory at `base` (u32 register)
  /// with `pitch` bytes per row.
  void stage_operand(const ir::Value* v, const std::string& base, int64_t pitch);
  /// ldmatrix lane addresses of this warp: line (l%8) + 8*bit + warp_line, chunk bit' +
  /// warp_chunk, with (bit, bit') = ((l/8)%2, l/16), or (l/16, (l/8)%2) when line_bit_high.
  LaneAddress lane_address(const SmemOperand& s, bool line_bit_high, const std::string& warp_line,
                           const std::string& warp_chunk);
  /// The ldmatrix operand `line_off` lines and `chunk_off` chunks from the lane's address.
  std::string lane_at(LaneAddress& a, int64_t line_off, int64_t chunk_off);
  /// `[addr]` of operand element (r + r_off, c + c_off), r and c u32 registers.
  std::string smem_element(const SmemOperand& s, const std::string& r, int64_t r_off, const std::string& c,
                           int64_t c_off);

  CpAsyncPipeline& pipeline_;  ///< whose late sync runs inside the loop's last mma
};

}  // namespace tilec::codegen
