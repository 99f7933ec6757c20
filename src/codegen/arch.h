// GPU architecture names (`sm_90a`) and which one's PTX goes into a fatbin.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// A real GPU architecture as ptxas names it: `sm_<major><minor>` with an optional suffix.
/// `a` (sm_90a, sm_100a) marks arch-specific features: its PTX runs only on exactly that arch.
/// `f` (sm_100f) marks family features: its PTX runs only within the family. (ptxas --help,
/// option --gpu-name; PTX ISA §"Target ISA notes".)
struct GpuArch {
  int number = 0;    ///< 10 * major + minor: 80, 90, 100, 120
  char suffix = 0;   ///< 0, 'a' or 'f'
  std::string name;  ///< as written: "sm_90a"
};

/// Parses `sm_<digits>[a|f]`; nullopt for anything else (`compute_90`, `sm90`, `sm_9x`). Whether
/// ptxas knows the number is for ptxas to say.
std::optional<GpuArch> parse_gpu_arch(std::string_view name);

/// The arch whose PTX a fatbin carries for forward compatibility: the newest of `archs` without
/// a suffix (an `a` or `f` PTX cannot be JIT-compiled for later GPUs). Empty when every arch has
/// a suffix or a name does not parse. Ties keep the first.
std::string forward_compatible_ptx_arch(const std::vector<std::string>& archs);

}  // namespace tilec
