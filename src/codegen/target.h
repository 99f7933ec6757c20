// GPU targets: the architectures tilec emits for and the PTX ISA version each needs.
#pragma once

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

/// "8.0" from 80.
std::string ptx_version_text(int v);

}  // namespace tilec::codegen
