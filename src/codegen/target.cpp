// The architecture table.
#include "codegen/target.h"

#include <fmt/format.h>

namespace tilec::codegen {

std::optional<Target> parse_target(const std::string& arch) {
  struct Row {
    int sm;
    int ptx;
  };
  static const Row kRows[] = {{80, 70}, {86, 71}, {87, 74}, {89, 78}, {90, 78},
                              {100, 86}, {103, 88}, {110, 90}, {120, 87}, {121, 88}};
  if (arch.rfind("sm_", 0) != 0) return std::nullopt;
  std::string num = arch.substr(3);
  bool a = !num.empty() && num.back() == 'a';
  if (a) num.pop_back();
  if (num.empty() || num.find_first_not_of("0123456789") != std::string::npos || num.size() > 3) return std::nullopt;
  int sm = std::stoi(num);
  for (const Row& r : kRows)
    if (r.sm == sm) {
      if (a && sm < 90) return std::nullopt;  // arch-specific targets start with sm_90a
      Target t{arch, sm, a, r.ptx};
      if (a && sm == 90) t.ptx_version = 80;
      return t;
    }
  return std::nullopt;
}

int64_t max_shared_per_cta(int sm) {
  if (sm == 80 || sm == 87) return 163 * 1024;
  if (sm == 86 || sm == 89 || sm >= 120) return 99 * 1024;
  return 227 * 1024;
}

int64_t max_shared_per_sm(int sm) { return max_shared_per_cta(sm) + 1024; }

std::string ptx_version_text(int v) { return fmt::format("{}.{}", v / 10, v % 10); }

}  // namespace tilec::codegen
