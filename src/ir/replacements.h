// Replacing values in one forward walk: a pass records "uses of v become uses of w" in O(1)
// and rewrites each op's operands when its walk reaches the op, instead of walking the whole
// function once per replaced value (which made cse, fold and canonicalize quadratic in the
// kernel's length, issue 35).
#pragma once

#include <unordered_map>

#include "ir/ir.h"

namespace tilec::ir {

/// The replacements a pass has decided so far. Correct for a pass that calls `apply` on every
/// op it has not yet passed, in program order (an op before the ops of its regions), and that
/// records a replacement of `v` only once the walk has passed v's definition: every use of v
/// comes later in that order (SSA dominance, ir::verify), so `apply` reaches each use after the
/// replacement is known, and each operand is looked at once.
class ValueReplacements {
 public:
  /// From now on, uses of `from` become uses of `to` (or of what `to` is replaced by).
  void replace(const Value* from, Value* to);
  /// The value that stands for `v`: v itself when it is not replaced.
  Value* get(Value* v) const;
  /// Rewrites the operands of `op`, not those of the ops in its regions (the walk reaches
  /// them after `op`).
  void apply(Op& op) const;
  bool empty() const { return to_.empty(); }

 private:
  std::unordered_map<const Value*, Value*> to_;
};

}  // namespace tilec::ir
