// Lowers the first kernel of a source text for the codegen unit tests that inspect a
// LoweredKernel (vector widths, window loads).
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "../frontend/test_util.h"
#include "codegen/lowering/lower.h"
#include "ir/build.h"

namespace tilec::test {

/// The checked program, the kernel's IR and its lowering, kept alive together (the lowering
/// points into the IR, the IR into the program).
struct Lowered {
  std::unique_ptr<Compiled> c;
  std::unique_ptr<ir::Function> fn;
  codegen::LoweredKernel k;
};

/// The first kernel of `text`, lowered on the portable path for sm_90 with 4 warps; the text must
/// check without messages.
inline std::unique_ptr<Lowered> lower_first_kernel(const std::string& text) {
  auto l = std::make_unique<Lowered>();
  l->c = check(text);
  REQUIRE(l->c->messages.empty());
  l->fn = ir::build_kernel(l->c->program.kernels.at(0), *l->c->diag);
  l->fn->sig.options.num_warps = 4;
  l->k = codegen::lower_kernel(*l->fn, *codegen::parse_target("sm_90"), 227 * 1024);
  return l;
}

}  // namespace tilec::test
