// Names the generated header can and cannot use (check_kernel_name, check_kernel_abi).
#include <catch2/catch.hpp>

#include "codegen/header/header.h"
#include "sample_abi.h"

using namespace tilec;
using namespace tilec::test;

namespace {

std::string name_error(const std::string& prefix, const std::string& name, std::vector<std::string> all) {
  std::string error;
  if (check_kernel_name(prefix, name, all, error)) return "";
  return error;
}

std::vector<std::string> abi_errors(const KernelAbi& k) {
  std::vector<std::string> errors;
  check_kernel_abi(k, errors);
  return errors;
}

}  // namespace

TEST_CASE("kernel names that are keywords, reserved or another kernel's suffix are rejected", "[header]") {
  CHECK(name_error("", "vector_add", {"vector_add"}).empty());
  CHECK(name_error("my_", "int", {"int"}).empty());  // the symbol is my_int
  CHECK(name_error("", "int", {"int"}) == "kernel name 'int' cannot be used in the C header: 'int' is a C or C++ keyword");
  CHECK(name_error("", "class", {"class"}).find("keyword") != std::string::npos);
  CHECK(name_error("", "foo_grid", {"foo", "foo_grid"}) ==
        "kernel name 'foo_grid' cannot be used in the C header: 'foo_grid' is the '_grid' function of kernel 'foo'");
  CHECK(name_error("p_", "foo_metadata", {"foo", "foo_metadata"}).find("'_metadata' function of kernel 'foo'") !=
        std::string::npos);
  CHECK(name_error("", "foo", {"foo", "foo"}).find("two kernels") != std::string::npos);
  CHECK(name_error("", "a__b", {"a__b"}).find("reserved") != std::string::npos);
  CHECK(name_error("", "x_tilec_state", {"x_tilec_state"}).find("'tilec_'") != std::string::npos);
  CHECK(name_error("", "main", {"main"}).find("entry point") != std::string::npos);
  CHECK(name_error("", "cuInit", {"cuInit"}).find("CUDA driver API") != std::string::npos);
  // The plain-name alias would replace the C library's function in the whole program.
  for (const char* libc : {"exp", "expf", "puts", "memcpy", "strlen", "malloc", "exit", "pthread_mutex_lock", "y0"})
    CHECK(name_error("", libc, {libc}).find("C standard library or POSIX") != std::string::npos);
  CHECK(name_error("my_", "exp", {"exp"}).empty());  // my_exp
  CHECK(name_error("", "expand", {"expand"}).empty());
  CHECK(name_error("9", "k", {"k"}).find("prefix") != std::string::npos);
  CHECK(header_symbol_suffixes() ==
        std::vector<std::string>{"", "_strided", "_grid", "_config", "_launch_config",
                                 "_launch_config_strided", "_workspace_bytes", "_load", "_unload", "_metadata"});
}

TEST_CASE("a well-formed kernel passes check_kernel_abi", "[header]") {
  CHECK(abi_errors(vector_add_abi()).empty());
}

TEST_CASE("a kernel with a split-K configuration keeps `workspace` for its launch's argument", "[header]") {
  KernelAbi k = vector_add_abi();
  k.params.push_back(scalar_param("workspace", DType::I32));
  CHECK(abi_errors(k).empty());  // no split-K configuration: an ordinary name
  k.workspace_arg = true;
  std::vector<std::string> errors = abi_errors(k);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("'workspace' collides with the workspace argument of the split-K configurations") !=
        std::string::npos);
}

TEST_CASE("names of the C types the header uses are refused (fresh-user finding)", "[header]") {
  KernelAbi k = vector_add_abi();
  k.params.push_back(scalar_param("int64_t", DType::I32));
  k.params.push_back(scalar_param("CUdeviceptr", DType::I32));
  k.params.push_back(scalar_param("CUDA_ok", DType::I32));  // 'CU' and a capital: not a driver type
  CHECK(abi_errors(k) == std::vector<std::string>{
                             "kernel 'vector_add': scalar 'int64_t' is a C type or macro the header uses",
                             "kernel 'vector_add': scalar 'CUdeviceptr' is a CUDA driver API type name "
                             "('CU' and a lower-case letter or '_')"});
  std::string error;
  CHECK_FALSE(check_kernel_name("", "uint64_t", {"uint64_t"}, error));
  CHECK(error == "kernel name 'uint64_t' cannot be used in the C header: 'uint64_t' is a C type or macro the "
                 "header uses");
  CHECK_FALSE(check_kernel_name("", "CUresult", {"CUresult"}, error));
  CHECK(check_kernel_name("", "size", {"size"}, error));
}

