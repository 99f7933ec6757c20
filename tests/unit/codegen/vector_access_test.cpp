// Vector widths of loads and stores at element offsets (codegen/lowering/vector_access.h
// access_vector_bytes): capped by the offset's alignment under the launch stub's check, at the least fixed point of
// that check.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "codegen/lowering/vector_access.h"
#include "lowered_kernel.h"

using namespace tilec::codegen;

namespace {

using tilec::test::lower_first_kernel;

// The accesses in program order: "load x 16", "store out 4".
std::vector<std::string> accesses(const LoweredKernel& k) {
  std::map<const tilec::ir::Op*, int> va = access_vector_bytes(k);
  std::vector<std::string> out;
  tilec::ir::walk(k.fn->body, [&](tilec::ir::Op& op) {
    auto it = va.find(&op);
    if (it == va.end()) return;
    out.push_back(std::string(op.kind == tilec::ir::OpKind::Load ? "load " : "store ") + op.operands[0]->type.array->name +
                  " " + std::to_string(it->second));
  });
  return out;
}

int vector_bytes(const LoweredKernel& k, const std::string& array) {
  for (const auto& [a, bytes] : array_vector_bytes(k))
    if (a->name == array) return bytes;
  return 0;
}

}  // namespace

TEST_CASE("offset accesses: alignment from the tile and the stub's check", "[vectors]") {
  auto l = lower_first_kernel(
      "@kernel(grid=(cdiv(M, 16), cdiv(N, 128)))\n"
      "def k(x: f32[M, N], h: f16[M, N], out: f32[M, N], d: i64):\n"
      "    r = bid(0) * 16\n"
      "    c = bid(1) * 128\n"
      "    a = load(x, offset=(r - 1, c), shape=(16, 128))\n"   // aligned columns: 16 bytes
      "    b = load(x, offset=(r, c - 1), shape=(16, 128))\n"   // one f32 per predicate
      "    e = load(x, offset=(r, c + 2 * d), shape=(16, 128))\n"  // 8-byte aligned
      "    f = load(x, offset=(r, c + d), shape=(16, 128))\n"   // nothing known: one f32
      "    g = load(h, offset=(r, c + d), shape=(16, 128))\n"   // one f16: element by element
      "    store(out, offset=(r, c + 1), tile=a + b + e + f + g.astype(f32))\n");
  CHECK(accesses(l->k) == std::vector<std::string>{"load x 16", "load x 4", "load x 8", "load x 4", "load h 0",
                                                   "store out 4"});
  CHECK(vector_bytes(l->k, "x") == 16);
  CHECK(vector_bytes(l->k, "h") == 1);
  CHECK(vector_bytes(l->k, "out") == 4);
}

TEST_CASE("offset accesses: a run-time column that another array's check aligns", "[vectors]") {
  // out is stored in 16-byte vectors at c (a multiple of 1024), so the stub checks that D, its
  // innermost extent, is a multiple of 8 bf16; then D + c is too, and the up half moves 16-byte
  // vectors (the fixed point: no tile-index access gives the fact).
  auto l = lower_first_kernel(
      "@kernel(grid=(M, cdiv(D, 1024)))\n"
      "def k(x: bf16[M, E], out: bf16[M, D]):\n"
      "    c = bid(1) * 1024\n"
      "    g = load(x, offset=(bid(0), c), shape=(1, 1024))\n"
      "    u = load(x, offset=(bid(0), D + c), shape=(1, 1024))\n"
      "    store(out, offset=(bid(0), c), tile=g * u)\n");
  CHECK(accesses(l->k) == std::vector<std::string>{"load x 16", "load x 16", "store out 16"});
}

TEST_CASE("offset accesses: alignment through shifts, masks and remainders", "[vectors]") {
  // Each column is a multiple of 4 f32 (16 bytes) only through the operator named beside it:
  // without that fact the access moves one f32 (4 bytes).
  auto l = lower_first_kernel(
      "@kernel(grid=(M,))\n"
      "def k(x: f32[M, N], out: f32[M, N], d: i32):\n"
      "    r = bid(0)\n"
      "    a = load(x, offset=(r, d << 2), shape=(1, 128))\n"        // d * 4
      "    b = load(x, offset=(r, d & -4), shape=(1, 128))\n"        // an align-down
      "    e = load(x, offset=(r, (d << 3) >> 1), shape=(1, 128))\n"  // 8 d / 2
      "    f = load(x, offset=(r, (d << 4) // 4), shape=(1, 128))\n"  // 16 d // 4
      "    g = load(x, offset=(r, (d << 2) % 64), shape=(1, 128))\n"  // remainder of two multiples of 4
      "    h = load(x, offset=(r, (d << 2) | 1), shape=(1, 128))\n"   // odd
      "    i = load(x, offset=(r, (d << 1) ^ 8), shape=(1, 128))\n"   // a multiple of 2 only
      "    j = load(x, offset=(r, d - d % 8), shape=(1, 128))\n"      // an align-down
      "    m = load(x, offset=(r, d - d % 2), shape=(1, 128))\n"      // to a multiple of 2 only
      "    n = load(x, offset=(r, -(d << 2)), shape=(1, 128))\n"     // a negated multiple of 4
      "    o = load(x, offset=(r, (d << 2) % 0), shape=(1, 128))\n"  // % 0: unspecified, nothing known
      "    store(out, index=(r, 0), tile=a + b + e + f + g + h + i + j + m + n + o)\n");
  CHECK(accesses(l->k) == std::vector<std::string>{"load x 16", "load x 16", "load x 16", "load x 16", "load x 16",
                                                   "load x 4", "load x 8", "load x 16", "load x 8", "load x 16",
                                                   "load x 4", "store out 16"});
}
