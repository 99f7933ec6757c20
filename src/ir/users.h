// The ops that use each value of a function, as two flat arrays indexed by Value::id. Lowering
// steps built a map of vectors (one allocation per value) for this each time, which made them
// grow several times faster than the kernel (issue 35).
#pragma once

#include <span>
#include <vector>

#include "ir/ir.h"

namespace tilec::ir {

/// The users of every value of a function as it was when the table was built.
class Users {
 public:
  /// Walks `f`: each op is listed once per operand that names the value, in program order.
  explicit Users(const Function& f);
  /// The ops that use `v`; none for a value made after the table.
  std::span<const Op* const> of(const Value* v) const;

 private:
  std::vector<size_t> first_;    ///< per value id: where its users start in ops_ (and id + 1's end)
  std::vector<const Op*> ops_;
};

}  // namespace tilec::ir
