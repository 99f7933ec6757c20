// What a signal must not leave behind: temporary output files, the private folders ptxas and
// fatbinary work in, and the tool still running in one of them.
#pragma once

#include <sys/types.h>

#include <string>

namespace tilec {

/// Registers a temporary file (`dir` false) or folder (`dir` true: its files, then the folder)
/// that a SIGINT, SIGTERM or SIGHUP removes before tilec dies of that signal. Returns a slot
/// for unregister_cleanup, or -1 when all 16 slots are taken or the path is longer than 4095
/// bytes (the path is then not cleaned up on a signal; normal exits are unaffected).
int register_cleanup(const std::string& path, bool dir);
/// Forgets a slot (-1 is ignored); call it once the path is renamed or removed.
void unregister_cleanup(int slot);
/// The tool process now running (0: none); the signal is passed on to it before cleaning up.
void set_cleanup_child(pid_t pid);

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP (safe to call more than once). The
/// handler is async-signal-safe: fixed storage, unlink/unlinkat/rmdir/getdents64 only; it then
/// restores the default action and raises the signal again, so the exit status says which
/// signal ended tilec.
void install_signal_cleanup();

}  // namespace tilec
