// The ptxas worker pool (codegen/toolchain/ptxas_pool.h): bounded parallel runs, each distinct module once,
// results by job whatever order the runs finish in. A stand-in ptxas (a shell script that sleeps
// as long as its PTX says, then writes the PTX back as the cubin) needs no CUDA toolkit; one
// test uses the real one when it is installed.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "codegen/toolchain/cleanup.h"
#include "codegen/toolchain/ptxas_pool.h"
#include "codegen/toolchain/subprocess.h"

using namespace tilec;
namespace fs = std::filesystem;

namespace {

// A toolkit whose ptxas sleeps for the seconds on the PTX's first line ("sleep 0.3"), fails
// when that line is "fail", and copies the PTX to the cubin; every run appends its PTX's first
// line to runs.log.
struct FakeToolkit {
  fs::path root;
  CudaToolkit tk;
  FakeToolkit() : root(fs::temp_directory_path() / ("tilec_ptxas_pool_test." + std::to_string(getpid()))) {
    fs::remove_all(root);
    fs::create_directories(root / "tmp");
    tk.ptxas = (root / "ptxas").string();
    tk.fatbinary = "/bin/false";
    // assemble_cubin runs it in its private folder on fixed file names (toolchain.cpp).
    std::ofstream(tk.ptxas) << "#!/bin/sh\n"
                               "head -n 1 tilec-input.ptx >> '" << (root / "runs.log").string() << "'\n"
                               "read first rest < tilec-input.ptx\n"
                               "[ \"$first\" = fail ] && { echo 'ptxas fatal   : no good'; exit 255; }\n"
                               "[ \"$first\" = sleep ] && sleep $rest\n"
                               "cp tilec-input.ptx tilec-output.cubin\n";
    fs::permissions(tk.ptxas, fs::perms::owner_all);
  }
  ~FakeToolkit() { fs::remove_all(root); }
  AssembleOptions options(int jobs) const {
    AssembleOptions o;
    o.jobs = jobs;
    o.temp_root = (root / "tmp").string();
    return o;
  }
  std::vector<std::string> runs() const {
    std::ifstream in(root / "runs.log");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TEST_CASE("the same module is assembled once; each job keeps its own result", "[ptxas_pool]") {
  FakeToolkit fake;
  PtxasPool pool(fake.tk, fake.options(2));
  size_t a = pool.submit("sm_90", "sleep 0.2\nA\n");
  size_t b = pool.submit("sm_80", "sleep 0.2\nA\n");  // the same PTX for another arch: a run of its own
  size_t again = pool.submit("sm_90", "sleep 0.2\nA\n");
  CHECK(again == a);
  CHECK(b != a);
  pool.wait_any({a});
  pool.wait_any({b});
  CHECK(pool.finished(a));
  CHECK(pool.result(a).ok);
  CHECK(pool.result(a).cubin.bytes == "sleep 0.2\nA\n");
  CHECK(pool.result(a).cubin.arch == "sm_90");
  CHECK(pool.result(b).cubin.arch == "sm_80");
  CHECK(pool.result(a).seconds >= 0.2);
  // Asked for once more after it finished: the same job, nothing run.
  CHECK(pool.submit("sm_90", "sleep 0.2\nA\n") == a);
  CHECK(pool.runs() == 2);
  CHECK(pool.submitted() == 4);
  CHECK(fake.runs().size() == 2);
  CHECK(fs::is_empty(fake.root / "tmp"));  // every private folder is gone
}

TEST_CASE("runs go side by side up to -j, and finish in any order", "[ptxas_pool]") {
  FakeToolkit fake;
  auto start = std::chrono::steady_clock::now();
  PtxasPool pool(fake.tk, fake.options(3));
  size_t slow = pool.submit("sm_90", "sleep 1.0\nslow\n");
  size_t fast = pool.submit("sm_90", "sleep 0.8\nfast\n");
  size_t bad = pool.submit("sm_90", "fail\n");
  // The first of the list to finish: the failure (or the fast one), not the slow one.
  size_t first = pool.wait_any({slow, fast, bad});
  CHECK(first != slow);
  pool.wait_any({slow});
  pool.wait_any({fast});
  CHECK(seconds_since(start) < 1.6);  // side by side: 1 s, not 1.8 s one after another
  CHECK(pool.result(slow).cubin.bytes == "sleep 1.0\nslow\n");
  CHECK(pool.result(fast).cubin.bytes == "sleep 0.8\nfast\n");
  CHECK_FALSE(pool.result(bad).ok);
  CHECK(pool.result(bad).error.rfind("ptxas failed for sm_90 (exit code 255)", 0) == 0);
  CHECK(pool.result(bad).error.find("no good") != std::string::npos);
}

TEST_CASE("one job at a time runs them in the order submitted", "[ptxas_pool]") {
  FakeToolkit fake;
  auto start = std::chrono::steady_clock::now();
  {
    PtxasPool pool(fake.tk, fake.options(1));
    size_t a = pool.submit("sm_90", "sleep 0.3\nfirst\n");
    size_t b = pool.submit("sm_90", "sleep 0.1\nsecond\n");
    pool.wait_any({b});
    CHECK(pool.finished(a));  // b cannot start before a ends
  }
  CHECK(seconds_since(start) >= 0.4);
  CHECK(fake.runs() == std::vector<std::string>{"sleep 0.3", "sleep 0.1"});
}

TEST_CASE("-j is clamped to 1 .. kMaxToolRuns", "[ptxas_pool]") {
  FakeToolkit fake;
  CHECK(PtxasPool(fake.tk, fake.options(0)).max_jobs() == 1);
  CHECK(PtxasPool(fake.tk, fake.options(1000)).max_jobs() == kMaxToolRuns);
  CHECK(available_cpus() >= 1);
}

TEST_CASE("the pool's cubins are assemble_cubin's", "[ptxas_pool][cuda]") {
  CudaToolkit tk;
  std::string error;
  if (!find_cuda_toolkit(ToolkitSearch::from_environment(), tk, error)) {
    WARN("no CUDA toolkit: skipped");
    return;
  }
  std::string ptx;
  REQUIRE(read_whole_file(TILEC_TEST_PTX, ptx, error));
  for (size_t at = ptx.find("@TARGET@"); at != std::string::npos; at = ptx.find("@TARGET@")) ptx.replace(at, 8, "sm_80");
  AssembleOptions opts;
  opts.jobs = 2;
  PtxasPool pool(tk, opts);
  size_t job = pool.submit("sm_80", ptx);
  pool.wait_any({job});
  REQUIRE(pool.result(job).ok);
  Cubin direct;
  REQUIRE(assemble_cubin(tk, ptx, "sm_80", opts, direct, error));
  CHECK(pool.result(job).cubin.bytes == direct.bytes);
  CHECK(pool.result(job).cubin.resources.size() == direct.resources.size());
}
