// What a signal must not leave behind: temporary output files, the private folders ptxas and
// fatbinary work in, and the tool still running in one of them.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace tilec {

/// How many paths register_cleanup holds at once: the output files plus a private folder for
/// each of up to kMaxToolRuns tools running together, with room to spare.
constexpr int kCleanupSlots = 128;
/// How many tool processes register_cleanup_child holds at once (parallel ptxas runs).
constexpr int kMaxToolRuns = 64;

/// Registers a temporary file (`dir` false) or folder (`dir` true: its files, then the folder)
/// that a SIGINT, SIGTERM or SIGHUP removes before tilec dies of that signal. Returns a slot
/// for unregister_cleanup, or -1 when all kCleanupSlots slots are taken or the path is longer
/// than 4095 bytes (the path is then not cleaned up on a signal; normal exits are unaffected).
/// Thread-safe.
int register_cleanup(const std::string& path, bool dir);
/// Forgets a slot (-1 is ignored); call it once the path is renamed or removed.
void unregister_cleanup(int slot);
/// Registers a running tool process: a signal is passed on to it before cleaning up. Returns a
/// slot for unregister_cleanup_child, or -1 when all kMaxToolRuns are taken (that tool is then
/// not signalled). Thread-safe.
int register_cleanup_child(pid_t pid);
/// Forgets a tool process once it has been waited for (-1 is ignored).
void unregister_cleanup_child(int slot);

/// Holds SIGINT, SIGTERM and SIGHUP off while a path is made and registered, or a tool started
/// and registered, so that no signal falls between the two: while the hold lasts this thread
/// does not take them, and a signal that another thread takes waits (up to a second) for every
/// hold to end before it cleans up. A hold begun once a signal is being handled never ends: the
/// process is about to die of it.
class CleanupHold {
 public:
  CleanupHold();
  ~CleanupHold();
  CleanupHold(const CleanupHold&) = delete;
  CleanupHold& operator=(const CleanupHold&) = delete;
  /// The thread's signal mask before the hold: what a tool started during the hold must get
  /// (posix_spawn passes the caller's mask on, which would leave the tool deaf to SIGTERM).
  const sigset_t& previous_mask() const { return old_; }

 private:
  sigset_t old_;
};

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP (safe to call more than once). The
/// handler passes the signal on to the registered tools and waits (up to a second each) for
/// them to end, then removes the registered paths. It is async-signal-safe: fixed storage,
/// kill/waitpid/nanosleep/unlink/unlinkat/rmdir/getdents64 only; it then restores the default
/// action and raises the signal again, so the exit status says which signal ended tilec.
void install_signal_cleanup();

}  // namespace tilec
