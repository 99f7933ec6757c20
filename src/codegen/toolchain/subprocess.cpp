// Tool runs: a child process started with an argument vector (never a shell; spawn.h), output
// captured through a pipe, work files in a mkdtemp folder that the destructor removes.
#include "codegen/toolchain/subprocess.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen/toolchain/cleanup.h"
#include "codegen/toolchain/spawn.h"

namespace tilec {
namespace {

std::string errno_text(const char* what, int err) { return std::string(what) + ": " + std::strerror(err); }

}  // namespace

TempDir::TempDir(const std::string& root) {
  std::string base = root;
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp && *tmp ? tmp : "/tmp";
  }
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(base, ec);
  if (ec) {
    error_ = "cannot use temporary folder '" + base + "': " + ec.message();
    return;
  }
  std::string templ = (abs / "tilec-XXXXXX").string();
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  // No signal between creating the folder and registering it: it could not be cleaned up.
  bool made = false;
  int saved = 0;
  {
    CleanupHold hold;
    made = mkdtemp(buf.data()) != nullptr;
    saved = errno;
    if (made) cleanup_slot_ = register_cleanup(buf.data(), true);
  }
  if (!made) {
    error_ = errno_text(("cannot create a temporary folder in '" + base + "'").c_str(), saved);
    return;
  }
  path_ = buf.data();
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  std::error_code ec;  // best effort: a destructor has nobody to report to
  std::filesystem::remove_all(path_, ec);
  unregister_cleanup(cleanup_slot_);
}

bool write_whole_file(const std::string& path, std::string_view data, std::string& error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(data.data(), std::streamsize(data.size()));
  if (out) out.close();
  if (!out) {
    error = errno_text(("cannot write '" + path + "'").c_str(), errno);
    return false;
  }
  return true;
}

bool read_whole_file(const std::string& path, std::string& data, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = errno_text(("cannot read '" + path + "'").c_str(), errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  data = ss.str();
  return true;
}

bool run_tool(const std::vector<std::string>& argv, const std::string& cwd, ToolRun& run,
              std::string& error) {
  run = ToolRun{};
  if (argv.empty()) {
    error = "no tool to run";
    return false;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    error = errno_text("pipe", errno);
    return false;
  }
  // The child: stdin from /dev/null, stdout and stderr into the pipe, working folder `cwd`.
  pid_t pid = 0;
  int rc = 0, child_slot = -1;
  {
    CleanupHold hold;  // no signal between starting the tool and registering it
    rc = start_tool(args.data(), cwd, fds[1], hold.previous_mask(), pid);  // not the hold's blocked signals
    if (rc == 0) child_slot = register_cleanup_child(pid);  // a signal to tilec is passed on
  }
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    error = errno_text(("cannot run '" + argv[0] + "'").c_str(), rc);
    return false;
  }

  // One pipe for both streams, read to EOF before waiting: the tool can never block on a
  // full pipe while we wait for it.
  char buf[4096];
  for (;;) {
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) {
      run.output.append(buf, size_t(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);

  int status = 0, wait_error = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      wait_error = errno;
      break;
    }
  }
  {
    // A tool that a signal to tilec stopped: this thread stops here too (another one is
    // cleaning up and ends the process), so it writes nothing more, no failed PTX.
    CleanupHold hold;
    unregister_cleanup_child(child_slot);
  }
  if (wait_error) {
    error = errno_text(("waiting for '" + argv[0] + "'").c_str(), wait_error);
    return false;
  }
  if (WIFEXITED(status)) {
    run.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    run.signal = WTERMSIG(status);
  }
  return true;
}

}  // namespace tilec
