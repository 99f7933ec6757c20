// The indices a portable-path cp.async pipeline moves by a constant per iteration
// (codegen/lowering/affine_index.h): slope x the loop variable plus values from before
// the loop.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "codegen/lowering/affine_index.h"
#include "lowered_kernel.h"

using namespace tilec::codegen;

namespace {

// The affine forms of the first load's indices in the first for loop: "slope +name -name", or
// "none".
std::vector<std::string> forms(const std::string& text) {
  auto l = tilec::test::lower_first_kernel(text);
  const tilec::ir::Op* loop = nullptr;
  const tilec::ir::Op* load = nullptr;
  tilec::ir::walk(l->fn->body, [&](tilec::ir::Op& op) {
    if (!loop && op.kind == tilec::ir::OpKind::For) loop = &op;
    if (loop && !load && op.kind == tilec::ir::OpKind::Load) load = &op;
  });
  REQUIRE(load);
  std::vector<std::string> out;
  for (size_t i = 1; i < load->operands.size(); ++i) {
    std::optional<AffineIndex> a = affine_index(load->operands[i], *loop);
    std::string s = a ? std::to_string(a->slope) : "none";
    if (a)
      for (const auto& [sign, v] : a->terms) s += (sign > 0 ? " +" : " -") + (v->name.empty() ? std::string("?") : v->name);
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("affine_index: the loop variable times a constant plus values from before the loop", "[pipelines]") {
  CHECK(forms("@kernel(grid=(1,))\n"
              "def k(A: f16[R, C], s: i64, t: i64):\n"
              "    for j in range(cdiv(R, 64)):\n"
              "        x = load(A, offset=(j * 64 + s, 2 * j - t), shape=(64, 64))\n"
              "        store(A, offset=(0, 0), tile=x)\n") ==
        std::vector<std::string>{"64 +s", "2 -t"});
  CHECK(forms("@kernel(grid=(1,))\n"
              "def k(A: f16[R, C], s: i64):\n"
              "    for j in range(0, C, 64):\n"
              "        x = load(A, offset=(s, j), shape=(64, 64))\n"
              "        store(A, offset=(0, 0), tile=x)\n") == std::vector<std::string>{"none", "1"});
  CHECK(forms("@kernel(grid=(1,))\n"
              "def k(A: f16[R, C], s: i64):\n"
              "    for j in range(cdiv(R, 64)):\n"
              "        x = load(A, offset=(s - j * 64, 64 * j - j), shape=(64, 64))\n"
              "        store(A, offset=(0, 0), tile=x)\n") ==
        std::vector<std::string>{"-64 +s", "63"});
}

TEST_CASE("affine_index: widening, shifts and negation", "[pipelines]") {
  CHECK(forms("@kernel(grid=(1,))\n"
              "def k(A: f16[R, C], n: i32, s: i64):\n"
              "    for u in range(n):\n"
              "        x = load(A, offset=(i64(u) * 64 + s, -(i64(u) << 6)), shape=(64, 64))\n"
              "        store(A, offset=(0, 0), tile=x)\n") == std::vector<std::string>{"64 +s", "-64"});
}

TEST_CASE("affine_index: what does not move by a constant", "[pipelines]") {
  // (j + s) * 64 (kept simple: a product of a sum), j * j, j * s, and i32 arithmetic (which
  // wraps at 32 bits, where a 64-bit step would not).
  CHECK(forms("@kernel(grid=(1,))\n"
              "def k(A: f16[R, C], s: i64, u: i32):\n"
              "    for j in range(cdiv(R, 64)):\n"
              "        x = load(A, offset=((j + s) * 64, j * j), shape=(64, 64))\n"
              "        store(A, offset=(0, 0), tile=x)\n") ==
        std::vector<std::string>{"none", "none"});
  CHECK(forms("@kernel(grid=(1,))\n"
              "def k(A: f16[R, C], s: i64, u: i32):\n"
              "    for j in range(u):\n"
              "        x = load(A, offset=(j * s, j * 64), shape=(64, 64))\n"  // j * 64 in i32
              "        store(A, offset=(0, 0), tile=x)\n") ==
        std::vector<std::string>{"none", "none"});
}
