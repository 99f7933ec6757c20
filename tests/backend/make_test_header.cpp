// Makes the headers the backend tests compile, through the library as the driver will call it:
//   make_test_header vector_add PTX_TEMPLATE OUT.h ARCH...   real PTX -> ptxas -> fatbinary -> header
//   make_test_header mock OUT.h                             synthetic kernels with a made-up image,
//                                                           for the mock-driver run test
//   make_test_header big OUT.h MIB                          vector_add with a MIB MiB made-up image
// Exit code 0 on success; messages on stderr.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "codegen/header/header.h"
#include "codegen/toolchain/subprocess.h"
#include "codegen/toolchain/toolchain.h"

using namespace tilec;

namespace {

AbiParam array(const std::string& name, DType t, std::vector<ArrayDim> dims, bool written) {
  AbiParam p;
  p.kind = AbiParam::Kind::Array;
  p.name = name;
  p.dtype = t;
  p.dims = std::move(dims);
  p.may_write = written;
  return p;
}

AbiParam scalar(const std::string& name, DType t) {
  AbiParam p;
  p.kind = AbiParam::Kind::Scalar;
  p.name = name;
  p.dtype = t;
  return p;
}

ArrayDim sym(const std::string& s) { return ArrayDim{s, 0}; }
ArrayDim cst(int64_t c) { return ArrayDim{"", c}; }

// A code path's launch data (kernel_abi.h AbiPath).
AbiPath path(std::vector<AbiVariant> variants, int threads, int warps, int stages = 1, int shared = 0,
             std::string arch = "", std::string name = "portable") {
  AbiPath p;
  p.name = std::move(name);
  if (!arch.empty()) p.target = codegen::parse_target(arch);
  p.variants = std::move(variants);
  p.threads_per_cta = threads;
  p.num_warps = warps;
  p.num_stages = stages;
  p.dynamic_shared_bytes = shared;
  return p;
}

// vector_add.ptx.in's kernel: c[i] = a[i] + b[i].
KernelAbi vector_add_abi() {
  KernelAbi k;
  k.name = "vector_add";
  k.doc = "c[i] = a[i] + b[i] for 0 <= i < n.";
  k.params = {array("a", DType::F32, {sym("n")}, false), array("b", DType::F32, {sym("n")}, false),
              array("c", DType::F32, {sym("n")}, true)};
  k.dim_symbols = {"n"};
  k.grid.dims_c = {"tilec_cdiv(n, 1024)"};
  k.paths = {path({{"vector_add_vec", true}, {"vector_add_general", false}}, 128, 4)};
  return k;
}

// Kernels that exercise every path of the launch stub; the mock driver records what they pass.
std::vector<KernelAbi> mock_abis() {
  KernelAbi scale;  // 2-D, constant dimension, every scalar conversion, grid from a scalar
  scale.name = "scale_rows";
  scale.doc = "y[i, j] = x[i, j] * alpha (+ bias when use_bias) for a block of rows.\nSecond line.";
  scale.params = {array("x", DType::F16, {sym("m"), cst(64)}, false),
                  array("y", DType::F16, {sym("m"), cst(64)}, true),
                  array("flags", DType::Bool, {sym("m")}, false),
                  scalar("alpha", DType::F16), scalar("beta", DType::BF16), scalar("use_bias", DType::Bool),
                  scalar("rows_per_cta", DType::I32), scalar("eps", DType::F64), scalar("tag", DType::U8)};
  scale.dim_symbols = {"m"};
  scale.grid.dims_c = {"tilec_cdiv(m, rows_per_cta)", "1", "2"};
  scale.paths = {path({{"scale_rows_vec", true}, {"scale_rows_general", false}}, 256, 8)};

  KernelAbi persistent;  // num_sms, big dynamic shared memory, clusters, a prefix-written helper
  persistent.name = "persistent_mm";
  persistent.params = {array("a", DType::BF16, {sym("m"), sym("k")}, false),
                       array("b", DType::BF16, {sym("k"), sym("n")}, false),
                       array("c", DType::F32, {sym("m"), sym("n")}, true)};
  persistent.dim_symbols = {"m", "k", "n"};
  persistent.grid.dims_c = {"tilec_min(num_sms, tilec_cdiv(m, 128) * tilec_cdiv(n, 128)) * 2"};
  persistent.grid.uses_num_sms = true;
  persistent.paths = {path({{"persistent_mm_general", false}}, 384, 12, 4, 200 * 1024)};
  persistent.paths[0].cluster_dims[0] = 2;

  KernelAbi fill;  // rank-0 array, no dimension symbols, a floor-division grid
  fill.name = "fill_one";
  fill.params = {array("out", DType::I64, {}, true), scalar("value", DType::I64)};
  fill.grid.dims_c = {"tilec_floordiv(value, 4)"};
  fill.paths = {path({{"fill_one", false}}, 32, 1)};

  KernelAbi copy;  // arrays moved in 16-byte vectors: the innermost extent picks the variant
  copy.name = "copy_vec";
  copy.params = {array("a", DType::F32, {sym("n")}, false), array("b", DType::F32, {sym("n")}, true)};
  copy.params[0].vector_bytes = copy.params[1].vector_bytes = 16;
  copy.dim_symbols = {"n"};
  copy.grid.dims_c = {"tilec_cdiv(n, 1024)"};
  copy.paths = {path({{"copy_vec_v16", true}, {"copy_vec", false}}, 128, 4)};
  copy.host_asserts = {"(tilec_sym[0] <= INT64_C(4096))"};  // `assert n <= 4096`, left out of copy_vec_v16

  KernelAbi two_paths;  // an sm_90a path before the portable one: the device picks
  two_paths.name = "two_paths";
  two_paths.params = {array("a", DType::F16, {sym("m"), sym("k")}, false),
                      array("c", DType::F16, {sym("m"), sym("k")}, true)};
  two_paths.dim_symbols = {"m", "k"};
  two_paths.grid.dims_c = {"tilec_cdiv(m, 128)"};
  two_paths.paths = {path({{"two_paths_sm90a_v16", true}, {"two_paths_sm90a", false}}, 256, 8, 4, 160 * 1024, "sm_90a",
                          "sm90a-test"),
                     path({{"two_paths_v16", true}, {"two_paths", false}}, 128, 4, 3, 96 * 1024)};
  KernelAbi tma;  // a TMA path (tensor maps first) before the portable one
  tma.name = "tma_mm";
  tma.params = {array("A", DType::BF16, {sym("m"), sym("k")}, false), array("B", DType::BF16, {sym("k"), sym("n")}, false),
                array("C", DType::F32, {sym("m"), sym("n")}, true)};
  tma.dim_symbols = {"m", "k", "n"};
  tma.grid.dims_c = {"tilec_cdiv(m, 128) * tilec_cdiv(n, 256)"};
  tma.paths = {path({{"tma_mm_wgmma", true}}, 256, 8, 4, 197 * 1024, "sm_90a", "tma_wgmma"),
               path({{"tma_mm_v16", true}, {"tma_mm", false}}, 128, 4, 3, 96 * 1024)};
  tma.paths[0].tensor_maps = {{0, {64, 128}}, {1, {64, 64}}};

  KernelAbi split;  // launch divisors of each dtype, one from a scalar: computed and passed last
  split.name = "split_rows";
  split.params = {array("x", DType::F32, {sym("m"), sym("n")}, false), array("y", DType::F32, {sym("m"), sym("n")}, true),
                  scalar("g", DType::I64), scalar("h", DType::I32)};
  split.dim_symbols = {"m", "n"};
  split.grid.dims_c = {"m * tilec_cdiv(n, 256)"};
  split.paths = {path({{"split_rows_v16", true}, {"split_rows", false}}, 128, 4)};
  split.paths[0].divisors = {{"(int64_t)(uint32_t)(tilec_cdiv(n, INT64_C(256)))", DType::U32},
                             {"(int64_t)(int32_t)(uint32_t)(h)", DType::I32},
                             {"tilec_floordiv_wrap(g, INT64_C(2))", DType::I64},
                             {"n", DType::U64}};
  return {scale, persistent, fill, copy, two_paths, tma, split};
}

// pick_mm (C[m, n] from A[m, n]) declared with four configurations, the second left out of
// the build, and a tuning table (docs/tuning.md): what the mock run test's choice checks are
// computed from (mock_choice_test.c).
//   0 "BM=128, BN=128": grid cdiv(m, 128) * cdiv(n, 128); an sm_90a path (256 threads, 128 KiB)
//     before the portable one (128 threads, 64 KiB); tiles of 128 * 128
//   1 left out (as -Wconfig leaves a configuration that fails to build)
//   2 "BM=64, BN=64, num_warps=4": grid cdiv(m, 64) * cdiv(n, 64); portable, 128 threads,
//     16 KiB; tiles of 64 * 64; `assert n <= 1024`
//   3 "BM=256, BN=128, persistent=True": grid cdiv(m, 256) * cdiv(n, 128); persistent,
//     384 threads, 200 KiB; tiles of 256 * 128
KernelAbi pick_abi(const std::string& name, std::vector<std::string> grid, std::vector<AbiPath> paths) {
  KernelAbi k;
  k.name = name;
  k.params = {array("A", DType::F32, {sym("m"), sym("n")}, false), array("C", DType::F32, {sym("m"), sym("n")}, true)};
  k.dim_symbols = {"m", "n"};
  k.grid.dims_c = std::move(grid);
  k.paths = std::move(paths);
  return k;
}

HeaderConfigs pick_configs() {
  HeaderConfigs hc;
  KernelAbi c0 = pick_abi("pick_mm_config0", {"tilec_cdiv(m, 128) * tilec_cdiv(n, 128)"},
                          {path({{"pick_mm_config0_sm90a_v16", true}, {"pick_mm_config0_sm90a", false}}, 256, 8, 3,
                                128 * 1024, "sm_90a", "sm90a-test"),
                           path({{"pick_mm_config0_v16", true}, {"pick_mm_config0", false}}, 128, 4, 2, 64 * 1024)});
  KernelAbi c2 = pick_abi("pick_mm_config2", {"tilec_cdiv(m, 64) * tilec_cdiv(n, 64)"},
                          {path({{"pick_mm_config2_v16", true}, {"pick_mm_config2", false}}, 128, 4, 2, 16 * 1024)});
  c2.host_asserts = {"(tilec_sym[1] <= INT64_C(1024))"};
  KernelAbi c3 = pick_abi("pick_mm_config3", {"tilec_cdiv(m, 256) * tilec_cdiv(n, 128)"},
                          {path({{"pick_mm_config3_v16", true}, {"pick_mm_config3", false}}, 384, 12, 4, 200 * 1024)});
  c3.paths[0].persistent = true;
  hc.abis = {c0, c2, c3};
  hc.indices = {0, 2, 3};
  hc.labels = {"BM=128, BN=128", "", "BM=64, BN=64, num_warps=4", "BM=256, BN=128, persistent=True"};
  hc.work = {128 * 128, 64 * 64, 256 * 128};
  hc.space = "0123456789abcdef";
  // Device 0 ("Mock H100") by its name; device 1 ("Mock Other", 8.0, 66 SMs) by its numbers.
  hc.tuning = {{"Mock H100", 90, 132, {{4096, 4096}, {128, 512}, {1024, 1024}}, {3, 2, 0}},
               {"Mock A100 by numbers", 80, 66, {{1000, 1000}, {1001, 1000}, {100, 100}, {8192, 8192}}, {0, 2, 2, 3}}};
  return hc;
}

int write_header(const HeaderInput& in, const std::string& out) {
  std::vector<std::string> names, errors;
  for (const KernelAbi& k : in.kernels) names.push_back(k.name);
  for (const KernelAbi& k : in.kernels) {
    std::string error;
    if (!check_kernel_name(in.prefix, k.name, names, error)) errors.push_back(error);
    check_kernel_abi(k, errors);
  }
  for (const std::string& e : errors) std::fprintf(stderr, "make_test_header: %s\n", e.c_str());
  if (!errors.empty()) return 1;
  std::string error;
  if (!write_whole_file(out, generate_header(in), error)) {
    std::fprintf(stderr, "make_test_header: %s\n", error.c_str());
    return 1;
  }
  return 0;
}

int make_vector_add(const std::string& ptx_template, const std::string& out, const std::vector<std::string>& archs) {
  std::string error, templ, version;
  CudaToolkit tk;
  if (!find_cuda_toolkit(ToolkitSearch::from_environment(), tk, error) || !ptxas_version(tk, version, error) ||
      !read_whole_file(ptx_template, templ, error)) {
    std::fprintf(stderr, "make_test_header: %s\n", error.c_str());
    return 1;
  }
  std::vector<ArchPtx> inputs;
  for (const std::string& arch : archs) {
    std::string ptx = templ;
    for (size_t at = ptx.find("@TARGET@"); at != std::string::npos; at = ptx.find("@TARGET@"))
      ptx.replace(at, 8, arch);
    if (arch.back() == 'a') ptx.replace(ptx.find(".version 7.8"), 12, ".version 8.0");  // sm_90a: PTX ISA 8.0
    inputs.push_back({arch, ptx});
  }
  AssembleOptions opts;
  opts.failed_ptx_prefix = out;
  Fatbin fatbin;
  if (!make_fatbin(tk, inputs, opts, fatbin, error)) {
    std::fprintf(stderr, "make_test_header: %s\n", error.c_str());
    return 1;
  }
  for (const Cubin& c : fatbin.cubins) {
    for (const std::string& w : c.warnings) std::fprintf(stderr, "make_test_header: %s: %s\n", c.arch.c_str(), w.c_str());
    if (!c.warnings.empty()) return 1;  // the backend checks want zero warnings
  }
  HeaderInput in;
  in.source_name = "vector_add.tile";
  for (const std::string& arch : archs) in.targets.push_back(*codegen::parse_target(arch));
  in.tilec_version = TILEC_VERSION;
  in.cuda_version = version;
  in.image = fatbin.bytes;
  in.kernels = {vector_add_abi()};
  return write_header(in, out);
}

int make_mock(const std::string& out) {
  HeaderInput in;
  in.source_name = "mock kernels \"odd\" name.tile";
  in.targets = {*codegen::parse_target("sm_80"), *codegen::parse_target("sm_90a")};
  in.prefix = "mock_";
  in.tilec_version = TILEC_VERSION;
  in.cuda_version = "0.0.0";
  // 13 bytes: not a multiple of 8, so the padding of the last word is exercised.
  in.image = std::string("\x50\xed\x55\xba\x01\x00\x10\x00" "tilec", 13);
  in.kernels = mock_abis();
  // Every kernel has its one configuration, as the driver passes them; pick_mm has several.
  for (const KernelAbi& k : in.kernels) in.configs.push_back({{k}, {0}, {""}, {1}, "", {}});
  HeaderConfigs pick = pick_configs();
  in.kernels.push_back(pick.abis[0]);
  in.kernels.back().name = "pick_mm";
  in.configs.push_back(pick);
  in.constants = {{"BLOCK", "128"}, {"SCALE", "0.5"}};
  return write_header(in, out);
}

// vector_add with a made-up image of `mib` MiB (pseudo-random bytes, which do not compress
// into short literals), to time how long compilers take over a multi-megabyte header.
int make_big(const std::string& out, int mib) {
  HeaderInput in;
  in.source_name = "big.tile";
  in.targets = {*codegen::parse_target("sm_90")};
  in.tilec_version = TILEC_VERSION;
  in.cuda_version = "0.0.0";
  in.image.resize(size_t(mib) << 20);
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (char& c : in.image) {
    x = x * 6364136223846793005u + 1442695040888963407u;  // Knuth's MMIX LCG
    c = char(x >> 56);
  }
  in.kernels = {vector_add_abi()};
  return write_header(in, out);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() >= 4 && args[0] == "vector_add")
    return make_vector_add(args[1], args[2], std::vector<std::string>(args.begin() + 3, args.end()));
  if (args.size() == 2 && args[0] == "mock") return make_mock(args[1]);
  if (args.size() == 3 && args[0] == "big") return make_big(args[1], std::stoi(args[2]));
  std::fprintf(stderr, "usage: make_test_header vector_add PTX_TEMPLATE OUT.h ARCH... | mock OUT.h | big OUT.h MIB\n");
  return 2;
}
