// Resource limits of one CTA, checked before ptxas runs so that a kernel that cannot fit is a
// clear error at its source (not a ptxas failure, a spill storm or a minutes-long compile):
// kernel parameter space, registers per thread for each tile value, shared memory per arch.
#pragma once

#include <cstdint>

#include "basic/diagnostics.h"
#include "codegen/lowering/lower.h"
#include "codegen/target/target.h"

namespace tilec::codegen {

/// Bytes of kernel parameters the CUDA driver passes before CUDA 12.1 (PTX ISA < 8.1, which is
/// every target tilec emits for up to sm_90a): "CUDA kernel function parameters ... have been
/// limited to 4,096 bytes" (NVIDIA blog "CUDA 12.1 Supports Large Kernel Parameters"). ptxas
/// itself stops at 0x1100 bytes for those PTX versions.
constexpr int64_t kMaxParamBytes = 4096;

/// 32-bit registers one thread can address (PTX `.maxnreg` and ptxas both stop at 255).
constexpr int64_t kMaxRegistersPerThread = 255;

/// Bytes of the `.param` space the kernel's portable entry takes: its entry_params (without a
/// path's tensor maps, persistent grid or divisors), each at its natural alignment.
int64_t kernel_param_bytes(const ir::Signature& k);

/// Errors at the kernel's `def` when its parameters exceed kMaxParamBytes.
void check_param_space(const ir::Signature& k, DiagnosticEngine& diag);

/// Errors at the op that makes a tile value which needs more than kMaxRegistersPerThread
/// registers in every thread of the lowered kernel (first such value in program order; one
/// error per kernel).
void check_registers(const LoweredKernel& low, DiagnosticEngine& diag);

/// Errors at the kernel's `def` when its shared memory (LoweredKernel::shared_bytes: the
/// conversion buffer and the cp.async stages) does not fit one CTA on `t`
/// (Target::max_shared_per_cta).
void check_shared_memory(const LoweredKernel& low, const Target& t, DiagnosticEngine& diag);

}  // namespace tilec::codegen
