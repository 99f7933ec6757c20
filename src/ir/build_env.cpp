// The IR builder's environment with an undo journal (build_env.h).
#include "ir/build_env.h"

#include <algorithm>

namespace tilec::ir {

void BuildEnv::set(size_t slot, BVal v) {
  if (open_) journal_.push_back({slot, std::move(slots_[slot])});
  slots_[slot] = std::move(v);
}

void BuildEnv::set_value(size_t slot, Value* v) {
  BVal b = slots_[slot];
  b.v = v;
  set(slot, std::move(b));
}

BuildEnv::Mark BuildEnv::open() {
  ++open_;
  return Mark{journal_.size(), slots_.size()};
}

void BuildEnv::rollback(Mark m) {
  for (; journal_.size() > m.journal; journal_.pop_back())
    if (journal_.back().first < slots_.size()) slots_[journal_.back().first] = std::move(journal_.back().second);
  slots_.resize(m.size);
  --open_;
}

std::vector<size_t> BuildEnv::changed_since(Mark m) const {
  std::vector<size_t> out;
  for (size_t i = m.journal; i < journal_.size(); ++i)
    if (journal_[i].first < m.size) out.push_back(journal_[i].first);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tilec::ir
