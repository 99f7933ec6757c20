// Resource limits of one CTA (codegen/lowering/limits.h).
#include <catch2/catch.hpp>

#include "../frontend/test_util.h"
#include "codegen/lowering/limits.h"
#include "ir/build.h"

using namespace tilec;

TEST_CASE("parameter bytes follow kernel_abi.h: arrays, extents, scalars at their alignment", "[limits]") {
  auto c = test::check(
      "@kernel(grid=(1,))\n"
      "def k(a: f32[n, m], b: i8[n], flag: bool, x: f64, y: f16):\n"
      "    pass\n");
  REQUIRE(c->messages.empty());
  REQUIRE(c->program.kernels.size() == 1);
  // a: 8 + 2*8, b: 8 + 8, n and m: 16, flag: 1, x: 8 at offset 64, y: 2.
  std::unique_ptr<ir::Function> f = ir::build_kernel(c->program.kernels[0], *c->diag);
  CHECK(codegen::kernel_param_bytes(f->sig) == 74);
}
