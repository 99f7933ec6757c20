// The IR builder's environment: the built value of each variable (by the checker's variable
// id, then the slots of a helper's early return), with an undo journal. A branch or loop body
// is built in place and rolled back afterwards, so that merging paths costs the slots they
// changed, not a copy of every slot per `if` and loop (which made building quadratic in a
// kernel of many ifs, issue 35).
#pragma once

#include <vector>

#include "ir/ir.h"

namespace tilec::ir {

/// A built value: an IR value, a tuple of built values, or nothing (dtypes, strings, ...).
struct BVal {
  Value* v = nullptr;
  std::vector<BVal> elems;
  bool tuple = false;
  /// One IR value.
  static BVal of(Value* v) { return BVal{v, {}, false}; }
};

/// Slot → BVal. Every change goes through `set`, `set_value` or `resize`; while a scope is
/// open, `set` and `set_value` record the value they replace and `rollback` puts it back.
class BuildEnv {
 public:
  /// A point to come back to (what `open` returns).
  struct Mark {
    size_t journal, size;
  };

  explicit BuildEnv(size_t slots) : slots_(slots) {}
  size_t size() const { return slots_.size(); }
  const BVal& operator[](size_t slot) const { return slots_[slot]; }
  void set(size_t slot, BVal v);
  /// Sets the IR value of `slot`, keeping its tuple shape.
  void set_value(size_t slot, Value* v);
  /// Adds or drops slots at the end (a helper's early-return slots live while it is inlined).
  void resize(size_t slots) { slots_.resize(slots); }
  /// Starts recording changes; each open must be followed by one rollback, innermost first.
  Mark open();
  /// Undoes every change since `m` (slots dropped since are not brought back) and closes its
  /// scope.
  void rollback(Mark m);
  /// The slots below `m.size` changed since `m`, ascending, each once.
  std::vector<size_t> changed_since(Mark m) const;

 private:
  std::vector<BVal> slots_;
  std::vector<std::pair<size_t, BVal>> journal_;  ///< (slot, the value it had)
  int open_ = 0;  ///< scopes open: nothing is recorded while none is
};

}  // namespace tilec::ir
