// Window loads (codegen/lowering/window_loads.h): which loads at element offsets are tiles of earlier
// loads moved along the last axis, by how much, and when the emitter must test the offsets for
// wrap-around at run time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "codegen/lowering/lower.h"
#include "codegen/lowering/window_loads.h"
#include "lowered_kernel.h"

using namespace tilec::codegen;

namespace {

using tilec::test::lower_first_kernel;

// One entry per load in program order: "-" (plain), or "Lb+d" (a window of load number b
// shifted by d), with "?" when the offsets are tested for wrap-around.
std::vector<std::string> windows(const LoweredKernel& k) {
  std::map<const tilec::ir::Op*, WindowLoad> w = window_loads(k);
  std::vector<const tilec::ir::Op*> loads;
  tilec::ir::walk(k.fn->body, [&](tilec::ir::Op& op) {
    if (op.kind == tilec::ir::OpKind::Load) loads.push_back(&op);
  });
  std::vector<std::string> out;
  for (const tilec::ir::Op* op : loads) {
    auto it = w.find(op);
    if (it == w.end()) {
      out.push_back("-");
      continue;
    }
    size_t b = size_t(std::find(loads.begin(), loads.end(), it->second.base) - loads.begin());
    out.push_back("L" + std::to_string(b) + (it->second.delta > 0 ? "+" : "") + std::to_string(it->second.delta) +
                  (it->second.check_wrap ? "?" : ""));
  }
  return out;
}

}  // namespace

TEST_CASE("window loads: the stencil's column shifts, not its row shifts", "[windows]") {
  auto l = lower_first_kernel(
      "@kernel(grid=(cdiv(M, 8), cdiv(N, 256)))\n"
      "def k(x: f32[M, N], out: f32[M, N]):\n"
      "    r = bid(0) * 8\n"
      "    c = bid(1) * 256\n"
      "    t = load(x, offset=(r, c), shape=(8, 256))\n"
      "    u = load(x, offset=(r - 1, c), shape=(8, 256))\n"
      "    a = load(x, offset=(r, c - 1), shape=(8, 256))\n"
      "    b = load(x, offset=(r, c + 1), shape=(8, 256))\n"
      "    store(out, offset=(r, c), tile=t + u + a + b)\n");
  // bid(1) * 256 +- 1 stays in i32 under the grid limits: no wrap test.
  CHECK(windows(l->k) == std::vector<std::string>{"-", "-", "L0-1", "L0+1"});
}

TEST_CASE("window loads: the delta is at most a thread's run, a window may be a base", "[windows]") {
  auto l = lower_first_kernel(
      "@kernel(grid=(cdiv(M, 8), cdiv(N, 256)))\n"
      "def k(x: f32[M, N], out: f32[M, N]):\n"
      "    r = bid(0) * 8\n"
      "    c = i64(bid(1)) * 256\n"
      "    t = load(x, offset=(r, c + 2), shape=(8, 256))\n"
      "    a = load(x, offset=(r, 6 + c), shape=(8, 256))\n"   // 4 from t: a whole run
      "    b = load(x, offset=(r, c + 9), shape=(8, 256))\n"   // 7 from t, 3 from a
      "    e = load(x, offset=(r, c - 3), shape=(8, 256))\n"   // 5 from t: past the run
      "    store(out, offset=(r, c), tile=t + a + b + e)\n");
  CHECK(windows(l->k) == std::vector<std::string>{"-", "L0+4", "L1+3", "-"});
}

TEST_CASE("window loads: what breaks the match", "[windows]") {
  auto l = lower_first_kernel(
      "@kernel(grid=(cdiv(M, 8), cdiv(N, 256)))\n"
      "def k(x: f32[M, N], y: f32[M, N], out: f32[M, N], s: i32):\n"
      "    r = bid(0) * 8\n"
      "    c = bid(1) * 256\n"
      "    t = load(x, offset=(r, c), shape=(8, 256))\n"
      "    a = load(y, offset=(r, c + 1), shape=(8, 256))\n"                 // another array
      "    b = load(x, offset=(r, c + 1), shape=(8, 256), padding=1.0)\n"    // another padding
      "    e = load(x, offset=(r, c + s), shape=(8, 256))\n"                 // a run-time delta
      "    store(out, offset=(r, c), tile=t + a + b + e)\n"
      "    f = load(x, offset=(r, c + 1), shape=(8, 256))\n"                 // after a store
      "    cs = c + s\n"
      "    h = load(x, offset=(r, cs), shape=(8, 256))\n"
      "    g = load(x, offset=(r, cs + 1), shape=(8, 256))\n"                // i32: may wrap
      "    store(out, offset=(r, c), tile=f + h + g)\n");
  CHECK(windows(l->k) == std::vector<std::string>{"-", "-", "-", "-", "-", "-", "L5+1?"});
}
