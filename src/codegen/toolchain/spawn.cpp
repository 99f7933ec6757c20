// Starting a tool process (spawn.h): posix_spawn, or fork and execve.
#include "codegen/toolchain/spawn.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

extern char** environ;

// glibc added posix_spawn_file_actions_addchdir_np in 2.29. tilec's wheel is built for glibc
// 2.28 (docs/pip.md): this weak reference is null where the C library lacks it.
#pragma weak posix_spawn_file_actions_addchdir_np

namespace tilec {
namespace {

// The child of start_tool_by_fork until the tool runs: what start_tool's file actions do, then
// the signal handlers back to the default (a signal to the child before the exec must not run
// tilec's cleanup; posix_spawn does the same), then the caller's mask. Only async-signal-safe
// calls (POSIX: after fork in a threaded process); why it failed goes to `report` as an errno.
[[noreturn]] void exec_tool_child(char* const* args, const char* cwd, int out_fd, const sigset_t& mask, int report) {
  int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in >= 0 && dup2(in, 0) == 0 && dup2(out_fd, 1) == 1 && dup2(out_fd, 2) == 2 && chdir(cwd) == 0) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)
        sigaction(sig, &dfl, nullptr);
    }
    sigprocmask(SIG_SETMASK, &mask, nullptr);
    execve(args[0], args, environ);
  }
  int err = errno;
  [[maybe_unused]] ssize_t written = write(report, &err, sizeof err);  // nothing to do if it fails
  _exit(127);
}

}  // namespace

int start_tool_by_fork(char* const* args, const std::string& cwd, int out_fd, const sigset_t& mask, pid_t& pid) {
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return errno;
  pid = fork();
  if (pid == 0) exec_tool_child(args, cwd.c_str(), out_fd, mask, report[1]);
  int err = pid < 0 ? errno : 0;
  close(report[1]);
  ssize_t n = 0;
  if (pid > 0)
    while ((n = read(report[0], &err, sizeof err)) < 0 && errno == EINTR) {
    }
  close(report[0]);
  if (pid > 0 && n == ssize_t(sizeof err))  // the child could not run the tool and has ended
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  return err;
}

int start_tool(char* const* args, const std::string& cwd, int out_fd, const sigset_t& mask, pid_t& pid) {
  if (!posix_spawn_file_actions_addchdir_np) return start_tool_by_fork(args, cwd, out_fd, mask, pid);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 2);
  posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  int rc = posix_spawn(&pid, args[0], &actions, &attr, args, environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  return rc;
}

}  // namespace tilec
