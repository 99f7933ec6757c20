// The reference interpreter (ir/interp/): scalar numerics against values worked out by hand
// (rounding ties, subnormals, saturation, Python division, clamped shifts), and whole kernels
// built from source whose outputs are computed by hand in the comments.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "difftest/kernels.h"
#include "ir/interp/interp.h"
#include "ir/interp/numerics.h"

using namespace tilec;
using namespace tilec::interp;

namespace {

Scalar f(double v) { return Scalar{0, v}; }
Scalar i(int64_t v) { return Scalar{v, 0}; }

Scalar bin(ir::OpKind k, DType t, Scalar a, Scalar b, tilec::Op pred = tilec::Op::Eq) {
  bool unspecified = false;
  return binary(k, t, a, b, pred, unspecified);
}

// The kernels of `text` at -O0.
std::vector<std::unique_ptr<ir::Function>> kernels(const std::string& text) {
  std::vector<std::unique_ptr<ir::Function>> out;
  std::string errors;
  bool ok = difftest::build_kernels("test.tile", text, {}, {}, out, errors);
  INFO(errors);
  REQUIRE(ok);
  return out;
}

Arg array(DType t, std::vector<int64_t> extents, std::vector<double> values) {
  Arg a;
  a.array.dtype = t;
  a.array.extents = std::move(extents);
  for (double v : values) a.array.data.push_back(is_float(t) ? f(v) : i(int64_t(v)));
  return a;
}

std::vector<double> ints(const HostArray& a) {
  std::vector<double> out;
  for (const Scalar& s : a.data) out.push_back(double(s.i));
  return out;
}
std::vector<double> floats(const HostArray& a) {
  std::vector<double> out;
  for (const Scalar& s : a.data) out.push_back(s.f);
  return out;
}

const double inf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("interp rounds to f16 and bf16 to nearest even, with subnormals and overflow", "[interp]") {
  CHECK(round_to(1.0 + std::ldexp(1, -11), DType::F16) == 1.0);                      // tie: even
  CHECK(round_to(1.0 + 3 * std::ldexp(1, -11), DType::F16) == 1.0 + std::ldexp(1, -9));  // tie: up to even
  CHECK(round_to(65519, DType::F16) == 65504);
  CHECK(round_to(65520, DType::F16) == inf);  // the tie between 65504 and 2^16 goes to even: overflow
  CHECK(round_to(std::ldexp(1, -25), DType::F16) == 0);                     // half the least subnormal
  CHECK(round_to(3 * std::ldexp(1, -25), DType::F16) == std::ldexp(1, -23));  // 1.5 units: 2 units
  CHECK(round_to(1.0 + std::ldexp(1, -8), DType::BF16) == 1.0);
  CHECK(round_to(1.0 + 3 * std::ldexp(1, -8), DType::BF16) == 1.0 + std::ldexp(1, -6));
  CHECK(round_to(500, DType::F8E4M3) == 448);  // saturates (§8.8)
  CHECK(round_to(-inf, DType::F8E5M2) == -57344);
  CHECK(round_to(1.0 + std::ldexp(1, -11), DType::TF32) == 1.0 + std::ldexp(1, -10));  // ties away
  CHECK(std::isnan(round_to(NAN, DType::F16)));
}

TEST_CASE("interp encodes and decodes the storage bits of each dtype", "[interp]") {
  CHECK(to_bits(f(1.0), DType::F16) == 0x3c00);
  CHECK(to_bits(f(-2.0), DType::F16) == 0xc000);
  CHECK(to_bits(f(std::ldexp(1, -24)), DType::F16) == 0x0001);
  CHECK(to_bits(f(65504), DType::F16) == 0x7bff);
  CHECK(to_bits(f(1.0), DType::BF16) == 0x3f80);
  CHECK(to_bits(f(448), DType::F8E4M3) == 0x7e);
  CHECK(to_bits(f(57344), DType::F8E5M2) == 0x7b);
  CHECK(to_bits(i(-1), DType::I8) == 0xff);
  CHECK(from_bits(0x7c00, DType::F16).f == inf);
  CHECK(from_bits(0x8001, DType::F16).f == -std::ldexp(1, -24));
  CHECK(from_bits(0xc0, DType::I8).i == -64);
  CHECK(from_bits(0x3fc0, DType::BF16).f == 1.5);
}

TEST_CASE("interp converts with truncation, saturation and wrap-around (§8.8)", "[interp]") {
  CHECK(convert(f(-1.9), DType::F32, DType::I32).i == -1);
  CHECK(convert(f(3e9), DType::F32, DType::I32).i == 2147483647);
  CHECK(convert(f(NAN), DType::F32, DType::I64).i == 0);
  CHECK(convert(f(-5), DType::F32, DType::U8).i == 0);
  CHECK(convert(f(300), DType::F32, DType::U8).i == 255);
  CHECK(convert(i(300), DType::I32, DType::I8).i == 44);
  CHECK(convert(i(-1), DType::I32, DType::U8).i == 255);
  CHECK(convert(f(NAN), DType::F32, DType::Bool).i == 1);
  CHECK(convert(i(2049), DType::I32, DType::F16).f == 2048);  // tie to even
  CHECK(convert(i(-1), DType::I64, DType::U64).i == -1);      // u64 holds the bit pattern
  CHECK(convert(i(-1), DType::U64, DType::F32).f == std::ldexp(1, 64));
}

TEST_CASE("interp integer ops wrap, divide like Python and clamp shifts (§8.4)", "[interp]") {
  using K = ir::OpKind;
  CHECK(bin(K::FloorDiv, DType::I32, i(-7), i(2)).i == -4);
  CHECK(bin(K::Mod, DType::I32, i(-7), i(2)).i == 1);
  CHECK(bin(K::Mod, DType::I32, i(7), i(-2)).i == -1);
  CHECK(bin(K::FloorDiv, DType::I32, i(INT32_MIN), i(-1)).i == INT32_MIN);
  CHECK(bin(K::Shl, DType::I8, i(1), i(8)).i == 0);
  CHECK(bin(K::Shr, DType::I8, i(-128), i(100)).i == -1);
  CHECK(bin(K::Shl, DType::I32, i(5), i(-1)).i == 5);  // a negative count shifts by 0
  CHECK(bin(K::Shr, DType::I64, i(-8), i(-3)).i == -8);
  CHECK(bin(K::Shl, DType::U8, i(1), i(255)).i == 0);  // unsigned: 255 is past the width
  CHECK(bin(K::Shr, DType::U8, i(200), i(3)).i == 25);
  CHECK(bin(K::Add, DType::U8, i(200), i(100)).i == 44);
  CHECK(bin(K::Mul, DType::I8, i(100), i(3)).i == 44);
  CHECK(bin(K::Min, DType::U32, i(0xffffffff), i(1)).i == 1);
  CHECK(bin(K::Pow, DType::I32, i(-2), i(3)).i == -8);
  bool unspecified = false;
  CHECK(binary(K::FloorDiv, DType::I32, i(1), i(0), tilec::Op::Eq, unspecified).i == 0);
  CHECK(unspecified);
}

TEST_CASE("interp float ops round after each op and propagate NaN (§8.5, §8.7)", "[interp]") {
  using K = ir::OpKind;
  CHECK(bin(K::Add, DType::F16, f(2048), f(1)).f == 2048);  // 2049 is a tie: even
  CHECK(bin(K::Add, DType::F16, f(2048), f(3)).f == 2052);
  CHECK(bin(K::Div, DType::F32, f(1), f(3)).f == double(1.0f / 3.0f));
  CHECK(bin(K::FloorDiv, DType::F32, f(-7), f(2)).f == -4);
  CHECK(bin(K::Mod, DType::F32, f(-7), f(2)).f == 1);
  CHECK(std::isnan(bin(K::Min, DType::F32, f(NAN), f(1)).f));
  CHECK(std::isnan(bin(K::Max, DType::F32, f(1), f(NAN)).f));
  CHECK(bin(K::Cmp, DType::F32, f(NAN), f(NAN), tilec::Op::Ne).i == 1);
  CHECK(bin(K::Cmp, DType::F32, f(NAN), f(1), tilec::Op::Lt).i == 0);
  // fma rounds once: 1 + 2^-24 is not an f32, so a*b+c computed as mul then add gives 1.
  double a = 1 + std::ldexp(1, -12);
  CHECK(fma(DType::F32, f(a), f(a), f(-1)).f == std::ldexp(1, -11) + std::ldexp(1, -24));
}

TEST_CASE("interp runs every CTA: loads past the end read padding, stores there are dropped", "[interp]") {
  auto ks = kernels(R"(
@kernel(grid=(cdiv(n, 4),))
def k(x: i32[n], y: i32[n]):
    t = load(x, index=(bid(0),), shape=(4,), padding=-1)
    store(y, index=(bid(0),), tile=cumsum(t, axis=0))
)");
  std::vector<Arg> args{array(DType::I32, {6}, {1, 2, 3, 4, 5, 6}), array(DType::I32, {6}, {0, 0, 0, 0, 0, 0})};
  Result r = run(*ks[0], args);
  REQUIRE(r.error == "");
  CHECK(r.ctas == 2);
  // CTA 1 reads 5, 6, -1, -1: its cumsum 5, 11, 10, 9 keeps the two elements inside y.
  CHECK(ints(args[1].array) == std::vector<double>{1, 3, 6, 10, 5, 11});
}

TEST_CASE("interp loads at negative element offsets and multiplies with mma", "[interp]") {
  auto ks = kernels(R"(
@kernel(grid=(1,))
def m(a: f16[M, K], b: f16[K, N], c: f32[M, N]):
    acc = zeros((16, 16), f32)
    for k in range(cdiv(K, 16)):
        x = load(a, offset=(-1, k * 16), shape=(16, 16))
        y = load(b, index=(k, 0), shape=(16, 16))
        acc = mma(x, y, acc)
    store(c, index=(0, 0), tile=acc)
)");
  // Row r of the product uses row r - 1 of a (row 0 reads the zero padding).
  std::vector<Arg> args{array(DType::F16, {2, 3}, {1, 2, 3, 4, 5, 6}), array(DType::F16, {3, 2}, {1, 0, 0, 1, 1, 1}),
                        array(DType::F32, {2, 2}, {9, 9, 9, 9})};
  Result r = run(*ks[0], args);
  REQUIRE(r.error == "");
  CHECK(floats(args[2].array) == std::vector<double>{0, 0, 4, 5});
}

TEST_CASE("interp clips loads and stores at bound= (§7.2.6), through order= and in either CTA order", "[interp]") {
  // CTA g copies group g of x (rows ends[g - 1] .. ends[g] - 1, read with gather) into y in
  // 4-row tiles from the group's first row; the load reads -1 past the group's end and the store
  // drops those rows, so no CTA writes another group's rows, whichever runs first. z gets the
  // transposed first two rows of each group through order=, bounded in the view's axis order.
  auto ks = kernels(R"(
@kernel(grid=(E,))
def g(x: i32[n, 2], ends: i32[E], y: i32[n, 2], z: i32[2, n]):
    start = gather(ends, bid(0) - 1)
    end = gather(ends, bid(0))
    t = load(x, offset=(start, 0), shape=(4, 2), bound=(end, 2), padding=-1)
    store(y, offset=(start, 0), tile=t + 100 * (bid(0) + 1), bound=(end, 2))
    u = load(x, offset=(0, start), shape=(2, 2), order=(1, 0), bound=(2, end))
    store(z, offset=(0, start), tile=u, bound=(2, min(end, start + 1)))
)");
  for (bool reverse : {false, true}) {
    std::vector<Arg> args{array(DType::I32, {5, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), array(DType::I32, {3}, {3, 3, 4}),
                          array(DType::I32, {5, 2}, std::vector<double>(10, 7)),
                          array(DType::I32, {2, 5}, std::vector<double>(10, 7))};
    Options opts;
    opts.reverse_ctas = reverse;
    Result r = run(*ks[0], args, opts);
    REQUIRE(r.error == "");
    // Group 0 is rows 0-2 (+100), group 1 is empty, group 2 is row 3 (+300); row 4 is past
    // ends[-1] and keeps its 7s.
    CHECK(ints(args[2].array) == std::vector<double>{100, 101, 102, 103, 104, 105, 306, 307, 7, 7});
    // z[:, start] = x[start, :] for groups 0 and 2; the bound start + 1 drops column start + 1.
    CHECK(ints(args[3].array) == std::vector<double>{0, 7, 7, 6, 7, 1, 7, 7, 7, 7});
  }
}

TEST_CASE("interp cats a tile with itself and extracts sub-tiles (§7.4)", "[interp]") {
  // cat(t, t) has one operand twice (CSE makes it from two equal extracts); the second half
  // must come from the operand's start again (the interpreter once read before it).
  auto ks = kernels(R"(
@kernel(grid=(1,))
def c(x: i32[n], y: i32[m], z: i32[p]):
    t = load(x, index=(0,), shape=(4,))
    u = cat(t, t, axis=0)
    v = extract(u, index=(1,), shape=(2,))
    store(y, index=(0,), tile=u)
    store(z, index=(0,), tile=cat(v, v, axis=0))
)");
  std::vector<Arg> args{array(DType::I32, {4}, {1, 2, 3, 4}), array(DType::I32, {8}, std::vector<double>(8, 0)),
                        array(DType::I32, {4}, {0, 0, 0, 0})};
  Result r = run(*ks[0], args);
  REQUIRE(r.error == "");
  CHECK(ints(args[1].array) == std::vector<double>{1, 2, 3, 4, 1, 2, 3, 4});
  CHECK(ints(args[2].array) == std::vector<double>{3, 4, 3, 4});
}

TEST_CASE("interp follows while, break, continue and an early return", "[interp]") {
  auto ks = kernels(R"(
@kernel(grid=(3,))
def w(y: i32[n]):
    i = 0
    s = 0
    while i < 100:
        i += 1
        if i == 5:
            break
        if i % 2 == 0:
            continue
        s += i
    if bid(0) == 1:
        return
    store(y, index=(bid(0),), tile=s * 10 + i)
)");
  std::vector<Arg> args{array(DType::I32, {3}, {7, 7, 7})};
  Result r = run(*ks[0], args);
  REQUIRE(r.error == "");
  CHECK(ints(args[0].array) == std::vector<double>{45, 7, 45});  // s = 1 + 3, i = 5
}

TEST_CASE("interp gathers with masks and out-of-range indices, and reduces with NaN", "[interp]") {
  auto ks = kernels(R"(
@kernel(grid=(1,))
def g(x: f32[n], idx: i32[m], y: f32[m], r: f32[2]):
    i = load(idx, index=(0,), shape=(8,))
    v = gather(x, i, mask=i != 2, padding=-1.0)
    store(y, index=(0,), tile=v)
    store(r, index=(0,), tile=max(v))
    store(r, index=(1,), tile=max(where(i == 0, nan, v)))
)");
  std::vector<Arg> args{array(DType::F32, {4}, {10, 11, 12, 13}), array(DType::I32, {8}, {0, 3, 4, -1, 2, 1, 0, 0}),
                        array(DType::F32, {8}, std::vector<double>(8, 0)), array(DType::F32, {2}, {0, 0})};
  Result r = run(*ks[0], args);
  REQUIRE(r.error == "");
  CHECK(floats(args[2].array) == std::vector<double>{10, 13, -1, -1, -1, 11, 10, 10});
  CHECK(args[3].array.data[0].f == 13);
  CHECK(std::isnan(args[3].array.data[1].f));
}
