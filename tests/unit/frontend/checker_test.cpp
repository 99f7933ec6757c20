// The checker: types printed by --emit=ast and the exact text of its errors.
#include <catch2/catch.hpp>

#include "frontend/local_vars.h"
#include "frontend/test_util.h"

using namespace tilec;
using tilec::test::check;
using tilec::test::first_error;

namespace {
// Wraps a kernel body (indented 4) in a kernel with arrays a, b: f32[n] and c: f16[n].
std::string kernel(const std::string& body) {
  return "T = 64\n@kernel(grid=(cdiv(n, T),))\ndef k(a: f32[n], b: f32[n], c: f16[n], s: i32):\n" + body;
}
}  // namespace

TEST_CASE("a clean kernel checks and records its signature", "[checker]") {
  auto c = check(kernel("    x = load(a, index=(bid(0),), shape=(T,))\n    store(b, index=(bid(0),), tile=x * 2)\n"));
  CHECK(c->messages == "");
  REQUIRE(c->program.kernels.size() == 1);
  const KernelInfo& k = c->program.kernels[0];
  CHECK(k.params.size() == 4);
  CHECK(k.dims.size() == 1);
  CHECK(k.dims[0].name == "n");
  CHECK(k.grid.size() == 1);
}

TEST_CASE("promotion errors name the dtypes", "[checker]") {
  auto c = check(kernel("    x = load(a, index=(0,), shape=(T,))\n    y = load(c, index=(0,), shape=(T,))\n"
                        "    z = s + s.astype(u32)\n"));
  CHECK(first_error(*c) == "t.tile:6:9: error: mixing i32 and u32 needs an explicit astype");
  auto d = check(kernel("    h = load(c, index=(0,), shape=(T,))\n    g = h + h.astype(bf16)\n"));
  CHECK(first_error(*d) == "t.tile:5:9: error: mixing f16 and bf16 needs an explicit astype");
}

TEST_CASE("literals adopt the other operand's dtype within their kind", "[checker]") {
  auto c = check(kernel("    h = load(c, index=(0,), shape=(T,))\n    store(c, index=(0,), tile=h * 2 + 1.5)\n"));
  CHECK(c->messages == "");
  auto d = check(kernel("    v = s.astype(u8) + 300\n"));
  CHECK(first_error(*d) == "t.tile:4:24: error: literal 300 does not fit in u8, the other operand's dtype");
}

TEST_CASE("shapes are powers of two and broadcast like NumPy", "[checker]") {
  auto c = check(kernel("    x = load(a, index=(0,), shape=(48,))\n"));
  CHECK(first_error(*c) == "t.tile:4:35: error: tile dimension 48 is not a power of two");
  auto d = check(kernel("    x = zeros((64, 32), f32) + zeros((64, 16), f32)\n"));
  CHECK(first_error(*d) == "t.tile:4:9: error: cannot broadcast (64, 32) with (64, 16)");
  auto e = check(kernel("    x = zeros((64,), f32)[:, None] + zeros((32,), f32)[None, :]\n    static_assert(x.shape[0] == 64)\n"));
  CHECK(e->messages == "");
}

TEST_CASE("max(tile, 0) suggests maximum", "[checker]") {
  auto c = check(kernel("    x = load(a, index=(0,), shape=(T,), padding=0)\n    y = max(x, 0)\n"));
  CHECK(first_error(*c).find("error: max(tile, x) does not take a second operand: use maximum(a, b)") != std::string::npos);
}

TEST_CASE("max over a zero-padded load warns", "[checker]") {
  auto c = check(kernel("    x = load(a, index=(0,), shape=(T,))\n    m = max(x)\n"));
  CHECK(first_error(*c) == "t.tile:5:9: warning: max over a zero-padded tile: pass padding=-inf to load() so that "
                           "elements outside the array do not win [-Wreduction-padding]");
}

