// The optimizer's pass registry: one table drives --passes, --list-passes,
// --print-after-all and the -v timings.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"
#include "ir/replacements.h"

namespace tilec::ir {

/// One optimizer pass: a free function over a kernel.
struct PassInfo {
  const char* name;
  const char* summary;
  void (*run)(Function&);
};

/// Every pass, in the order of the default pipeline.
const std::vector<PassInfo>& all_passes();

/// The pass names run at optimization level `opt_level` (-O0 runs none); `contract` (the
/// driver's --fmad) lets `c + a @ b` become one mma (contract.cpp).
std::vector<std::string> default_pipeline(int opt_level, bool contract = true);

/// Runs `names` in order, verifying the IR after each pass. With `print_after`, each pass's
/// result is appended to `trace`. Returns "" or the problem (an unknown pass name, or an
/// internal verifier failure naming the pass).
std::string run_passes(Function& f, const std::vector<std::string>& names, bool print_after, std::string& trace);

// The passes (one file each).
void fold_constants(Function& f);   // fold.cpp
void canonicalize(Function& f);     // canonicalize.cpp
void eliminate_common_subexpressions(Function& f);  // cse.cpp
void contract_products(Function& f);      // contract.cpp
void hoist_loop_invariants(Function& f);  // licm.cpp
void eliminate_dead_code(Function& f);    // dce.cpp

/// True when `op` has no effect besides its results (may be removed, moved or merged): its
/// kind is pure and so is every op in its regions. O(ops in its regions).
bool is_pure(const Op& op);
/// True when ops of kind `k` have no effect of their own: a `for` or `if` is pure when also
/// every op of its regions is (a pass that already knows that need not ask is_pure).
bool is_pure_kind(OpKind k);

}  // namespace tilec::ir
