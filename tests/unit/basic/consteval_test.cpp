// Constant arithmetic: wrap-around, Python floor division, float rounding (language.md §4, §6).
#include <catch2/catch.hpp>
#include <cmath>

#include "basic/consteval.h"

using namespace tilec;

namespace {
int64_t fold_int(Op op, DType t, int64_t a, int64_t b) {
  std::string err;
  auto r = fold_binary(op, t, Scalar{a, 0}, Scalar{b, 0}, t, err);
  REQUIRE(r);
  return r->i;
}
}  // namespace

TEST_CASE("integers wrap at their width", "[consteval]") {
  CHECK(wrap_int(128, DType::I8) == -128);
  CHECK(wrap_int(255, DType::U8) == 255);
  CHECK(wrap_int(-1, DType::U16) == 65535);
  CHECK(fold_int(Op::Add, DType::I32, 2147483647, 1) == -2147483648LL);
  CHECK(fold_int(Op::Mul, DType::U32, 65536, 65536) == 0);
}

TEST_CASE("floor division and modulo follow Python", "[consteval]") {
  CHECK(fold_int(Op::FloorDiv, DType::I32, -7, 2) == -4);
  CHECK(fold_int(Op::Mod, DType::I32, -7, 2) == 1);
  CHECK(fold_int(Op::Mod, DType::I32, 7, -2) == -1);
  CHECK(fold_int(Op::FloorDiv, DType::I32, 7, -2) == -4);
  CHECK(fold_int(Op::FloorDiv, DType::I64, INT64_MIN, -1) == INT64_MIN);  // wraps (§6.4)
  std::string err;
  CHECK_FALSE(fold_binary(Op::FloorDiv, DType::I32, Scalar{1, 0}, Scalar{0, 0}, DType::I32, err));
  CHECK(err == "integer division by zero in a constant expression");
}

TEST_CASE("shift counts are clamped to the width", "[consteval]") {
  CHECK(fold_int(Op::Shl, DType::I32, 1, 40) == 0);
  CHECK(fold_int(Op::Shr, DType::I32, -8, 40) == -1);
  CHECK(fold_int(Op::Shr, DType::U32, 0xffffffffLL, 4) == 0x0fffffff);
}

TEST_CASE("float conversions round to nearest even and saturate", "[consteval]") {
  CHECK(f32_to_f16_bits(1.0f) == 0x3c00);
  CHECK(f32_to_f16_bits(65504.0f) == 0x7bff);
  CHECK(f32_to_f16_bits(65520.0f) == 0x7c00);              // rounds up to inf
  CHECK(f32_to_f16_bits(1.0f + 1.0f / 2048) == 0x3c00);    // tie to even
  CHECK(f32_to_f16_bits(5.9604645e-8f) == 0x0001);         // smallest subnormal
  CHECK(f16_bits_to_f32(0x0001) == Approx(5.9604645e-8f));
  CHECK(f32_to_bf16_bits(1.0f) == 0x3f80);
  CHECK(f32_to_bf16_bits(1.00390625f) == 0x3f80);          // tie to even
  CHECK(round_float(448.0 * 2, DType::F8E4M3) == 448.0);   // saturates, no inf
  CHECK(round_float(-INFINITY, DType::F8E4M3) == -448.0);
  // e5m2 has an infinity, but a conversion saturates as PTX cvt.rn.satfinite does
  CHECK(round_float(61440.0, DType::F8E5M2) == 57344.0);
  CHECK(round_float(INFINITY, DType::F8E5M2) == 57344.0);
  CHECK(std::isnan(round_float(NAN, DType::F8E5M2)));
  CHECK(round_float(1.0625, DType::F8E4M3) == 1.0);        // tie to even (quantum 0.125)
  CHECK(round_float(1.1875, DType::F8E4M3) == 1.25);
  CHECK(round_float(0x1p-10, DType::F8E4M3) == 0.0);       // half the smallest subnormal: to even
  CHECK(round_float(0x1.8p-10, DType::F8E4M3) == 0x1p-9);
  CHECK(round_float(0x1.8p-17, DType::F8E5M2) == 0x1p-16); // smallest e5m2 subnormal is 2^-16
  CHECK(round_float(0x1p-17, DType::F8E5M2) == 0.0);
  Scalar nan{0, NAN};
  CHECK(convert_scalar(nan, DType::F32, DType::I32).i == 0);
  CHECK(convert_scalar(Scalar{0, 3e9}, DType::F32, DType::I32).i == 2147483647);
  CHECK(convert_scalar(Scalar{0, -2.7}, DType::F32, DType::I32).i == -2);
  CHECK(convert_scalar(Scalar{0, -1.0}, DType::F32, DType::U8).i == 0);
  CHECK(convert_scalar(Scalar{0, NAN}, DType::F32, DType::Bool).i == 1);
}

TEST_CASE("weak integers fold exactly and stay in [-2^63, 2^64)", "[consteval]") {
  std::string err;
  const ExactInt two63 = ExactInt(1) << 63;
  CHECK(*fold_exact(Op::Pow, 2, 63, err) == two63);
  CHECK(exact_int_dtype(two63) == DType::U64);
  CHECK(exact_int_dtype(-two63) == DType::I64);
  CHECK(exact_int_dtype(-2147483648LL) == DType::I32);
  CHECK(*fold_exact(Op::Gt, ExactInt(UINT64_MAX), 0, err) == 1);  // not a wrapped -1
  CHECK(*fold_exact(Op::FloorDiv, -7, 2, err) == -4);
  CHECK(*fold_exact(Op::Pow, -1, 12345, err) == -1);
  CHECK_FALSE(fold_exact(Op::Pow, 2, 64, err));
  CHECK(err == "the value of this constant expression does not fit in 64 bits");
  CHECK_FALSE(fold_exact(Op::Mul, ExactInt(UINT64_MAX), ExactInt(UINT64_MAX), err));
  CHECK_FALSE(fold_exact(Op::Shl, 1, 64, err));
  CHECK(*fold_exact(Op::Shl, 1, 63, err) == two63);
  CHECK_FALSE(fold_exact(Op::Shl, 1, -1, err));
  CHECK(err == "negative shift count in a constant expression");
  CHECK_FALSE(fold_exact(Op::Pow, 2, -1, err));
}

TEST_CASE("a typed negative integer exponent truncates toward zero", "[consteval]") {
  CHECK(fold_int(Op::Pow, DType::I32, 2, -1) == 0);
  CHECK(fold_int(Op::Pow, DType::I32, -1, -3) == -1);
  CHECK(fold_int(Op::Pow, DType::I32, 1, -5) == 1);
  std::string err;
  CHECK_FALSE(fold_binary(Op::Pow, DType::I32, Scalar{0, 0}, Scalar{-1, 0}, DType::I32, err));
}
