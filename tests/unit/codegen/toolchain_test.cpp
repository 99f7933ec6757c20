// Finding the CUDA toolkit and running ptxas and fatbinary. Tests that need the real toolkit
// (found the way the driver finds it) say so and stop when it is missing.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "codegen/toolchain/subprocess.h"
#include "codegen/toolchain/toolchain.h"

using namespace tilec;
namespace fs = std::filesystem;

namespace {

// A folder under the system temp dir, removed at the end of the test.
struct Scratch {
  fs::path root;
  explicit Scratch(const std::string& name) : root(fs::temp_directory_path() / ("tilec_toolchain_test_" + name)) {
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Scratch() { fs::remove_all(root); }
};

void make_tool(const fs::path& path) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "#!/bin/sh\nexit 0\n";
  fs::permissions(path, fs::perms::owner_all);
}

const CudaToolkit* real_toolkit() {
  static CudaToolkit tk;
  static bool found = [] {
    std::string error;
    return find_cuda_toolkit(ToolkitSearch::from_environment(), tk, error);
  }();
  return found ? &tk : nullptr;
}

std::string vector_add_ptx(const std::string& arch) {
  std::string ptx, error;
  REQUIRE(read_whole_file(TILEC_TEST_PTX, ptx, error));
  for (size_t at = ptx.find("@TARGET@"); at != std::string::npos; at = ptx.find("@TARGET@")) ptx.replace(at, 8, arch);
  if (arch.back() == 'a') ptx.replace(ptx.find(".version 7.8"), 12, ".version 8.0");  // sm_90a needs PTX ISA 8.0
  return ptx;
}

size_t entries_in(const fs::path& dir) {
  return size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("the toolkit is looked for in CUDA_PATH, CUDA_HOME, the default root, then PATH", "[toolchain]") {
  Scratch s("find");
  make_tool(s.root / "home/bin/ptxas");
  make_tool(s.root / "home/bin/fatbinary");
  make_tool(s.root / "onpath/ptxas");
  make_tool(s.root / "onpath/fatbinary");
  make_tool(s.root / "halfpath/ptxas");
  fs::create_directories(s.root / "empty");

  ToolkitSearch where;
  where.cuda_path = (s.root / "empty").string();
  where.cuda_home = (s.root / "home").string();
  where.default_root = (s.root / "nothing").string();
  CudaToolkit tk;
  std::string error;
  REQUIRE(find_cuda_toolkit(where, tk, error));
  CHECK(tk.found_via == "CUDA_HOME");
  CHECK(tk.ptxas == (s.root / "home/bin/ptxas").string());
  CHECK(tk.fatbinary == (s.root / "home/bin/fatbinary").string());
  REQUIRE(tk.passed_over.size() == 1);
  CHECK(tk.passed_over[0] == "$CUDA_PATH=" + where.cuda_path + ": no executable " + where.cuda_path + "/bin/ptxas");

  where.cuda_home.clear();
  where.path = (s.root / "halfpath").string() + ":" + (s.root / "onpath").string();
  REQUIRE(find_cuda_toolkit(where, tk, error));
  CHECK(tk.found_via == "PATH");
  CHECK(tk.ptxas == (s.root / "onpath/ptxas").string());
  CHECK(tk.passed_over.back() == "$PATH folder " + (s.root / "halfpath").string() + ": no executable " +
                                     (s.root / "halfpath/fatbinary").string());

  where.path = "/nonexistent";
  CHECK_FALSE(find_cuda_toolkit(where, tk, error));
  CHECK(error == "cannot find the CUDA toolkit (ptxas and fatbinary); looked at:\n"
                 "  $CUDA_PATH=" + where.cuda_path + ": no executable " + where.cuda_path + "/bin/ptxas\n"
                 "  $CUDA_HOME: not set\n"
                 "  " + where.default_root + ": no executable " + where.default_root + "/bin/ptxas\n"
                 "  $PATH: no ptxas\n"
                 "set CUDA_PATH to the toolkit's folder (the one holding bin/ptxas)");
}

TEST_CASE("the nvidia-cuda-nvcc wheel beside tilec's wheel comes before every toolkit", "[toolchain]") {
  Scratch s("wheel");
  make_tool(s.root / "toolkit/bin/ptxas");
  make_tool(s.root / "toolkit/bin/fatbinary");
  ToolkitSearch where;
  where.wheel_root = (s.root / "site-packages/nvidia/cu13").string();
  where.cuda_path = (s.root / "toolkit").string();
  where.default_root = (s.root / "toolkit").string();
  CudaToolkit tk;
  std::string error;
  // Without the wheel's tools, CUDA_PATH's, and a line saying the wheel was looked at.
  REQUIRE(find_cuda_toolkit(where, tk, error));
  CHECK(tk.found_via == "CUDA_PATH");
  REQUIRE(tk.passed_over.size() == 1);
  CHECK(tk.passed_over[0] == "nvidia-cuda-nvcc wheel=" + where.wheel_root + ": no executable " + where.wheel_root +
                                 "/bin/ptxas");

  make_tool(s.root / "site-packages/nvidia/cu13/bin/ptxas");
  make_tool(s.root / "site-packages/nvidia/cu13/bin/fatbinary");
  REQUIRE(find_cuda_toolkit(where, tk, error));
  CHECK(tk.found_via == "nvidia-cuda-nvcc wheel");
  CHECK(tk.ptxas == where.wheel_root + "/bin/ptxas");
  CHECK(tk.fatbinary == where.wheel_root + "/bin/fatbinary");
  CHECK(tk.passed_over.empty());

  // Nothing anywhere: the error says how to get the wheel's tools.
  where.wheel_root = (s.root / "nothing").string();
  where.cuda_path.clear();
  where.default_root = (s.root / "nothing").string();
  where.path = "/nonexistent";
  CHECK_FALSE(find_cuda_toolkit(where, tk, error));
  CHECK(error == "cannot find the CUDA toolkit (ptxas and fatbinary); looked at:\n"
                 "  nvidia-cuda-nvcc wheel=" + where.wheel_root + ": no executable " + where.wheel_root + "/bin/ptxas\n"
                 "  $CUDA_PATH: not set\n"
                 "  $CUDA_HOME: not set\n"
                 "  " + where.default_root + ": no executable " + where.default_root + "/bin/ptxas\n"
                 "  $PATH: no ptxas\n"
                 "set CUDA_PATH to the toolkit's folder (the one holding bin/ptxas), or install NVIDIA's "
                 "beside tilec: pip install 'tilec[cuda]'");
}

TEST_CASE("ptxas -v resource lines are parsed per entry", "[toolchain]") {
  const char* log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k1' for 'sm_80'\n"
      "ptxas info    : Function properties for helper\n"
      "    99 bytes stack frame, 99 bytes spill stores, 99 bytes spill loads\n"
      "ptxas info    : Function properties for k1\n"
      "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 4096 bytes smem, 360 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'k2' for 'sm_80'\n"
      "ptxas info    : Function properties for k2\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers, used 0 barriers, 360 bytes cmem[0]\n";
  std::vector<EntryResources> r = parse_ptxas_resources(log);
  REQUIRE(r.size() == 2);
  CHECK(r[0].entry == "k1");
  CHECK(r[0].arch == "sm_80");
  CHECK(r[0].registers == 255);
  CHECK(r[0].barriers == 1);
  CHECK(r[0].shared_bytes == 4096);
  CHECK(r[0].stack_bytes == 16);
  CHECK(r[0].spill_store_bytes == 8);
  CHECK(r[0].spill_load_bytes == 4);
  CHECK(r[0].spills());
  CHECK(r[1].registers == 12);
  CHECK(r[1].shared_bytes == 0);
  CHECK_FALSE(r[1].spills());
  CHECK(describe_resources(r[0]) == "k1 on sm_80: 255 registers, 1 barriers, 16 bytes stack, 4096 bytes static shared; "
                                    "spills: 8 bytes stored, 4 bytes loaded");
  CHECK(describe_resources(r[1]) == "k2 on sm_80: 12 registers, 0 barriers, 0 bytes stack, 0 bytes static shared");
}

TEST_CASE("ptxas assembles the sample for each arch, deterministically", "[toolchain][cuda]") {
  const CudaToolkit* tk = real_toolkit();
  if (!tk) {
    WARN("no CUDA toolkit: skipped");
    return;
  }
  std::string version, error;
  REQUIRE(ptxas_version(*tk, version, error));
  CHECK(version.find('.') != std::string::npos);

  Scratch s("assemble");
  AssembleOptions opts;
  opts.temp_root = s.root.string();
  for (const char* arch : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"}) {
    Cubin a, b;
    INFO(arch);
    REQUIRE(assemble_cubin(*tk, vector_add_ptx(arch), arch, opts, a, error));
    CHECK(a.bytes.substr(0, 4) == "\x7f" "ELF");
    CHECK(a.warnings.empty());
    REQUIRE(a.resources.size() == 2);
    CHECK(a.resources[0].arch == arch);
    CHECK(a.resources[0].registers > 0);
    CHECK_FALSE(a.resources[0].spills());
    REQUIRE(assemble_cubin(*tk, vector_add_ptx(arch), arch, AssembleOptions{}, b, error));
    CHECK(a.bytes == b.bytes);  // another temp root, another run: the same bytes
  }
  CHECK(entries_in(s.root) == 0);  // every private folder is gone
}

TEST_CASE("a fatbin holds SASS per arch and the newest plain arch's PTX", "[toolchain][cuda]") {
  const CudaToolkit* tk = real_toolkit();
  if (!tk) {
    WARN("no CUDA toolkit: skipped");
    return;
  }
  Scratch s("fatbin");
  AssembleOptions opts;
  opts.temp_root = s.root.string();
  std::vector<ArchPtx> in;
  for (const char* arch : {"sm_80", "sm_90a", "sm_86"}) in.push_back({arch, vector_add_ptx(arch)});
  Fatbin a, b;
  std::string error;
  REQUIRE(make_fatbin(*tk, in, opts, a, error));
  CHECK(a.ptx_arch == "sm_86");
  REQUIRE(a.cubins.size() == 3);
  CHECK(a.cubins[1].arch == "sm_90a");
  CHECK(a.bytes.substr(0, 4) == "\x50\xed\x55\xba");  // fatbin magic 0xba55ed50, little-endian
  REQUIRE(make_fatbin(*tk, in, opts, b, error));
  CHECK(a.bytes == b.bytes);
  CHECK(entries_in(s.root) == 0);

  Fatbin only_a;
  REQUIRE(make_fatbin(*tk, {{"sm_90a", vector_add_ptx("sm_90a")}}, opts, only_a, error));
  CHECK(only_a.ptx_arch.empty());
  CHECK(only_a.bytes.size() < a.bytes.size());

  CHECK_FALSE(make_fatbin(*tk, {in[0], in[0]}, opts, b, error));
  CHECK(error == "architecture 'sm_80' is given twice");
  CHECK_FALSE(make_fatbin(*tk, {}, opts, b, error));
}

TEST_CASE("a ptxas failure names the saved PTX, also under odd file names", "[toolchain][cuda]") {
  const CudaToolkit* tk = real_toolkit();
  if (!tk) {
    WARN("no CUDA toolkit: skipped");
    return;
  }
  Scratch s("failure");
  // The output path has spaces, quotes and a leading dash; the temp root has spaces too.
  fs::path odd_dir = s.root / "dir with 'quotes' \"and\" spaces";
  fs::create_directories(odd_dir / "tmp root");
  AssembleOptions opts;
  opts.temp_root = (odd_dir / "tmp root").string();
  opts.failed_ptx_prefix = (odd_dir / "-k 'x'.h").string();
  std::string bad = vector_add_ptx("sm_90");
  bad.replace(bad.find("add.f32 %f3, %f1, %f2;"), 22, "add.f32 %f3, %f1, %nope;");
  Cubin out;
  std::string error;
  REQUIRE_FALSE(assemble_cubin(*tk, bad, "sm_90", opts, out, error));
  std::string saved = opts.failed_ptx_prefix + ".sm_90.failed.ptx";
  CHECK(error.rfind("ptxas failed for sm_90 (exit code 255); the PTX is saved as '" + saved + "':\n", 0) == 0);
  CHECK(error.find("ptxas " + saved + ", line ") != std::string::npos);
  CHECK(error.find("%nope") != std::string::npos);
  std::string copy;
  REQUIRE(read_whole_file(saved, copy, error));
  CHECK(copy == bad);
  CHECK(entries_in(odd_dir / "tmp root") == 0);

  // Without a prefix nothing is saved and the message says which arch's PTX it was.
  REQUIRE_FALSE(assemble_cubin(*tk, bad, "sm_90", AssembleOptions{}, out, error));
  CHECK(error.find("ptxas <PTX for sm_90>, line ") != std::string::npos);
  CHECK(error.find("saved") == std::string::npos);

  CHECK_FALSE(assemble_cubin(*tk, bad, "sm9", opts, out, error));
  CHECK(error == "'sm9' is not a GPU architecture (expected sm_<number>, like sm_80 or sm_90a)");
  CHECK_FALSE(assemble_cubin(*tk, vector_add_ptx("sm_90"), "sm_99", opts, out, error));
  CHECK(error.find("Value 'sm_99' is not defined for option 'gpu-name'") != std::string::npos);
}

TEST_CASE("tools under a path with spaces, quotes and a leading dash run", "[toolchain][cuda]") {
  const CudaToolkit* tk = real_toolkit();
  if (!tk) {
    WARN("no CUDA toolkit: skipped");
    return;
  }
  Scratch s("oddroot");
  fs::path bin = s.root / "-cuda 'odd' \"root\"" / "bin";
  fs::create_directories(bin);
  fs::create_symlink(tk->ptxas, bin / "ptxas");
  fs::create_symlink(tk->fatbinary, bin / "fatbinary");
  ToolkitSearch where;
  where.cuda_path = bin.parent_path().string();
  where.default_root = "/nonexistent";
  CudaToolkit odd;
  std::string error;
  REQUIRE(find_cuda_toolkit(where, odd, error));
  CHECK(odd.ptxas == (bin / "ptxas").string());
  Fatbin f, g;
  std::vector<ArchPtx> in = {{"sm_80", vector_add_ptx("sm_80")}};
  REQUIRE(make_fatbin(odd, in, AssembleOptions{}, f, error));
  REQUIRE(make_fatbin(*tk, in, AssembleOptions{}, g, error));
  CHECK(f.bytes == g.bytes);
}
