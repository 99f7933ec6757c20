// GPU targets: the architectures tilec emits for and the PTX ISA version each needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tilec::codegen {

/// One -arch value. `ptx_version` is the lowest PTX ISA version ptxas accepts for it (PTX ISA
/// "Release notes" / the .target table; checked with ptxas 13.0): sm_80 7.0, sm_86 7.1,
/// sm_87 7.4, sm_89 7.8, sm_90 7.8, sm_90a 8.0, sm_100/100a 8.6, sm_120 8.7, sm_103 8.8,
/// sm_121 8.8, sm_110 9.0.
struct Target {
  std::string arch;   ///< "sm_90a"
  int sm = 90;        ///< 90
  bool arch_specific = false;  ///< the `a` suffix: runs only on exactly this compute capability
  int ptx_version = 78;        ///< major*10 + minor
};

/// Parses "sm_90a"; nullopt for an unknown or unsupported (older than sm_80) architecture.
std::optional<Target> parse_target(const std::string& arch);

/// The most shared memory one CTA can use on compute capability `sm`, in bytes, after opting
/// in with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (CUDA C Programming Guide,
/// "Technical Specifications per Compute Capability"): 163 KB on sm_80/87, 99 KB on
/// sm_86/89/120/121, 227 KB on sm_90/100/103/110.
int64_t max_shared_per_cta(int sm);
/// Shared memory of one SM: the per-CTA maximum plus the 1 KiB the hardware reserves per CTA.
int64_t max_shared_per_sm(int sm);

/// "8.0" from 80.
std::string ptx_version_text(int v);

}  // namespace tilec::codegen