TEST_CASE("names used after an if must be assigned on every path", "[checker]") {
  auto c = check(kernel("    if s > 0:\n        y = 1\n    z = y\n"));
  CHECK(c->messages ==
        "t.tile:6:9: error: 'y' may be used before it is assigned\n"
        "    z = y\n"
        "        ^\n"
        "t.tile:4:5: note: 'y' is not assigned on every path through this 'if'\n"
        "    if s > 0:\n"
        "    ^~~~~~~~~\n");
}

TEST_CASE("an if that does not assign a name keeps its explanation", "[checker]") {
  // Joining the paths of an `if` looks only at the names they assigned (LocalVars' journal);
  // it used to rewrite every maybe-unassigned name's note to point at the `if`.
  auto c = check(kernel("    for i in range(s):\n        z = 1\n    if s > 2:\n        w = 2\n    y = z\n"));
  CHECK(c->messages ==
        "t.tile:8:9: error: 'z' may be used before it is assigned\n"
        "    y = z\n"
        "        ^\n"
        "t.tile:4:5: note: 'z' is assigned only inside the loop, which may run zero times\n"
        "    for i in range(s):\n"
        "    ^~~~~~~~~~~~~~~~~~\n");
}

TEST_CASE("local variables roll back to a mark", "[checker]") {
  LocalVars vars;
  LocalVar one;
  one.id = 1;
  vars.set("x", one);  // no scope open: not recorded
  LocalVars::Mark outer = vars.open();
  LocalVar two = one;
  two.id = 2;
  vars.set("x", two);
  LocalVars::Mark inner = vars.open();
  vars.set("y", one);
  vars.set("x", one);
  std::vector<LocalVars::Changed> changed = vars.changed_since(inner);
  REQUIRE(changed.size() == 2);
  CHECK((changed[0].name == "y" && !changed[0].existed));
  CHECK((changed[1].name == "x" && changed[1].existed));
  vars.rollback(inner);
  CHECK(vars.find("y") == nullptr);
  CHECK(vars.find("x")->id == 2);
  vars.rollback(outer);
  CHECK(vars.find("x")->id == 1);
  CHECK(vars.all().size() == 1);
}

TEST_CASE("loop-carried values keep their type", "[checker]") {
  auto c = check(kernel("    acc = zeros((T,), f32)\n    for i in range(s):\n        acc = acc.astype(f16)\n"));
  CHECK(first_error(*c) == "t.tile:6:9: error: 'acc' is carried by the loop as tile (64,) of f32; it cannot become "
                           "tile (64,) of f16");
}

TEST_CASE("constant if compiles only the taken branch", "[checker]") {
  auto c = check("T = f16\n@kernel(grid=(1,))\ndef k(a: T[n]):\n    if T == f16:\n        x = 1\n    else:\n"
                 "        x = undefined_name\n    static_assert(x == 1, 'taken')\n");
  CHECK(c->messages == "");
}

TEST_CASE("-D overrides a module constant of the same kind", "[checker]") {
  auto c = check("T = 64\nstatic_assert(T == 128, 'override')\n", {"T=128"});
  CHECK(c->messages == "");
  auto d = check("T = 64\n", {"T=f16"});
  CHECK(first_error(*d).find("error: -D T: 'T' is an int constant, but the value given is a dtype") != std::string::npos);
  auto e = check("T = 64\n", {"U=1"});
  CHECK(first_error(*e).find("error: -D U: the program has no module constant named 'U'") != std::string::npos);
}

TEST_CASE("helpers inline with defaults and keywords; recursion is an error", "[checker]") {
  auto c = check(kernel("    y = twice(s, k=3)\n    static_assert(twice(2) == 4)\n") +
                 "def twice(x, k=2):\n    return x * k\n");
  CHECK(c->messages == "");
  auto d = check(kernel("    y = f(s)\n") + "def f(x):\n    return f(x)\n");
  CHECK(first_error(*d).find("error: recursive call of 'f'") != std::string::npos);
}

