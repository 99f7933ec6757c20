// histogram(t, nbins, mask=) (docs/language.md §7.8): the CTA's counts of each bin index in
// [0, nbins), accumulated in the shared-memory buffer of layout conversions, one word per bin.
//   1. every thread zeroes the bins its result registers hold (smem_store of the result
//      layout: each bin once); bar.sync;
//   2. one `red.shared.add.u32 [bin], 1` per element a thread holds, where the element is the
//      primary copy (thread 0 for a scalar), the mask holds and 0 <= index < nbins (one
//      unsigned compare: a negative index is a large unsigned one); bar.sync;
//   3. every thread reads its result registers (smem_load); bar.sync, so the next conversion
//      may reuse the buffer.
// Shared-memory atomics are native on every target (PTX ISA §9.7.12.7 red, .shared state
// space): equal bins from one warp serialize in the shared-memory unit, different bins proceed
// in parallel; the global counts are then one atomic per bin and CTA instead of one per element.
#include "codegen/ptx/histogram.h"

#include <fmt/format.h>

namespace tilec::codegen {

void HistogramEmitter::histogram(const ir::Op& op) {
  const ir::Value* idx = op.operands[0];
  const ir::Value* mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const ir::Value* dst = op.results[0];
  int64_t nbins = op.shape[0];
  bool wide = reg_class(idx->type.tile.dtype) == RegClass::B64;
  const Layout& out = cx_.k_.layout(dst);

  std::string zero = b_.reg(RegClass::B32);
  b_.ins("mov.b32", {zero, "0"});
  shape_.smem_store(std::vector<std::string>(size_t(out.regs_per_thread()), zero), out, DType::I32, {1}, 0);
  cx_.cta_barrier();

  std::string primary = cx_.primary_copy(idx);
  std::string base = b_.reg(RegClass::B32);
  b_.ins("mov.u32", {base, cx_.smem_});
  const std::vector<std::string>& in = cx_.regs(idx);
  for (size_t r = 0; r < in.size(); ++r) {
    std::string ok = b_.reg(RegClass::Pred), bin = in[r];
    b_.ins(wide ? "setp.lt.u64" : "setp.lt.u32", {ok, in[r], u32(nbins)});
    if (wide) {
      bin = b_.reg(RegClass::B32);
      b_.ins("cvt.u32.u64", {bin, in[r]});
    }
    if (mask) b_.ins("and.pred", {ok, ok, cx_.regs(mask)[r]});
    if (!primary.empty()) b_.ins("and.pred", {ok, ok, primary});
    std::string addr = b_.reg(RegClass::B32);
    b_.ins("mad.lo.u32", {addr, bin, "4", base});
    b_.ins_if(ok, "red.shared.add.u32", {"[" + addr + "]", "1"});
  }
  cx_.cta_barrier();

  cx_.regs_[dst] = shape_.smem_load(out, DType::I32, {1}, 0);
  cx_.cta_barrier();  // the buffer is free again for the next conversion
}

}  // namespace tilec::codegen
