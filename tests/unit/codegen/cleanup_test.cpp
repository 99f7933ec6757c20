// Signal-time cleanup of temporary files and folders (codegen/cleanup.h).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "codegen/cleanup.h"
#include "codegen/subprocess.h"

using namespace tilec;
namespace fs = std::filesystem;

namespace {

// A scratch folder made without TempDir: a forked child inherits every registered path, and
// its signal handler would remove a registered scratch folder too.
fs::path scratch_dir(const char* name) {
  fs::path p = fs::temp_directory_path() / (std::string(name) + "." + std::to_string(getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

}  // namespace

TEST_CASE("a signal removes registered files and folders, then kills the process with it", "[cleanup]") {
  fs::path scratch = scratch_dir("tilec_cleanup_test");
  std::string file = scratch / "out.h.tmp.abc123", dir = scratch / "tilec-xyz", kept = scratch / "kept.txt";
  fs::create_directories(dir);
  std::ofstream(file) << "half written";
  std::ofstream(dir + "/tilec-input.ptx") << "ptx";
  std::ofstream(dir + "/sm_90.cubin") << "elf";
  std::ofstream(kept) << "not registered";
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    install_signal_cleanup();
    register_cleanup(file, false);
    register_cleanup(dir, true);
    std::raise(SIGTERM);
    _exit(0);  // not reached: the handler re-raises with the default action
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK_FALSE(fs::exists(file));
  CHECK_FALSE(fs::exists(dir));
  CHECK(fs::exists(kept));
  fs::remove_all(scratch);
}

TEST_CASE("cleanup slots are reused and run out cleanly", "[cleanup]") {
  std::vector<int> slots;
  for (int i = 0; i < 40; ++i) slots.push_back(register_cleanup("/nonexistent/" + std::to_string(i), false));
  CHECK(std::count(slots.begin(), slots.end(), -1) >= 40 - 16);
  CHECK(register_cleanup(std::string(5000, 'x'), false) == -1);
  for (int s : slots) unregister_cleanup(s);
  unregister_cleanup(-1);
  int again = register_cleanup("/nonexistent/again", false);
  CHECK(again >= 0);
  unregister_cleanup(again);
}

TEST_CASE("TempDir is cleaned up by a signal too", "[cleanup]") {
  fs::path scratch = scratch_dir("tilec_cleanup_tempdir_test");
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    install_signal_cleanup();
    TempDir dir(scratch.string());
    std::string error;
    write_whole_file(dir.file("tilec-input.ptx"), "ptx", error);
    (void)!write(fds[1], "x", 1);
    for (;;) pause();
  }
  char c;
  REQUIRE(read(fds[0], &c, 1) == 1);
  kill(pid, SIGINT);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  CHECK(fs::is_empty(scratch));
  close(fds[0]);
  close(fds[1]);
  fs::remove_all(scratch);
}
