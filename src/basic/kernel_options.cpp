// The @kernel option table (kernel_options.h): its rows, rule texts and per-arch resolution.
#include "basic/kernel_options.h"

#include <fmt/format.h>

namespace tilec {

std::string OptionRule::text() const {
  if (!powers_of_two) return fmt::format("between {} and {}", lo, hi);
  std::string s = "one of";
  for (int v = lo; v <= hi; v *= 2) s += fmt::format("{} {}", v == lo ? "" : ",", v);
  return s;
}

std::span<const KernelOptionInfo> kernel_options() {
  static const KernelOptionInfo table[] = {
#define X(name, type, rule, by_target, header) \
  {#name, OptionType::type, rule, by_target, header, &KernelOptions::name},
      TILEC_KERNEL_OPTIONS(X)
#undef X
  };
  return table;
}

std::string by_target_option_list() {
  std::vector<std::string> names;
  for (const KernelOptionInfo& o : kernel_options())
    if (o.by_target) names.push_back(std::string(o.name) + "=");
  std::string s;
  for (size_t i = 0; i < names.size(); ++i)
    s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return s;
}

KernelOptions KernelOptions::for_arch(std::string_view arch) const {
  KernelOptions o = *this;
  o.by_target.clear();
  for (const KernelOptionInfo& info : kernel_options())
    if (info.by_target)
      if (std::optional<int> v = value_for_arch(by_target, info.name, arch)) o.*info.field = *v;
  return o;
}

}  // namespace tilec
