// The pass table and the pass runner.
#include "ir/passes/passes.h"

#include <spdlog/spdlog.h>

#include "basic/stage_timer.h"

namespace tilec::ir {

const std::vector<PassInfo>& all_passes() {
  static const std::vector<PassInfo> kPasses = {
      {"fold", "fold operations whose operands are constants (same semantics as the checker)", fold_constants},
      {"canonicalize", "simplify shape ops and algebraic identities (x+0, reshape of reshape, ...)", canonicalize},
      {"cse", "merge identical pure operations", eliminate_common_subexpressions},
      {"contract", "merge c + a @ b into one mma accumulating into c (not with --fmad=false)", contract_products},
      {"licm", "hoist loop-invariant pure operations out of for loops", hoist_loop_invariants},
      {"dce", "remove pure operations whose results are unused", eliminate_dead_code},
  };
  return kPasses;
}

std::vector<std::string> default_pipeline(int opt_level, bool contract) {
  if (opt_level == 0) return {};
  if (!contract) return {"fold", "canonicalize", "cse", "licm", "fold", "canonicalize", "cse", "dce"};
  return {"fold", "canonicalize", "cse", "contract", "licm", "fold", "canonicalize", "cse", "dce"};
}

bool is_pure_kind(OpKind k) {
  switch (k) {
    case OpKind::Store:
    case OpKind::Scatter:
    case OpKind::Atomic:
    // A gather reads memory that scatters and atomics write: like a load it must not be
    // merged or hoisted across them, and treating it as impure is how cse and licm see that.
    case OpKind::Gather:
    case OpKind::Yield:
    case OpKind::Break:
    case OpKind::Continue:
    case OpKind::Return:
    case OpKind::Assert:
    case OpKind::Print: return false;
    case OpKind::While: return false;  // may not terminate: never removed
    default: return true;
  }
}

bool is_pure(const Op& op) {
  if (!is_pure_kind(op.kind)) return false;
  // A for or an if is pure when what it runs is: each op of its regions, whose own regions
  // that op's is_pure looks at (once: a walk here would look at every nested op again at
  // each level, exponential in the nesting depth).
  for (const auto& r : op.regions)
    for (const auto& inner : r->ops)
      if (inner->kind != OpKind::Yield && !is_pure(*inner)) return false;
  return true;
}

std::string run_passes(Function& f, const std::vector<std::string>& names, bool print_after, std::string& trace) {
  for (const std::string& name : names) {
    const PassInfo* pass = nullptr;
    for (const PassInfo& p : all_passes())
      if (name == p.name) pass = &p;
    if (!pass) return "unknown pass '" + name + "' (see --list-passes)";
    double start = thread_cpu_us();
    pass->run(f);
    double us = thread_cpu_us() - start;
    spdlog::trace("pass {:<13} {:>8.1f} us  ({})", name, us, f.name);
    std::string problem;
    {
      StageTimer timer("verify", f.name);
      problem = verify(f);
    }
    if (!problem.empty()) return "internal compiler error: the IR is invalid after pass '" + name + "': " + problem;
    if (print_after) trace += "// -----// IR after " + name + " //----- //\n" + print(f);
  }
  return "";
}

}  // namespace tilec::ir
