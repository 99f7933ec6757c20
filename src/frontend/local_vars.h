// The local variables of a function body during checking, with an undo journal: a branch or a
// loop body is checked in place and rolled back afterwards, so that joining paths costs the
// names the paths assigned rather than a copy of every name in scope per `if` and loop (which
// made the checker quadratic in a kernel of many ifs, issue 35).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "basic/source.h"
#include "frontend/types.h"

namespace tilec {

/// A local variable of a kernel or an inlined helper call.
struct LocalVar {
  enum class State { Assigned, MaybeUnassigned, Conflict };
  State state = State::Assigned;
  int id = -1;
  Value value;
  SourceRange def;      ///< the assignment that defined it
  std::string why;      ///< MaybeUnassigned/Conflict: the explanation for a later use
  SourceRange why_at;   ///< the statement the explanation points at
};

/// Name → LocalVar. Every change goes through `set`, which, while a scope is open, records the
/// entry it replaces; `rollback` puts those back. Names are never removed otherwise.
class LocalVars {
 public:
  /// A point to come back to (what `open` returns).
  struct Mark {
    size_t journal;
  };
  /// A name changed since a mark, and whether it existed at the mark.
  struct Changed {
    std::string name;
    bool existed;
  };

  /// The variable called `name`, or null.
  const LocalVar* find(const std::string& name) const;
  /// Gives `name` the entry `lv`.
  void set(const std::string& name, const LocalVar& lv);
  /// Starts recording changes; each open must be followed by one rollback, innermost first.
  Mark open();
  /// Undoes every change since `m` and closes its scope.
  void rollback(Mark m);
  /// The names changed since `m`, each once, in the order of their first change.
  std::vector<Changed> changed_since(Mark m) const;
  const std::map<std::string, LocalVar>& all() const { return vars_; }

 private:
  struct Entry {
    std::string name;
    std::optional<LocalVar> old;  ///< nullopt: the name did not exist
  };
  std::map<std::string, LocalVar> vars_;
  std::vector<Entry> journal_;
  int open_ = 0;  ///< scopes open: nothing is recorded while none is
};

}  // namespace tilec