TEST_CASE("parameter names must be usable in C and not collide", "[header]") {
  KernelAbi k = vector_add_abi();
  k.params.push_back(scalar_param("stream", DType::F32));
  k.params.push_back(scalar_param("new", DType::I32));
  k.params.push_back(scalar_param("a_shape", DType::I32));
  CHECK(abi_errors(k) == std::vector<std::string>{
                             "kernel 'vector_add': scalar 'stream' is reserved by the generated header "
                             "('stream', 'grid', 'num_sms', '...tilec_...')",
                             "kernel 'vector_add': scalar 'new' is a C or C++ keyword",
                             "kernel 'vector_add': scalar 'a_shape' collides with the strided form of array 'a' "
                             "in the launch functions"});
}

TEST_CASE("restricted scalar dtypes cannot cross the C ABI", "[header]") {
  KernelAbi k = vector_add_abi();
  k.params.push_back(scalar_param("s", DType::TF32));
  REQUIRE(abi_errors(k).size() == 1);
  CHECK(abi_errors(k)[0].find("dtype tf32 cannot be passed") != std::string::npos);
}

TEST_CASE("grid expressions may name only symbols, integer scalars, num_sms and helpers", "[header]") {
  KernelAbi k = vector_add_abi();
  k.params.push_back(scalar_param("alpha", DType::F32));
  k.params.push_back(scalar_param("block", DType::I32));
  k.grid.dims_c = {"tilec_cdiv(n, block)", "mylib_tilec_max(1, block)"};
  CHECK(abi_errors(k).empty());
  k.grid.dims_c = {"tilec_cdiv(n, alpha)"};
  CHECK(abi_errors(k) == std::vector<std::string>{
                             "kernel 'vector_add': grid expression 'tilec_cdiv(n, alpha)' names 'alpha', which is "
                             "neither a dimension symbol, an integer scalar, num_sms nor a helper"});
  k.grid.dims_c = {"num_sms"};
  CHECK(abi_errors(k) == std::vector<std::string>{"kernel 'vector_add': the grid uses num_sms but uses_num_sms is false"});
  k.grid.uses_num_sms = true;
  CHECK(abi_errors(k).empty());
  k.grid.dims_c = {};
  CHECK(abi_errors(k) == std::vector<std::string>{"kernel 'vector_add': the grid needs 1 to 3 expressions"});
}

TEST_CASE("symbols, variants, threads and clusters are checked", "[header]") {
  KernelAbi k = vector_add_abi();
  k.dim_symbols = {"n", "m"};
  k.paths[0].variants = {{"only", false}, {"second", true}};
  k.paths[0].threads_per_cta = 2048;
  k.paths[0].cluster_dims[1] = 0;
  CHECK(abi_errors(k) == std::vector<std::string>{
                             "kernel 'vector_add': dimension symbol 'm' is not used by any array",
                             "kernel 'vector_add': only the first variant may be the vectorized one",
                             "kernel 'vector_add': threads per CTA must be 1 to 1024",
                             "kernel 'vector_add': cluster dimensions must be at least 1"});
}

TEST_CASE("code paths: arch-specific ones first, the portable one last, distinct entries", "[header]") {
  KernelAbi k = vector_add_abi();
  AbiPath hopper = k.paths[0];
  hopper.name = "hopper";
  hopper.target = codegen::parse_target("sm_90a");
  hopper.variants = {{"vector_add_vec", false}};
  k.paths.insert(k.paths.begin(), hopper);
  CHECK(abi_errors(k) == std::vector<std::string>{"kernel 'vector_add': variant entry 'vector_add_vec' appears twice"});
  k.paths[0].variants = {{"vector_add_sm90a", false}};
  CHECK(abi_errors(k).empty());
  k.paths[0].target = codegen::parse_target("sm_90");
  CHECK(abi_errors(k) == std::vector<std::string>{
                             "kernel 'vector_add': code path 'hopper' names -arch 'sm_90': an arch-specific path needs an 'a' target"});
  std::swap(k.paths[0], k.paths[1]);
  k.paths[1].target = codegen::parse_target("sm_90a");
  CHECK(abi_errors(k) == std::vector<std::string>{
                             "kernel 'vector_add': only the last code path is the portable one (no arch); path 'portable' breaks that",
                             "kernel 'vector_add': only the last code path is the portable one (no arch); path 'hopper' breaks that"});
}

TEST_CASE("check_kernel_abi names the parameter or symbol behind each problem", "[header]") {
  KernelAbi k = vector_add_abi();
  k.params.push_back(scalar_param("stream", DType::I32));
  k.params.push_back(scalar_param("a_shape", DType::I32));  // the strided form's name for array a
  std::vector<std::string> errors, subjects;
  CHECK_FALSE(check_kernel_abi(k, errors, &subjects));
  CHECK(errors.size() == 2);
  CHECK(subjects == std::vector<std::string>{"stream", "a_shape"});
}
