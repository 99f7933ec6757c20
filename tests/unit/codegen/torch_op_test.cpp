// The op model of --emit=torch: schemas, mutation marks, functional outputs, size arguments,
// and the checks of a TorchInput (the lit tests in tests/lit/torch/ check the generated text).
#include <catch2/catch.hpp>

#include "codegen/torch/op.h"
#include "sample_abi.h"

using namespace tilec;
using namespace tilec::codegen::torch;
using namespace tilec::test;

namespace {

// A kernel from its parameters; `reads` per parameter (the arrays it loads).
TorchKernel kernel(const std::string& name, std::vector<AbiParam> params, std::vector<std::string> dims,
                   std::vector<bool> reads) {
  TorchKernel k;
  k.abi.name = name;
  k.abi.params = std::move(params);
  k.abi.dim_symbols = std::move(dims);
  k.reads = std::move(reads);
  return k;
}

TorchInput one_build(TorchKernel k) {
  TorchInput in;
  in.source_name = "k.tile";
  in.tilec_version = "0.1.0";
  in.ns = "k";
  in.module = "k_ops";
  in.builds = {TorchBuild{"", "", "", {std::move(k)}}};
  return in;
}

TorchKernel layernorm(DType t) {
  return kernel("layernorm",
                {array_param("X", t, {{"M", 0}, {"N", 0}}, false), array_param("W", t, {{"N", 0}}, false),
                 array_param("Y", t, {{"M", 0}, {"N", 0}}), array_param("Mean", DType::F32, {{"M", 0}}),
                 scalar_param("eps", DType::F32)},
                {"M", "N"}, {true, true, false, false, false});
}

}  // namespace

TEST_CASE("out and functional schemas with one alias set per written array", "[torch]") {
  TorchInput in = one_build(layernorm(DType::F16));
  std::vector<std::string> errors;
  REQUIRE(check_torch_input(in, errors));
  TorchOp op = make_op(in, 0);
  CHECK(out_schema(op) == "layernorm.out(Tensor X, Tensor W, Tensor(a!) Y, Tensor(b!) Mean, float eps) -> ()");
  REQUIRE(op.functional);
  CHECK(functional_schema(op) == "layernorm(Tensor X, Tensor W, float eps) -> (Tensor, Tensor)");
  CHECK(op.size_args.empty());
  CHECK(op.dtypes == std::vector<std::vector<DType>>{{DType::F16, DType::F16, DType::F16, DType::F32}});
}

TEST_CASE("an array read and written keeps the out form only", "[torch]") {
  TorchInput in = one_build(kernel("histogram",
                                   {array_param("x", DType::F32, {{"n", 0}}, false),
                                    array_param("bins", DType::I32, {{"nbins", 0}}), scalar_param("lo", DType::F32),
                                    scalar_param("hi", DType::F32)},
                                   {"n", "nbins"}, {true, true, false, false}));
  TorchOp op = make_op(in, 0);
  CHECK(out_schema(op) == "histogram.out(Tensor x, Tensor(a!) bins, float lo, float hi) -> ()");
  CHECK_FALSE(op.functional);
  CHECK(op.no_functional == "the kernel reads 'bins', which it also writes (an accumulation or an in-place update)");
}

TEST_CASE("an output extent no input has becomes a SymInt argument", "[torch]") {
  TorchInput in = one_build(kernel("repeat",
                                   {array_param("x", DType::I64, {{"m", 0}}, false),
                                    array_param("out", DType::I64, {{"n", 0}, {"", 4}}), scalar_param("k", DType::U8)},
                                   {"m", "n"}, {true, false, false}));
  TorchOp op = make_op(in, 0);
  REQUIRE(op.functional);
  CHECK(op.size_args == std::vector<int>{1});
  CHECK(functional_schema(op) == "repeat(Tensor x, int k, SymInt n) -> Tensor");
}

TEST_CASE("no functional form without an input array or without outputs", "[torch]") {
  TorchOp fill = make_op(one_build(kernel("fill", {array_param("out", DType::U8, {{"n", 0}})}, {"n"}, {false})), 0);
  CHECK_FALSE(fill.functional);
  CHECK(fill.no_functional == "no input array tells the device");
  TorchOp reader =
      make_op(one_build(kernel("check", {array_param("x", DType::F32, {{"n", 0}}, false)}, {"n"}, {true})), 0);
  CHECK_FALSE(reader.functional);
  CHECK(reader.no_functional == "the kernel writes no array");
}

TEST_CASE("scalar and dtype mappings", "[torch]") {
  CHECK(schema_scalar_type(DType::Bool) == "bool");
  CHECK(schema_scalar_type(DType::U32) == "int");
  CHECK(schema_scalar_type(DType::BF16) == "float");
  CHECK(cpp_scalar_type(DType::I8) == "int64_t");
}

TEST_CASE("builds: one op over dtypes, refused when the dtypes cannot choose", "[torch]") {
  TorchInput in = one_build(layernorm(DType::F16));
  in.builds[0].defines = "T=f16";
  in.builds.push_back(TorchBuild{"T=bf16", "build1_", "", {layernorm(DType::BF16)}});
  std::vector<std::string> errors;
  CHECK(check_torch_input(in, errors));
  CHECK(make_op(in, 0).dtypes.size() == 2);

  in.builds[1].kernels[0] = layernorm(DType::F16);
  in.builds[1].defines = "EPS=1e-6";
  CHECK_FALSE(check_torch_input(in, errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == "kernel 'layernorm': the build EPS=1e-6 gives its arrays the same dtypes as an earlier build; the "
                     "op could not tell which one to launch");

  errors.clear();
  in.builds[1].kernels[0].abi.params[1].dims = {{"K", 0}};
  CHECK_FALSE(check_torch_input(in, errors));
  CHECK(errors.at(0) == "kernel 'layernorm': the build EPS=1e-6 differs from the build T=f16 in the extents of 'W'; "
                        "the builds of one op may differ only in dtypes");
}

TEST_CASE("names Python cannot take and dtypes PyTorch has not", "[torch]") {
  TorchInput in = one_build(kernel("k", {array_param("lambda", DType::TF32, {{"n", 0}})}, {"n"}, {false}));
  in.ns = "1ops";
  std::vector<std::string> errors;
  CHECK_FALSE(check_torch_input(in, errors));
  CHECK(errors == std::vector<std::string>{
                      "the op namespace '1ops' is not a Python identifier; set one with --torch-namespace",
                      "kernel 'k': parameter 'lambda' is a Python keyword; ops are called from Python",
                      "kernel 'k': array 'lambda' has dtype tf32, which no PyTorch tensor has"});
}
