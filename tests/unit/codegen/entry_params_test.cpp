// The entry parameter list (codegen/launch/entry_params.h): one order for the emitter, the
// limits and the launch stub.
#include <catch2/catch.hpp>

#include "codegen/launch/entry_params.h"
#include "sample_abi.h"

using namespace tilec;
using namespace tilec::test;
using K = codegen::EntryParam::Kind;

namespace {

// "Kind index part" per parameter, for comparing whole lists.
std::vector<std::string> describe(const std::vector<codegen::EntryParam>& params) {
  std::vector<std::string> out;
  for (const codegen::EntryParam& p : params) {
    const char* names[] = {"map", "base", "stride", "extent", "scalar", "grid", "divisor", "magic"};
    out.push_back(std::string(names[int(p.kind)]) + " " + std::to_string(p.index) + " " + std::to_string(p.part));
  }
  return out;
}

}  // namespace

TEST_CASE("entry parameters: maps, arrays with their strides, extents, scalars, grid, divisors", "[entry]") {
  KernelAbi k;
  k.params = {array_param("a", DType::F16, {{"m", 0}, {"", 4}}), scalar_param("s", DType::F32),
              array_param("b", DType::F32, {{"m", 0}})};
  k.dim_symbols = {"m"};
  AbiPath p;
  p.tensor_maps = {{0, {64, 64}}};
  p.persistent = true;
  p.divisors = {{"m", DType::I64}};
  CHECK(describe(codegen::entry_params(k, p)) ==
        std::vector<std::string>{"map 0 0", "base 0 0", "stride 0 0", "stride 0 1", "base 2 0", "stride 2 0",
                                 "extent 0 0", "scalar 1 0", "grid 0 0", "grid 1 0", "grid 2 0", "divisor 0 0",
                                 "magic 0 0", "magic 0 1", "magic 0 2"});
  // The map at 0 (128 bytes), bases and strides at 128..167, the extent at 168, the f32 at
  // 176, the grid at 180..191, the i64 divisor at 192, its three u32 at 200..211.
  CHECK(codegen::entry_param_bytes(codegen::entry_params(k, p)) == 212);
  // Without the path's extras: the same from 0, up to the f32 at 48.
  AbiPath portable;
  CHECK(codegen::entry_param_bytes(codegen::entry_params(k, portable)) == 52);
  // An i64 divisor after the f32 is aligned to 8: 52 -> 56, then 8 + 12.
  portable.divisors = {{"m", DType::I64}};
  CHECK(codegen::entry_param_bytes(codegen::entry_params(k, portable)) == 76);
}
