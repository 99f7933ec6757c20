// Value replacements applied by a forward walk (replacements.h).
#include "ir/replacements.h"

namespace tilec::ir {

void ValueReplacements::replace(const Value* from, Value* to) {
  // Resolved now, so that `get` follows one link in the passes' use (their targets are
  // defined before `from` and already final); the loop in `get` covers any other order.
  to = get(to);
  if (to != from) to_[from] = to;
}

Value* ValueReplacements::get(Value* v) const {
  for (auto it = to_.find(v); it != to_.end(); it = to_.find(v)) v = it->second;
  return v;
}

void ValueReplacements::apply(Op& op) const {
  if (to_.empty()) return;
  for (Value*& v : op.operands) v = get(v);
}

}  // namespace tilec::ir
