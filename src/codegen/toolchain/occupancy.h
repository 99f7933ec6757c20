// Register-limited occupancy, the register cap that buys one more CTA per SM, and the policy
// that assembles each target's module under the caps that pay off. It knows entries by name
// and what ptxas reports for them; which entries may be capped the backend says
// (CapCandidate), so the toolchain sees no lowered kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "codegen/target/target.h"
#include "codegen/toolchain/ptxas_pool.h"
#include "codegen/toolchain/toolchain.h"

namespace tilec::codegen {

/// Resident CTAs per SM that `registers` per thread allow for CTAs of `threads` threads: the
/// register file holds 64 Ki 32-bit registers, allocated per warp in units of 256 (8 per
/// thread); at most 64 warps and 32 CTAs per SM (sm_80 to sm_90; CUDA C++ Programming Guide,
/// "Compute Capabilities", and the CUDA Occupancy Calculator). Shared memory is not counted.
int ctas_per_sm_by_registers(int registers, int threads);

/// For a kernel whose CTAs are limited by registers: the largest per-thread count (a multiple
/// of 8) below `registers` that fits one more CTA per SM, when it is at least
/// (1 - max_cut) * registers and at least 32; 0 when there is none (no cliff nearby, or the
/// warp or CTA limit binds first). 66 registers at 256 threads: 3 CTAs per SM; the cap 64
/// gives 4.
int occupancy_register_cap(int registers, int threads, double max_cut = 0.1);

/// Entries of one kernel whose registers may be capped: the backend names those of kernels
/// without mma (memory-bound: resident warps hide their latency) and without max_registers or
/// min_ctas_per_sm options (backend.h cap_candidates).
struct CapCandidate {
  std::vector<std::string> entries;  ///< the entry names
  int threads = 0;                   ///< threads per CTA
  int64_t shared_bytes = 0;          ///< dynamic shared memory per CTA
};

/// The .maxnreg caps (entry name → registers) worth trying for the entries of `cubin` that
/// `candidates` name: those that do not spill, whose ptxas register count sits just above a
/// step of register-limited occupancy (occupancy_register_cap), and whose shared memory still
/// fits the extra CTA (`smem_per_sm` bytes per SM, 1 KiB reserved per CTA).
std::map<std::string, int> register_caps(const std::vector<CapCandidate>& candidates, const Cubin& cubin,
                                         int64_t smem_per_sm);

/// Emits target `t`'s PTX module (t indexes the targets) with a `.maxnreg` for each entry of
/// `caps` (entry name → registers). False after an error, which the emitter has reported.
using EmitWithCaps = std::function<bool(size_t t, const std::map<std::string, int>& caps, std::string& ptx)>;

/// One target's module as assembled: the PTX (with the caps kept) and its cubin.
struct AssembledModule {
  std::string arch;
  std::string ptx;
  Cubin cubin;
};

/// Assembles every target's module (`ptx[t]`, emitted without caps, for `targets[t]`, whose
/// entries `candidates[t]` may be capped) in `pool`, and for the entries register_caps picks on a target
/// tries the module again under the caps: a cap that makes its entry spill is dropped and the
/// module is assembled with the caps left (caps only shrink, so this ends; with none left, the
/// uncapped module is the result, which the pool has already assembled). Each target's
/// attempts follow one another; the targets' run side by side. `out[t]` holds each target's
/// final PTX and cubin, whatever order the runs finish in. False with `error` holding ptxas's
/// message for the first target (in `targets` order) whose assembly failed, or with `error`
/// empty when `emit` fails.
bool assemble_for_occupancy(PtxasPool& pool, const std::vector<Target>& targets,
                            const std::vector<std::vector<CapCandidate>>& candidates, const std::vector<std::string>& ptx,
                            const EmitWithCaps& emit, std::vector<AssembledModule>& out, std::string& error);

}  // namespace tilec::codegen
