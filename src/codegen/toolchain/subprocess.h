// Running an external tool (ptxas, fatbinary) without a shell, inside a private temporary folder.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// A private temporary folder (mkdtemp(3), mode 0700), removed with everything in it when the
/// object is destroyed, whatever path the caller took out of the scope, and by the signal
/// handler of codegen/toolchain/cleanup.h when tilec is interrupted.
class TempDir {
 public:
  /// Creates `<root>/tilec-XXXXXX`; an empty `root` means $TMPDIR, or /tmp when that is unset.
  /// On failure ok() is false and error() says why.
  explicit TempDir(const std::string& root = "");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  bool ok() const { return !path_.empty(); }
  /// The folder's absolute path (empty when creation failed).
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }
  /// `path()/name`.
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
  std::string error_;
  int cleanup_slot_ = -1;  ///< codegen/toolchain/cleanup.h: removed on SIGINT/SIGTERM/SIGHUP too
};

/// Writes `data` to `path` (created or truncated); false with `error` on failure.
bool write_whole_file(const std::string& path, std::string_view data, std::string& error);
/// Reads the file at `path` into `data`; false with `error` on failure.
bool read_whole_file(const std::string& path, std::string& data, std::string& error);

/// How a tool run ended.
struct ToolRun {
  int exit_code = -1;  ///< the exit status; -1 when a signal ended the tool
  int signal = 0;      ///< the signal that ended it, else 0
  std::string output;  ///< stdout and stderr, interleaved as the tool wrote them
  bool succeeded() const { return exit_code == 0; }
};

/// Runs `argv[0]` (a path; no PATH search, no shell, so arguments reach the tool exactly as
/// given, spaces and quotes included) with arguments `argv` in the folder `cwd`. The tool
/// inherits the environment, reads /dev/null and writes stdout and stderr into one pipe that
/// ends up in `run.output`. Returns false with `error` only when the tool could not be started
/// (posix_spawn(3) failed: missing, not executable); a tool that ran and failed returns true
/// with a non-zero `run.exit_code`. Uses posix_spawn_file_actions_addchdir_np (glibc 2.29+).
bool run_tool(const std::vector<std::string>& argv, const std::string& cwd, ToolRun& run,
              std::string& error);

}  // namespace tilec
