// Resource limits of one CTA: parameter space, registers per thread, shared memory per arch.
#include "codegen/lowering/limits.h"

#include <fmt/format.h>

#include "codegen/launch/entry_params.h"

namespace tilec::codegen {
namespace {

std::string kib(int64_t bytes) {
  return bytes % 1024 == 0 ? fmt::format("{} KiB", bytes / 1024) : fmt::format("{:.1f} KiB", double(bytes) / 1024);
}

// 32-bit registers per element: 64-bit dtypes take two, 16-bit ones may pack two to a register.
int64_t registers_for(int64_t elements, DType d) {
  int bits = dtype_bits(d);
  if (bits == 64) return 2 * elements;
  if (bits == 16) return (elements + 1) / 2;
  return elements;
}

}  // namespace

int64_t kernel_param_bytes(const ir::Signature& k) { return entry_param_bytes(entry_params(k)); }

void check_param_space(const ir::Signature& k, DiagnosticEngine& diag) {
  int64_t bytes = kernel_param_bytes(k);
  if (bytes <= kMaxParamBytes) return;
  diag.error(k.range, fmt::format("kernel '{}' takes {} bytes of parameters ({} parameters: each array passes "
                                       "its address and one stride per dimension); a kernel may take at most {} bytes",
                                       k.name, bytes, k.params.size(), kMaxParamBytes));
}

void check_registers(const LoweredKernel& low, DiagnosticEngine& diag) {
  const ir::Signature& k = low.fn->sig;
  // An SM has 64 Ki 32-bit registers: a CTA whose threads each get max_registers of them must
  // fit, or no launch can succeed.
  if (k.options.max_registers && int64_t(k.options.max_registers) * low.launch_threads() > 65536) {
    diag.error(k.range, fmt::format("max_registers={} with {} threads per CTA{} needs {} registers; an SM has 65536",
                                    k.options.max_registers, low.launch_threads(),
                                    low.path == CodePath::Portable ? "" : fmt::format(" (the {} path)", code_path_name(low.path)),
                                    int64_t(k.options.max_registers) * low.launch_threads()));
    return;
  }
  bool reported = false;
  ir::walk(low.fn->body, [&](ir::Op& op) {
    if (reported) return;
    for (const ir::Value* r : op.results) {
      auto it = low.layouts.find(r);
      if (r->type.is_array || it == low.layouts.end()) continue;
      int64_t regs = registers_for(it->second.regs_per_thread(), r->type.tile.dtype);
      if (regs <= kMaxRegistersPerThread) continue;
      diag.error(op.loc, fmt::format("{} needs {} registers per thread in kernel '{}' ({} warp{}, {} threads); a thread "
                                     "has at most {}: use smaller tiles or more warps (num_warps=)",
                                     r->type.str(), regs, k.name, low.num_warps, low.num_warps == 1 ? "" : "s",
                                     low.threads(), kMaxRegistersPerThread));
      reported = true;
      return;
    }
  });
}

void check_shared_memory(const LoweredKernel& low, const Target& t, DiagnosticEngine& diag) {
  const ir::Signature& k = low.fn->sig;
  int64_t limit = t.max_shared_per_cta(), bytes = low.shared_bytes();
  if (bytes <= limit) return;
  Diagnostic& d = diag.error(k.range, fmt::format("kernel '{}' needs {} bytes ({}) of shared memory per CTA for layout conversions, "
                                       "reductions, transposes, histograms and mma operands; {} allows at most {} bytes ({})",
                                       k.name, bytes, kib(bytes), t.arch, limit, kib(limit)));
  if (low.conversion_smem > limit && low.conversion_smem_loc.valid())
    DiagnosticEngine::note(d, low.conversion_smem_loc,
                           fmt::format("{} bytes ({}) of it for this operation", low.conversion_smem,
                                       kib(low.conversion_smem)));
}

}  // namespace tilec::codegen