TEST_CASE("grid expressions are integers over dimensions and constants", "[checker]") {
  auto c = check("@kernel(grid=(n / 2,))\ndef k(a: f32[n]):\n    pass\n");
  CHECK(first_error(*c).find("t.tile:1:15: error: not allowed in grid=") == 0);
  auto d = check("@kernel(grid=(bid(0),))\ndef k(a: f32[n]):\n    pass\n");
  CHECK(first_error(*d) == "t.tile:1:15: error: 'bid' cannot be used in grid=");
}

TEST_CASE("mma checks shapes and dtype pairs", "[checker]") {
  auto c = check(kernel("    acc = mma(zeros((64, 32), f16), zeros((32, 16), f16), zeros((64, 16), f32))\n"
                        "    bad = mma(zeros((64, 32), f32), zeros((32, 16), f32), zeros((64, 16), f32))\n"));
  CHECK(first_error(*c).find("t.tile:5:11: error: mma does not support f32 x f32 accumulating in f32") == 0);
  CHECK(c->messages.find("convert them with astype(tf32)") != std::string::npos);
}

TEST_CASE("integer literal arithmetic folds like Python", "[checker]") {
  auto c = check("A = 2 ** 40\nB = -7 // 2\nC = -7 % 2\nstatic_assert(A == 1099511627776)\n"
                 "static_assert(B == -4)\nstatic_assert(C == 1)\n");
  CHECK(c->messages == "");
}

TEST_CASE("tuple subscripts are checked (they used to fail silently)", "[checker]") {
  auto c = check("B = ((64, 32), 16)\nstatic_assert(B[0][1] == 32 and B[-1] == 16)\nstatic_assert(B[1] == 17)\n");
  CHECK(first_error(*c) == "t.tile:3:15: error: static assertion failed");
  auto d = check("B = (1, 2)\nX = B[2]\n");
  CHECK(first_error(*d) == "t.tile:2:7: error: tuple index 2 is out of range for a tuple of 2");
}

TEST_CASE("-D values are evaluated at the definition and may use constants above", "[checker]") {
  auto c = check("BM = 128\nBK = 64\nstatic_assert(BK == 32)\n", {"BM=64", "BK=BM//2"});
  CHECK(c->messages == "");
  auto d = check("B = (64, 64)\n", {"B=(1, 2, 3)"});
  CHECK(first_error(*d).find("-D B: 'B' is a tuple (int, int) constant, but the value given is a tuple (int, int, int)") !=
        std::string::npos);
}

TEST_CASE("launch names are read-only and arrays stay arrays", "[checker]") {
  auto c = check(kernel("    n = 3\n"));
  CHECK(first_error(*c) == "t.tile:4:5: error: cannot assign to dimension symbol 'n': it is read-only");
  auto d = check(kernel("    a = b\n"));
  CHECK(first_error(*d) == "t.tile:4:5: error: cannot assign to array parameter 'a': it is read-only");
  auto e = check(kernel("    x = a\n    x = 1\n"));
  CHECK(first_error(*e) == "t.tile:5:5: error: 'x' holds an array; it cannot become i32 scalar");
}

TEST_CASE("an error inside a helper notes the call; the same error from two calls is reported once", "[checker]") {
  auto c = check(kernel("    y = f(s)\n    z = f(s)\n") + "def f(x):\n    return x + undefined\n");
  CHECK(c->messages ==
        "t.tile:7:16: error: use of undefined name 'undefined'\n"
        "    return x + undefined\n"
        "               ^~~~~~~~~\n"
        "t.tile:4:9: note: in this call of 'f'\n"
        "    y = f(s)\n"
        "        ^~~~\n");
}

TEST_CASE("weak integer constants are exact; typed ones wrap", "[checker]") {
  auto c = check("static_assert(18446744073709551615 > 0 and (2**63).dtype == u64)\n"
                 "static_assert(i32(2147483647) + 1 == -2147483648)\nX = 2**64\n");
  CHECK(first_error(*c) == "t.tile:3:5: error: the value of this constant expression does not fit in 64 bits");
}
