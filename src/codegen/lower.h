// Lowering decisions for one kernel: warps per CTA, the layout of every tile value, and the
// shared memory the layout conversions need. `--emit=tir-lowered` prints them.
#pragma once

#include <map>
#include <string>

#include "codegen/layout.h"
#include "ir/ir.h"

namespace tilec::codegen {

struct LoweredKernel {
  ir::Function* fn = nullptr;
  int num_warps = 4;
  int threads() const { return num_warps * 32; }
  /// Elements per thread along the last dimension, per tile shape (16 bytes of the narrowest
  /// dtype loaded or stored with that shape).
  std::map<std::vector<int64_t>, int> vec;
  std::map<const ir::Value*, Layout> layouts;
  /// Bytes of shared memory for layout conversions (one buffer, reused).
  int64_t conversion_smem = 0;

  const Layout& layout(const ir::Value* v) const { return layouts.at(v); }
};

/// Bytes of shared memory an mma op stages its operands in (ptx/mma.cpp).
int64_t mma_staging_bytes(const ir::Op& op);

/// Chooses warps and layouts for `f`. `num_warps` 0 lets the compiler choose: enough warps
/// that each thread holds about 8-16 elements of the largest tile, at most 8 (at least 1).
LoweredKernel lower_kernel(ir::Function& f, int num_warps);

/// The IR with each value's layout and the launch choices (`--emit=tir-lowered`).
std::string print_lowered(const LoweredKernel& k);

}  // namespace tilec::codegen
