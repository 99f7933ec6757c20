// Running tools without a shell, and the private temporary folder.
#include <catch2/catch.hpp>

#include <filesystem>

#include "codegen/toolchain/subprocess.h"

using namespace tilec;
namespace fs = std::filesystem;

TEST_CASE("arguments reach the tool exactly, with no shell in between", "[subprocess]") {
  ToolRun run;
  std::string error;
  REQUIRE(run_tool({"/usr/bin/printf", "<%s>", "a b", "'q'", "\"dq\"", "-x", "$HOME", "*"}, "/", run, error));
  CHECK(run.succeeded());
  CHECK(run.output == "<a b><'q'><\"dq\"><-x><$HOME><*>");
}

TEST_CASE("exit codes, stderr and tools that cannot start", "[subprocess]") {
  ToolRun run;
  std::string error;
  REQUIRE(run_tool({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, "/", run, error));
  CHECK(run.exit_code == 3);
  CHECK(run.output == "out\nerr\n");
  CHECK_FALSE(run_tool({"/no/such/tool"}, "/", run, error));
  CHECK(error.find("cannot run '/no/such/tool'") == 0);
}

TEST_CASE("the tool runs in the given folder", "[subprocess]") {
  TempDir dir;
  REQUIRE(dir.ok());
  ToolRun run;
  std::string error;
  REQUIRE(run_tool({"/bin/pwd"}, dir.path(), run, error));
  CHECK(run.output == fs::canonical(dir.path()).string() + "\n");
}

TEST_CASE("the temporary folder is private and removed with its contents", "[subprocess]") {
  std::string path;
  {
    TempDir dir;
    REQUIRE(dir.ok());
    path = dir.path();
    CHECK((fs::status(path).permissions() & fs::perms::all) == fs::perms::owner_all);
    std::string error;
    REQUIRE(write_whole_file(dir.file("x.ptx"), "data", error));
    fs::create_directories(dir.file("sub/deeper"));
  }
  CHECK_FALSE(fs::exists(path));
  TempDir bad("/no/such/root");
  CHECK_FALSE(bad.ok());
  CHECK(bad.error().find("/no/such/root") != std::string::npos);
}
