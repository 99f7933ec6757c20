// Occupancy arithmetic and the register-cap policy (occupancy.h).
#include "codegen/toolchain/occupancy.h"

#include <algorithm>

#include <spdlog/spdlog.h>

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

std::map<std::string, int> register_caps(const std::vector<CapCandidate>& candidates, const Cubin& cubin,
                                         int64_t smem_per_sm) {
  std::map<std::string, int> caps;
  for (const CapCandidate& c : candidates) {
    for (const EntryResources& r : cubin.resources) {
      if (std::find(c.entries.begin(), c.entries.end(), r.entry) == c.entries.end()) continue;
      if (r.spills()) continue;
      int cap = occupancy_register_cap(r.registers, c.threads);
      if (!cap) continue;
      int64_t smem = c.shared_bytes + r.shared_bytes + 1024;
      if (smem_per_sm / smem < ctas_per_sm_by_registers(cap, c.threads)) continue;
      caps[r.entry] = cap;
    }
  }
  return caps;
}

namespace {

// One target's attempts: the uncapped module, then the module under `caps`, until a set of
// caps holds or none is left.
struct CapSearch {
  std::map<std::string, int> caps;  ///< the caps of the module being assembled
  std::string ptx;                  ///< that module
  size_t job = 0;                   ///< its job in the pool
  bool uncapped = true;             ///< the job is the first, uncapped assembly
  bool done = false;
  std::string error;                ///< ptxas's message, when an assembly failed
  double seconds = 0;               ///< the ptxas time of the attempts, one after another
};

}  // namespace

bool assemble_for_occupancy(PtxasPool& pool, const std::vector<Target>& targets,
                            const std::vector<std::vector<CapCandidate>>& candidates, const std::vector<std::string>& ptx,
                            const EmitWithCaps& emit, std::vector<AssembledModule>& out, std::string& error) {
  error.clear();
  size_t n = targets.size();
  out.assign(n, AssembledModule{});
  if (n == 0) return true;
  std::vector<CapSearch> search(n);
  std::vector<size_t> counted;  // jobs whose time a search has counted
  for (size_t t = 0; t < n; ++t) {
    out[t].arch = targets[t].arch;
    search[t].ptx = ptx[t];
    search[t].job = pool.submit(targets[t].arch, ptx[t]);
  }
  // The next attempt of target t once its job has finished; false when `emit` failed.
  auto step = [&](size_t t) {
    CapSearch& s = search[t];
    const PtxasResult& r = pool.result(s.job);
    if (std::find(counted.begin(), counted.end(), s.job) == counted.end()) {
      counted.push_back(s.job);
      s.seconds += r.seconds;
    }
    if (!r.ok) {
      s.error = r.error;
      s.done = true;
      return true;
    }
    std::map<std::string, int> next;
    if (s.uncapped) {
      // A memory-bound entry a few registers above a step of register-limited occupancy is
      // assembled again under a .maxnreg cap at the step, and keeps the cap unless it spills.
      s.uncapped = false;
      next = register_caps(candidates[t], r.cubin, targets[t].max_shared_per_sm());
      if (next.empty()) s.done = true;
    } else {
      next = s.caps;
      for (const EntryResources& e : r.cubin.resources)
        if (e.spills() && next.erase(e.entry)) spdlog::trace("{} on {}: .maxnreg dropped, it spills", e.entry, targets[t].arch);
      s.done = next == s.caps;
    }
    if (s.done) {
      out[t].ptx = s.ptx;
      out[t].cubin = r.cubin;
      return true;
    }
    // Try the caps left (none left: the uncapped module, which the pool has assembled).
    s.caps = next;
    for (const auto& [entry, regs] : s.caps) spdlog::trace("{} on {}: trying .maxnreg {}", entry, targets[t].arch, regs);
    if (s.caps.empty()) s.ptx = ptx[t];
    else if (!emit(t, s.caps, s.ptx)) return false;
    s.job = pool.submit(targets[t].arch, s.ptx);
    return true;
  };
  for (;;) {
    std::vector<size_t> waiting;
    for (size_t t = 0; t < n; ++t)
      if (!search[t].done) waiting.push_back(search[t].job);
    if (waiting.empty()) break;
    pool.wait_any(waiting);
    for (size_t t = 0; t < n; ++t)
      while (!search[t].done && pool.finished(search[t].job))
        if (!step(t)) return false;
  }

  size_t longest = 0;
  for (size_t t = 0; t < n; ++t) {
    if (search[t].seconds > search[longest].seconds) longest = t;
    if (error.empty() && !search[t].error.empty()) error = search[t].error;
  }
  spdlog::trace("ptxas: {} runs for {} modules ({} assembled before), at most {} at a time; longest chain {} ms ({})",
                pool.runs(), pool.submitted(), pool.submitted() - pool.runs(), pool.max_jobs(),
                int(search[longest].seconds * 1000 + 0.5), targets[longest].arch);
  return error.empty();
}

}  // namespace tilec::codegen
