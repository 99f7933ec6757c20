// Use lists in two arrays (users.h): one walk collects the (value, user) pairs, then a counting
// sort by value id places them (the IR is walked once: on a kernel too large for the caches a
// walk costs a cache miss per op, the pairs are read in order).
#include "ir/users.h"

#include <utility>

namespace tilec::ir {

Users::Users(const Function& f) : first_(f.values.size() + 1, 0) {
  std::vector<std::pair<size_t, const Op*>> uses;
  walk(f.body, [&](const Op& op) {
    for (const Value* v : op.operands) uses.push_back({v->id, &op});
  });
  for (const auto& [id, op] : uses) ++first_[id + 1];
  for (size_t i = 1; i < first_.size(); ++i) first_[i] += first_[i - 1];
  ops_.resize(uses.size());
  std::vector<size_t> next(first_.begin(), first_.end() - 1);
  for (const auto& [id, op] : uses) ops_[next[id]++] = op;
}

std::span<const Op* const> Users::of(const Value* v) const {
  if (v->id + 1 >= first_.size()) return {};
  return {ops_.data() + first_[v->id], ops_.data() + first_[v->id + 1]};
}

}  // namespace tilec::ir
