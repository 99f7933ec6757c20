// The warning table and the -W flags that turn its entries on, off or into errors.
#include "basic/warnings.h"

namespace tilec {
namespace {

constexpr WarningInfo kWarnings[] = {
#define X(id, name, on, summary) {Warning::id, name, on, summary},
    TILEC_WARNINGS(X)
#undef X
};

}  // namespace

std::span<const WarningInfo> all_warnings() { return kWarnings; }

const WarningInfo& warning_info(Warning w) { return kWarnings[size_t(w)]; }

std::optional<Warning> find_warning(std::string_view name) {
  for (const WarningInfo& w : kWarnings)
    if (name == w.name) return w.id;
  return std::nullopt;
}

std::string warning_names() {
  std::string out;
  for (const WarningInfo& w : kWarnings) out += (out.empty() ? "" : ", ") + std::string(w.name);
  return out;
}

WarningSettings::WarningSettings() {
  for (const WarningInfo& w : kWarnings) enabled_[size_t(w.id)] = w.on_by_default;
}

bool WarningSettings::is_error(Warning w) const {
  AsError e = as_error_[size_t(w)];
  return e == AsError::Yes || (e == AsError::Unset && all_errors_);
}

bool WarningSettings::apply(std::string_view flag, std::string& error) {
  std::string_view rest = flag;
  if (rest.substr(0, 3) == "--W") rest.remove_prefix(1);
  if (rest.substr(0, 2) != "-W") {
    error = "'" + std::string(flag) + "' is not a warning option";
    return false;
  }
  rest.remove_prefix(2);
  bool no = rest.substr(0, 3) == "no-";
  if (no) rest.remove_prefix(3);
  if (rest == "error") {
    all_errors_ = !no;
    return true;
  }
  bool to_error = rest.substr(0, 6) == "error=";
  if (to_error) rest.remove_prefix(6);
  std::optional<Warning> w = find_warning(rest);
  if (!w) {
    error = "unknown warning option '" + std::string(flag) + "'; the warnings are: " + warning_names();
    return false;
  }
  size_t i = size_t(*w);
  if (to_error) {
    // -Werror=name also turns the warning on; -Wno-error=name leaves it as it was.
    as_error_[i] = no ? AsError::No : AsError::Yes;
    if (!no) enabled_[i] = true;
  } else {
    enabled_[i] = !no;
  }
  return true;
}

}  // namespace tilec
