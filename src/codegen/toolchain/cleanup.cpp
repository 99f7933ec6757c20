// Signal-time cleanup of temporary files and folders (async-signal-safe: see cleanup.h).
#include "codegen/toolchain/cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>

namespace tilec {
namespace {

constexpr int kSlots = kCleanupSlots;
constexpr size_t kPathMax = 4096;

// A slot is Free, then Writing while its path is copied in, then Ready; the handler only
// touches Ready slots, so it never reads a half-written path.
enum State : int { Free, Writing, Ready };
struct Slot {
  std::atomic<int> state{Free};
  bool dir = false;
  char path[kPathMax];
};
Slot g_slots[kSlots];
std::atomic<pid_t> g_children[kMaxToolRuns];  // 0: free
std::atomic<int> g_holds{0};        // CleanupHolds alive
std::atomic<bool> g_dying{false};   // a signal is being handled

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

// Removes the plain files of `path` (the tools write no subfolders), then the folder.
void remove_dir(const char* path) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char buf[4096];
    for (;;) {
      long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (n <= 0) break;
      for (long off = 0; off < n;) {
        auto* d = reinterpret_cast<LinuxDirent64*>(buf + off);
        off += d->d_reclen;
        if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) unlinkat(fd, d->d_name, 0);
      }
    }
    close(fd);
  }
  rmdir(path);
}

extern "C" void cleanup_and_reraise(int sig) {
  int saved = errno;
  // Let other threads finish registering what they are making (CleanupHold): `dying` first,
  // then the count, as the hold does the reverse, so one of the two sees the other.
  g_dying.store(true);
  for (int i = 0; i < 1000 && g_holds.load() > 0; ++i) {
    timespec ms{0, 1000000};
    nanosleep(&ms, nullptr);
  }
  pid_t children[kMaxToolRuns];
  for (int i = 0; i < kMaxToolRuns; ++i)
    if ((children[i] = g_children[i].load())) kill(children[i], sig);
  // Then let them end (up to a second), so that none writes into a folder being removed.
  for (pid_t child : children)
    for (int i = 0; child && i < 100; ++i) {
      int status;
      if (waitpid(child, &status, WNOHANG) != 0) break;  // ended (or reaped by its thread)
      timespec ms{0, 10000000};
      nanosleep(&ms, nullptr);
    }
  for (Slot& s : g_slots) {
    if (s.state.load() != Ready) continue;
    if (s.dir) remove_dir(s.path);
    else unlink(s.path);
  }
  errno = saved;
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

int register_cleanup(const std::string& path, bool dir) {
  if (path.size() >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = Free;
    if (!g_slots[i].state.compare_exchange_strong(expected, Writing)) continue;
    g_slots[i].dir = dir;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(Ready);
    return i;
  }
  return -1;
}

void unregister_cleanup(int slot) {
  if (slot >= 0 && slot < kSlots) g_slots[slot].state.store(Free);
}

int register_cleanup_child(pid_t pid) {
  for (int i = 0; i < kMaxToolRuns; ++i) {
    pid_t expected = 0;
    if (g_children[i].compare_exchange_strong(expected, pid)) return i;
  }
  return -1;
}

void unregister_cleanup_child(int slot) {
  if (slot >= 0 && slot < kMaxToolRuns) g_children[slot].store(0);
}

CleanupHold::CleanupHold() {
  sigset_t block;
  sigemptyset(&block);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, sig);
  pthread_sigmask(SIG_BLOCK, &block, &old_);  // this thread only
  g_holds.fetch_add(1);
  if (g_dying.load()) {
    g_holds.fetch_sub(1);
    for (;;) pause();  // another thread is cleaning up and will end the process
  }
}

CleanupHold::~CleanupHold() {
  g_holds.fetch_sub(1);
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

void install_signal_cleanup() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, cleanup_and_reraise);
}

}  // namespace tilec
