// Starting a tool process for run_tool (subprocess.h): in a given folder, with its output into a
// pipe, under a given signal mask. posix_spawn where the C library can change the child's
// folder, fork and execve where it cannot (glibc before 2.29, which tilec's wheel targets).
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace tilec {

/// Starts `args[0]` (a path; `args` ends with a null pointer) with stdin from /dev/null, stdout
/// and stderr into `out_fd`, in folder `cwd`, with signal mask `mask` and default signal
/// actions. Returns 0 and the child's id in `pid`, or the errno why the tool did not start
/// (ENOENT for a missing tool or folder): with posix_spawn_file_actions_addchdir_np when the
/// C library has it, else start_tool_by_fork.
int start_tool(char* const* args, const std::string& cwd, int out_fd, const sigset_t& mask, pid_t& pid);

/// start_tool by fork and execve, for a C library without posix_spawn_file_actions_addchdir_np.
/// Same contract; an exec that fails is reported through a pipe that a successful exec closes.
int start_tool_by_fork(char* const* args, const std::string& cwd, int out_fd, const sigset_t& mask, pid_t& pid);

}  // namespace tilec
