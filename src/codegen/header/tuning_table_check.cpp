// Whether a parsed tuning table was made for the kernel it is given to: same kernel name,
// configuration space and symbols; configuration indices that this build has.
#include <fmt/format.h>

#include "codegen/header/tuning_table.h"

namespace tilec {
namespace {

std::string spaced(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : " ") + n;
  return out;
}

}  // namespace

bool check_tuning_table(const TuningTable& t, std::string_view kernel, std::string_view space,
                        const std::vector<std::string>& symbols, int num_configs,
                        const std::function<bool(int)>& valid_config, DiagnosticEngine& diag) {
  int errors = diag.error_count();
  if (t.kernel != kernel) {
    diag.error(t.kernel_range, fmt::format("this table was made for kernel '{}', not '{}'", t.kernel, kernel));
    return false;  // the rest would only repeat that it is another kernel's
  }
  if (t.space != space) {
    diag.error(t.space_range,
               fmt::format("this table was made for another configuration space ('{}' has space {}): the kernel's "
                           "signature or its configurations changed since it was tuned; tune it again",
                           kernel, space));
    return false;
  }
  if (t.symbols != symbols)
    diag.error(t.symbols_range, fmt::format("the table's symbols ({}) are not the dimension symbols of '{}' ({})",
                                            spaced(t.symbols), kernel, spaced(symbols)));
  for (const TuningConfig& c : t.configs)
    if (c.index >= num_configs)
      diag.error(c.index_range, fmt::format("configuration {} is not in the space of '{}', which has {} "
                                            "configuration{}",
                                            c.index, kernel, num_configs, num_configs == 1 ? "" : "s"));
  for (const TuningSection& s : t.sections)
    for (const TuningRow& r : s.rows)
      if (r.config < num_configs && !valid_config(r.config))
        diag.error(r.config_range, fmt::format("configuration {} of '{}' is not in this build (it failed to build "
                                               "or -D left it out)",
                                               r.config, kernel));
  return diag.error_count() == errors;
}

void report_table_kernel_missing(const TuningTable& t, const std::vector<std::string>& kernels,
                                 DiagnosticEngine& diag) {
  diag.error(t.kernel_range, fmt::format("this table is for kernel '{}', which the file does not have (its kernels: "
                                         "{})",
                                         t.kernel, kernels.empty() ? "none" : spaced(kernels)));
}

}  // namespace tilec
