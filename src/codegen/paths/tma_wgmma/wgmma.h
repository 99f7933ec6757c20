// wgmma (wgmma.cpp; PTX ISA §9.7.15): the tma_wgmma path's mma, B (and A when it came by TMA
// too) read from the 128-byte-swizzled stages through matrix descriptors, A otherwise from
// registers (the RS form), the accumulator in registers in wgmma_layout.
#pragma once

#include <string>
#include <vector>

#include "codegen/paths/tma_wgmma/plan.h"
#include "codegen/ptx/context.h"

namespace tilec::codegen::tma_wgmma {

class WgmmaEmitter : FamilyEmitter {
 public:
  WgmmaEmitter(EmitContext& cx, const Plan& plan) : FamilyEmitter(cx), pl_(plan) {}

  /// An mma whose operands came by TMA (Plan::is_wgmma): wgmma.mma_async m64nNk16 per 16-deep
  /// k step with shared-memory descriptors, this warpgroup's 64 rows of the accumulator, then
  /// commit_group and wait_group 1.
  void wgmma(const ir::Op& op);
  /// `wgmma.wait_group n`, then, when n is 0 and the accumulators are read next, a fence that
  /// keeps ptxas from scheduling those reads above the wait: ptxas 13.0 hoisted the reads of a
  /// 128-register accumulator in the same basic block above WARPGROUP.DEPBAR (it tracked only
  /// the first register), and the last k steps went missing on the H200; tools/
  /// check_wgmma_sass.py checks the SASS for it.
  void wait(int n);

 private:
  /// Whether `mma`'s result is read only by its loop's yield (at `*slot` of the yield).
  bool yield_only(const ir::Op& mma, size_t* slot) const;
  /// For an accumulator that may stay in flight into the next iteration (its carried value is
  /// read there only after a wgmma that waits for every group): the loop-carried value whose
  /// registers it accumulates in; else null.
  const ir::Value* deferred_home(const ir::Op& mma) const;
  /// wgmma's A fragment from 16-bit registers in wgmma_layout: consecutive pairs packed into
  /// .b32 registers (four per k step); also an f16 accumulator's D (N/4 registers per thread).
  std::vector<std::string> pack(const std::vector<std::string>& halves);
  /// The inverse of pack: .b32 register i into halves 2i (low) and 2i + 1.
  void unpack(const std::vector<std::string>& packed, const std::vector<std::string>& halves);
  /// The 64-bit shared-memory matrix descriptor (PTX ISA §9.7.15.5.1.2) of a 128-byte-swizzled
  /// operand that starts at u32 shared address `addr`, with leading byte offset `lbo`.
  std::string descriptor(const std::string& addr, int64_t lbo, int64_t sbo = 1024);

  const Plan& pl_;
};

}  // namespace tilec::codegen::tma_wgmma
