// GPU architecture names and the choice of the forward-compatible PTX.
#include "codegen/arch.h"

namespace tilec {

std::optional<GpuArch> parse_gpu_arch(std::string_view name) {
  constexpr std::string_view kPrefix = "sm_";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view rest = name.substr(kPrefix.size());
  GpuArch arch;
  size_t i = 0;
  for (; i < rest.size() && rest[i] >= '0' && rest[i] <= '9'; ++i) {
    if (arch.number > 100000) return std::nullopt;  // nonsense, and keeps int from overflowing
    arch.number = arch.number * 10 + (rest[i] - '0');
  }
  if (i < 2 || rest[0] == '0') return std::nullopt;  // two digits at least: major and minor
  if (i + 1 == rest.size() && (rest[i] == 'a' || rest[i] == 'f')) {
    arch.suffix = rest[i];
  } else if (i != rest.size()) {
    return std::nullopt;
  }
  arch.name = std::string(name);
  return arch;
}

std::string forward_compatible_ptx_arch(const std::vector<std::string>& archs) {
  std::optional<GpuArch> best;
  for (const std::string& name : archs) {
    std::optional<GpuArch> arch = parse_gpu_arch(name);
    if (!arch || arch->suffix) continue;
    if (!best || arch->number > best->number) best = arch;
  }
  return best ? best->name : std::string();
}

}  // namespace tilec
