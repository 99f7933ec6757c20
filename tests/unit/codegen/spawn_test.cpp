// Starting tools: posix_spawn (start_tool, where the C library can change the child's folder)
// and fork + execve (start_tool_by_fork, for glibc before 2.29, which the wheel targets) keep
// the same contract: the folder, the output in the pipe, the signal mask, the errno.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "codegen/toolchain/spawn.h"

using namespace tilec;

namespace {

using Starter = int (*)(char* const*, const std::string&, int, const sigset_t&, pid_t&);

struct Outcome {
  int error = 0;        // what the starter returned
  std::string output;   // stdout and stderr
  int exit_code = -1;
};

// Runs argv in `cwd` through `start` with an empty signal mask, collects everything.
Outcome run(Starter start, std::vector<std::string> argv, const std::string& cwd) {
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  int fds[2];
  REQUIRE(pipe2(fds, O_CLOEXEC) == 0);
  sigset_t none;
  sigemptyset(&none);
  Outcome out;
  pid_t pid = 0;
  out.error = start(args.data(), cwd, fds[1], none, pid);
  close(fds[1]);
  char buf[256];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.output.append(buf, size_t(n));
  close(fds[0]);
  if (out.error == 0) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return out;
}

}  // namespace

TEST_CASE("both ways of starting a tool: folder, output, stdin, exit code, errors", "[spawn]") {
  for (Starter start : {Starter(start_tool), Starter(start_tool_by_fork)}) {
    Outcome o = run(start, {"/bin/sh", "-c", "pwd; echo err >&2; cat; exit 3"}, "/usr");
    CHECK(o.error == 0);
    CHECK(o.output == "/usr\nerr\n");  // stdin is /dev/null: cat reads nothing
    CHECK(o.exit_code == 3);
    CHECK(run(start, {"/no/such/tool"}, "/").error == ENOENT);
    CHECK(run(start, {"/bin/true"}, "/no/such/folder").error == ENOENT);
  }
}

TEST_CASE("the tool gets the given signal mask, not the caller's", "[spawn]") {
  // The caller blocks SIGTERM (as CleanupHold does while it starts a tool); the tool, started
  // with an empty mask, must see it unblocked: SigBlk of /proc/self/status is all zeros.
  sigset_t term, old;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  REQUIRE(pthread_sigmask(SIG_BLOCK, &term, &old) == 0);
  for (Starter start : {Starter(start_tool), Starter(start_tool_by_fork)}) {
    Outcome o = run(start, {"/bin/sh", "-c", "grep SigBlk /proc/self/status"}, "/");
    CHECK(o.output == "SigBlk:\t0000000000000000\n");
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}
