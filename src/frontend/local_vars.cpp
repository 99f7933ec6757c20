// Local variables with an undo journal (local_vars.h).
#include "frontend/local_vars.h"

#include <set>

namespace tilec {

const LocalVar* LocalVars::find(const std::string& name) const {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : &it->second;
}

void LocalVars::set(const std::string& name, const LocalVar& lv) {
  auto [it, fresh] = vars_.try_emplace(name, lv);
  if (open_) journal_.push_back({name, fresh ? std::nullopt : std::optional<LocalVar>(it->second)});
  if (!fresh) it->second = lv;
}

LocalVars::Mark LocalVars::open() {
  ++open_;
  return Mark{journal_.size()};
}

void LocalVars::rollback(Mark m) {
  for (; journal_.size() > m.journal; journal_.pop_back()) {
    Entry& e = journal_.back();
    if (e.old) vars_[e.name] = std::move(*e.old);
    else vars_.erase(e.name);
  }
  --open_;
}

std::vector<LocalVars::Changed> LocalVars::changed_since(Mark m) const {
  std::vector<Changed> out;
  std::set<std::string> seen;
  for (size_t i = m.journal; i < journal_.size(); ++i)
    if (seen.insert(journal_[i].name).second) out.push_back({journal_[i].name, journal_[i].old.has_value()});
  return out;
}

}  // namespace tilec
