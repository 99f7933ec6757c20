// The dtype table (basic/dtype.h): each column checked against expectations written from the
// rules the column follows (PTX ISA §5.2 and §9.7.9.8, the C types' sizes, PyTorch's names),
// not copied from the table.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "basic/dtype.h"

using namespace tilec;

namespace {

const DType kAll[] = {DType::Bool, DType::I8,  DType::I16,  DType::I32,  DType::I64,    DType::U8,
                      DType::U16,  DType::U32, DType::U64,  DType::F16,  DType::BF16,   DType::F32,
                      DType::F64,  DType::TF32, DType::F8E4M3, DType::F8E5M2};

std::string bits(DType t) { return std::to_string(dtype_bits(t)); }
std::string sign(DType t) { return is_signed_int(t) ? "s" : "u"; }

// The size in bytes of each C type the header may name.
const std::map<std::string, size_t> kCSizes = {
    {"bool", sizeof(bool)},         {"int8_t", sizeof(int8_t)},     {"int16_t", sizeof(int16_t)},
    {"int32_t", sizeof(int32_t)},   {"int64_t", sizeof(int64_t)},   {"uint8_t", sizeof(uint8_t)},
    {"uint16_t", sizeof(uint16_t)}, {"uint32_t", sizeof(uint32_t)}, {"uint64_t", sizeof(uint64_t)},
    {"float", sizeof(float)},       {"double", sizeof(double)}};

}  // namespace

TEST_CASE("the dtype table has one row per dtype, in enum order", "[dtype]") {
  std::set<std::string> names;
  for (DType t : kAll) {
    CHECK(parse_dtype(dtype_name(t)) == t);
    names.insert(std::string(dtype_name(t)));
  }
  CHECK(names.size() == std::size(kAll));
}

TEST_CASE("PTX element types", "[dtype]") {
  for (DType t : kAll) {
    INFO(dtype_name(t));
    if (is_integer(t)) CHECK(ptx_type(t) == sign(t) + bits(t));
    else if (is_float(t) && t != DType::BF16) CHECK(ptx_type(t) == "f" + bits(t));
  }
  CHECK(ptx_type(DType::Bool) == "pred");
  CHECK(ptx_type(DType::BF16) == "bf16");
  CHECK(ptx_type(DType::TF32) == "tf32");
  CHECK(ptx_type(DType::F8E4M3) == "e4m3");
  CHECK(ptx_type(DType::F8E5M2) == "e5m2");
}

TEST_CASE("PTX arithmetic types: half floats in f32, narrow integers widened to 32 bits", "[dtype]") {
  for (DType t : kAll) {
    INFO(dtype_name(t));
    if (is_integer(t)) CHECK(ptx_arith_type(t) == sign(t) + (dtype_bits(t) == 64 ? "64" : "32"));
    else if (is_float(t) || t == DType::TF32) CHECK(ptx_arith_type(t) == (t == DType::F64 ? "f64" : "f32"));
  }
  CHECK(ptx_arith_type(DType::Bool) == "u32");  // 0/1 words
  CHECK(ptx_arith_type(DType::F8E4M3).empty());
  CHECK(ptx_arith_type(DType::F8E5M2).empty());
}

TEST_CASE("PTX load and store types: the element's width; loads extend by the type", "[dtype]") {
  for (DType t : kAll) {
    INFO(dtype_name(t));
    bool narrow_int = is_integer(t) && dtype_bits(t) <= 16;
    bool byte = t == DType::Bool || t == DType::F8E4M3 || t == DType::F8E5M2;
    std::string plain = byte ? "u8" : "b" + bits(t);
    CHECK(ptx_load_type(t) == (narrow_int ? sign(t) + bits(t) : plain));
    CHECK(ptx_store_type(t) == (narrow_int ? "u" + bits(t) : plain));
    CHECK(ptx_bits_type(t) == "b" + bits(t));
  }
}

TEST_CASE("C types: a scalar's type in the launch function, and its parameter's bits", "[dtype]") {
  for (DType t : kAll) {
    INFO(dtype_name(t));
    if (is_restricted(t)) {
      CHECK(c_type(t).empty());
      CHECK(c_param_type(t).empty());
      continue;
    }
    REQUIRE(kCSizes.count(c_type(t)));
    REQUIRE(kCSizes.count(c_param_type(t)));
    // The parameter holds exactly the dtype's storage.
    CHECK(kCSizes.at(c_param_type(t)) == size_t(dtype_bytes(t)));
    if (is_integer(t)) {
      CHECK(c_type(t) == (is_signed_int(t) ? "int" : "uint") + bits(t) + "_t");
      CHECK(c_param_type(t) == c_type(t));
    }
  }
  // 16-bit floats cross the ABI as float and travel as their bits; bool as one byte.
  CHECK(c_type(DType::F16) == "float");
  CHECK(c_type(DType::BF16) == "float");
  CHECK(c_param_type(DType::BF16) == "uint16_t");
  CHECK(c_type(DType::F64) == "double");
  CHECK(c_type(DType::Bool) == "bool");
  CHECK(c_param_type(DType::Bool) == "uint8_t");
}

TEST_CASE("PyTorch names: torch.<name> and at::k<ScalarType>", "[dtype]") {
  for (DType t : kAll) {
    INFO(dtype_name(t));
    if (is_integer(t)) CHECK(torch_name(t) == (is_signed_int(t) ? "int" : "uint") + bits(t));
    else if (is_float(t) && t != DType::BF16) CHECK(torch_name(t) == "float" + bits(t));
  }
  // c10::ScalarType's enumerators (c10/core/ScalarType.h).
  const std::map<DType, std::string> scalar_types = {
      {DType::Bool, "Bool"},    {DType::I8, "Char"},      {DType::I16, "Short"},    {DType::I32, "Int"},
      {DType::I64, "Long"},     {DType::U8, "Byte"},      {DType::U16, "UInt16"},   {DType::U32, "UInt32"},
      {DType::U64, "UInt64"},   {DType::F16, "Half"},     {DType::BF16, "BFloat16"}, {DType::F32, "Float"},
      {DType::F64, "Double"},   {DType::F8E4M3, "Float8_e4m3fn"}, {DType::F8E5M2, "Float8_e5m2"}};
  for (const auto& [t, name] : scalar_types) CHECK(torch_scalar_type(t) == name);
  CHECK(torch_name(DType::Bool) == "bool");
  CHECK(torch_name(DType::BF16) == "bfloat16");
  // OCP E4M3 (no infinities) is PyTorch's float8_e4m3fn, not the fnuz variant.
  CHECK(torch_name(DType::F8E4M3) == "float8_e4m3fn");
  CHECK(torch_name(DType::F8E5M2) == "float8_e5m2");
  CHECK(torch_name(DType::TF32).empty());  // no tensor dtype
  CHECK(torch_scalar_type(DType::TF32).empty());
}
