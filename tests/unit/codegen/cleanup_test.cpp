// Signal-time cleanup of temporary files and folders (codegen/toolchain/cleanup.h).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "codegen/toolchain/cleanup.h"
#include "codegen/toolchain/subprocess.h"

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
  int n = kCleanupSlots + 24;
  for (int i = 0; i < n; ++i) slots.push_back(register_cleanup("/nonexistent/" + std::to_string(i), false));
  CHECK(std::count(slots.begin(), slots.end(), -1) >= 24);
  CHECK(register_cleanup(std::string(5000, 'x'), false) == -1);
  for (int s : slots) unregister_cleanup(s);
  unregister_cleanup(-1);
  int again = register_cleanup("/nonexistent/again", false);
  CHECK(again >= 0);
  unregister_cleanup(again);
}

namespace {

// Forks a process that installs the signal cleanup, then runs `child` (which tells the parent
// it is ready by writing to the file descriptor it gets, then waits for the signal). Returns
// the process's pid; `from_child` is the pipe's read end, for the parent to close.
pid_t fork_with_cleanup(const std::function<void(int)>& child, int& from_child) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    install_signal_cleanup();
    child(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  from_child = fds[0];
  return pid;
}

}  // namespace

TEST_CASE("TempDir is cleaned up by a signal too", "[cleanup]") {
  fs::path scratch = scratch_dir("tilec_cleanup_tempdir_test");
  int from_child = -1;
  pid_t pid = fork_with_cleanup(
      [&](int to_parent) {
        TempDir dir(scratch.string());
        std::string error;
        write_whole_file(dir.file("tilec-input.ptx"), "ptx", error);
        (void)!write(to_parent, "x", 1);
        for (;;) pause();
      },
      from_child);
  char c;
  REQUIRE(read(from_child, &c, 1) == 1);
  kill(pid, SIGINT);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  CHECK(fs::is_empty(scratch));
  close(from_child);
  fs::remove_all(scratch);
}

namespace {

// Whether process `pid` has ended (gone, or a zombie nobody has reaped yet).
bool ended(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  size_t paren = text.rfind(')');
  return paren == std::string::npos || paren + 2 >= text.size() || text[paren + 2] == 'Z';
}

}  // namespace

TEST_CASE("a signal is passed on to every registered tool process", "[cleanup]") {
  int from_child = -1;
  pid_t pid = fork_with_cleanup(
      [](int to_parent) {
        pid_t tools[2];
        for (pid_t& t : tools) {
          t = fork();
          if (t == 0) {
            execl("/bin/sleep", "sleep", "60", static_cast<char*>(nullptr));
            _exit(127);
          }
          register_cleanup_child(t);
        }
        unregister_cleanup_child(register_cleanup_child(tools[0]));  // a second slot, then forgotten
        (void)!write(to_parent, tools, sizeof tools);
        for (;;) pause();
      },
      from_child);
  pid_t tools[2];
  REQUIRE(read(from_child, tools, sizeof tools) == ssize_t(sizeof tools));
  kill(pid, SIGTERM);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  for (pid_t t : tools) {
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
      gone = ended(t);
      if (!gone) usleep(20000);
    }
    CHECK(gone);
    if (!gone) kill(t, SIGKILL);
  }
  close(from_child);
}

TEST_CASE("tool process slots run out cleanly", "[cleanup]") {
  std::vector<int> slots;
  for (int i = 0; i < kMaxToolRuns + 4; ++i) slots.push_back(register_cleanup_child(pid_t(999999 - i)));
  CHECK(std::count(slots.begin(), slots.end(), -1) == 4);
  for (int s : slots) unregister_cleanup_child(s);
  unregister_cleanup_child(-1);
  int again = register_cleanup_child(999999);
  CHECK(again >= 0);
  unregister_cleanup_child(again);
}

TEST_CASE("a signal waits for a path that another thread has made but not yet registered", "[cleanup]") {
  fs::path scratch = scratch_dir("tilec_cleanup_hold_test");
  std::string file = scratch / "made.tmp";
  int from_child = -1;
  pid_t pid = fork_with_cleanup(
      [&](int to_parent) {
        std::thread maker([&] {
          CleanupHold hold;
          std::ofstream(file) << "made";
          (void)!write(to_parent, "x", 1);  // the parent signals now, before the registration
          usleep(200000);
          register_cleanup(file, false);
        });
        for (;;) pause();  // this thread takes the signal; `maker` holds it off
      },
      from_child);
  char c;
  REQUIRE(read(from_child, &c, 1) == 1);
  kill(pid, SIGTERM);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK_FALSE(fs::exists(file));
  close(from_child);
  fs::remove_all(scratch);
}
