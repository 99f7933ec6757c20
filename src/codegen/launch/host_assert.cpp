// Asserts on extents, translated to C for the launch stub (host_assert.h).
#include "codegen/launch/host_assert.h"

#include <optional>

#include <fmt/format.h>

#include "codegen/launch/host_expr.h"

namespace tilec::codegen {

std::vector<std::pair<const ir::Op*, std::string>> host_checked_asserts(const ir::Function& fn) {
  std::vector<std::pair<const ir::Op*, std::string>> out;
  HostLeaves leaves{[](int dim) { return fmt::format("tilec_sym[{}]", dim); }, nullptr};
  for (const auto& op : fn.body.ops) {
    if (op->kind != ir::OpKind::Assert) continue;
    if (std::optional<std::string> c = host_c_expr(fn, op->operands[0], leaves)) out.emplace_back(op.get(), *c);
  }
  return out;
}

}  // namespace tilec::codegen
