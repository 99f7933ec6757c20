// What the tma_wgmma path's lowering steps (wgmma_fit.h and the steps' headers), its text
// (lowered_text.cpp) and its emitter share: the layout of wgmma's fragments, wgmma's k, the TMA
// box rule, and which mmas stay on mma.sync.
#pragma once

#include <string>
#include <vector>

#include "codegen/paths/tma_wgmma/plan.h"

namespace tilec::codegen::tma_wgmma {

/// The accumulator layout of wgmma m64nNk16 (PTX ISA §9.7.15.5.1, "Register fragments"): warp w
/// of the CTA holds rows 16w .. 16w+15 (warp w % 4 of warpgroup w / 4, which owns rows
/// 64 (w / 4) ..), and for each 8-column chunk j, lane l holds row l/4 (and l/4 + 8), columns
/// 8j + 2(l%4) + {0, 1}, in registers 4j .. 4j+3: the mma.sync m16n8 fragment repeated N/8
/// times, so it is an Mma layout with every warp along the rows. `shape[0]` must be
/// 16 * num_warps.
Layout wgmma_layout(const std::vector<int64_t>& shape, int num_warps);

/// The k of one wgmma instruction for operands of dtype `t` (PTX ISA §9.7.15.5.1): 32 bytes
/// of each row, so 16 for f16 and bf16, 32 for f8e4m3 and f8e5m2, 8 for tf32.
int64_t wgmma_k(DType t);

/// TMA boxes of the 128-byte swizzle fit `al`: whole 128-byte spans of each line, 8 to 256
/// lines in multiples of 8 (one swizzle pattern), arrays of at most 5 dimensions (PTX ISA
/// §9.7.9.25.5.1, cp.async.bulk.tensor; wgmma_fit.cpp).
bool tma_box_ok(const AsyncLoad& al);

/// The mmas of `k` that stay on mma.sync (not at the top of a pipelined loop's body
/// with that pipeline's loads as operands), in program order, and why one does, for messages:
/// "it runs under the if at line 13" (lowered_text.cpp; --emit=tir-lowered and -Wwgmma).
std::vector<const ir::Op*> sync_mmas(const LoweredKernel& k);
std::string why_mma_sync(const LoweredKernel& k, const ir::Op& mma);

}  // namespace tilec::codegen::tma_wgmma
