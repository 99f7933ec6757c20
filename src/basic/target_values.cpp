#include "basic/target_values.h"

namespace tilec {

bool target_key_covers(std::string_view key, std::string_view arch) {
  return key == arch || (arch.size() == key.size() + 1 && (arch.back() == 'a' || arch.back() == 'f') &&
                          arch.substr(0, key.size()) == key);
}

std::optional<int> value_for_arch(const std::vector<TargetValue>& values, std::string_view option,
                                  std::string_view arch) {
  std::optional<int> covering;
  for (const TargetValue& v : values) {
    if (v.option != option) continue;
    if (v.arch == arch) return v.value;
    if (target_key_covers(v.arch, arch)) covering = v.value;
  }
  return covering;
}

}  // namespace tilec
