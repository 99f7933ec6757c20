// Occupancy arithmetic and the register-cap policy (occupancy.h).
#include "codegen/occupancy.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "codegen/abi.h"

namespace tilec::codegen {
namespace {

constexpr int kRegistersPerSm = 64 * 1024;
constexpr int kWarpsPerSm = 64;
constexpr int kCtasPerSm = 32;
constexpr int kThreadGranule = 8;  // registers per thread are allocated 256 per warp

int round_up(int v, int m) { return (v + m - 1) / m * m; }

}  // namespace

int ctas_per_sm_by_registers(int registers, int threads) {
  int warps = std::max(1, (threads + 31) / 32);
  int per_warp = round_up(std::max(registers, 1), kThreadGranule) * 32;
  return std::min({kCtasPerSm, kWarpsPerSm / warps, kRegistersPerSm / (per_warp * warps)});
}

int occupancy_register_cap(int registers, int threads, double max_cut) {
  int warps = std::max(1, (threads + 31) / 32);
  int now = ctas_per_sm_by_registers(registers, threads);
  int want = now + 1;
  if (want > kCtasPerSm || want * warps > kWarpsPerSm) return 0;
  int cap = kRegistersPerSm / (want * warps * 32) / kThreadGranule * kThreadGranule;
  if (cap >= registers || cap < 32 || cap < (1.0 - max_cut) * registers) return 0;
  return cap;
}

std::map<std::string, int> register_caps(const std::vector<LoweredKernel>& lowered, const Cubin& cubin,
                                         int64_t smem_per_sm) {
  std::map<std::string, int> caps;
  for (const LoweredKernel& low : lowered) {
    const ir::Signature& k = low.fn->sig;
    if (k.options.max_registers || k.options.min_ctas_per_sm) continue;
    bool has_mma = false;
    ir::walk(low.fn->body, [&](ir::Op& op) { has_mma = has_mma || op.kind == ir::OpKind::Mma; });
    if (has_mma) continue;
    for (const EntryResources& r : cubin.resources) {
      if (r.entry != vectorized_entry(k.name) && r.entry != general_entry(k.name)) continue;
      if (r.spills()) continue;
      int cap = occupancy_register_cap(r.registers, low.threads());
      if (!cap) continue;
      int64_t smem = low.shared_bytes() + r.shared_bytes + 1024;
      if (smem_per_sm / smem < ctas_per_sm_by_registers(cap, low.threads())) continue;
      caps[r.entry] = cap;
    }
  }
  return caps;
}

bool assemble_for_occupancy(const CudaToolkit& tk, const AssembleOptions& opts, const std::vector<Target>& targets,
                            const std::vector<std::vector<LoweredKernel>>& lowered, const std::vector<std::string>& ptx,
                            const EmitWithCaps& emit, std::vector<AssembledModule>& out, std::string& error) {
  error.clear();
  size_t n = targets.size();
  // Per target: entry → .maxnreg.
  using RegisterCaps = std::vector<std::map<std::string, int>>;
  auto assemble = [&](const RegisterCaps& caps) {
    out.assign(n, AssembledModule{});
    for (size_t t = 0; t < n; ++t) {
      out[t].arch = targets[t].arch;
      if (caps[t].empty()) out[t].ptx = ptx[t];
      else if (!emit(t, caps[t], out[t].ptx)) return false;
    }
    for (size_t t = 0; t < n; ++t)
      if (!assemble_cubin(tk, out[t].ptx, out[t].arch, opts, out[t].cubin, error)) return false;
    return true;
  };
  RegisterCaps caps(n);
  if (!assemble(caps)) return false;

  // A memory-bound entry a few registers above a step of register-limited occupancy is
  // assembled again under a .maxnreg cap at the step, and keeps the cap unless it then spills.
  bool any = false;
  for (size_t t = 0; t < n; ++t) {
    caps[t] = register_caps(lowered[t], out[t].cubin, targets[t].max_shared_per_sm());
    any = any || !caps[t].empty();
  }
  while (any) {
    for (size_t t = 0; t < n; ++t)
      for (const auto& [entry, regs] : caps[t]) spdlog::trace("{} on {}: trying .maxnreg {}", entry, targets[t].arch, regs);
    if (!assemble(caps)) return false;
    // The caps whose entry does not spill once assembled under them.
    RegisterCaps kept = caps;
    any = false;
    for (size_t t = 0; t < n; ++t) {
      for (const EntryResources& r : out[t].cubin.resources)
        if (r.spills() && kept[t].erase(r.entry)) spdlog::trace("{} on {}: .maxnreg dropped, it spills", r.entry, targets[t].arch);
      any = any || !kept[t].empty();
    }
    if (kept == caps) break;
    // Some caps spilled: assemble again with the rest (with none left, once more without any).
    caps = kept;
    if (!any && !assemble(caps)) return false;
  }
  return true;
}

}  // namespace tilec::codegen
