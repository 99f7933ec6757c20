// Atomic output files and depfiles.
#include "driver/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace tilec {
namespace {

// Temporary files currently open, for the signal handler (fixed storage: async-signal-safe).
constexpr int kMaxTemps = 8;
char g_temps[kMaxTemps][4096];
std::atomic<bool> g_used[kMaxTemps];

int register_temp(const std::string& path) {
  for (int i = 0; i < kMaxTemps; ++i) {
    bool expected = false;
    if (path.size() < sizeof g_temps[i] && g_used[i].compare_exchange_strong(expected, true)) {
      std::memcpy(g_temps[i], path.c_str(), path.size() + 1);
      return i;
    }
  }
  return -1;
}

void unregister_temp(int slot) {
  if (slot >= 0) g_used[slot] = false;
}

extern "C" void cleanup_and_reraise(int sig) {
  for (int i = 0; i < kMaxTemps; ++i)
    if (g_used[i]) unlink(g_temps[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

bool write_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += size_t(n);
  }
  return true;
}

}  // namespace

void install_cleanup_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, cleanup_and_reraise);
}

bool write_file_atomic(const std::string& path, const std::string& data, std::string& error) {
  if (path == "-") {
    if (!write_all(STDOUT_FILENO, data)) {
      error = std::strerror(errno);
      return false;
    }
    return true;
  }
  std::string temp = path + ".tmp.XXXXXX";
  std::vector<char> buf(temp.begin(), temp.end());
  buf.push_back('\0');
  int fd = mkstemp(buf.data());
  if (fd < 0) {
    error = std::string("cannot create a temporary file beside it: ") + std::strerror(errno);
    return false;
  }
  temp = buf.data();
  int slot = register_temp(temp);
  bool ok = write_all(fd, data);
  int saved = errno;
  // Files are created 0600 by mkstemp; give the output the usual permissions (umask applies).
  mode_t mask = umask(0);
  umask(mask);
  ok = ok && fchmod(fd, 0666 & ~mask) == 0;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && std::rename(temp.c_str(), path.c_str()) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    unlink(temp.c_str());
    error = std::strerror(saved);
  }
  unregister_temp(slot);
  return ok;
}

namespace {

std::string escape_make(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ' ') {
      // Backslashes before a space are doubled, then the space escaped (GCC's rule).
      for (size_t j = i; j > 0 && s[j - 1] == '\\'; --j) out += '\\';
      out += "\\ ";
    } else if (c == '#') {
      out += "\\#";
    } else if (c == '$') {
      out += "$$";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string make_depfile(const std::string& target, const std::vector<std::string>& deps, bool phony) {
  std::string out = escape_make(target) + ":";
  for (const std::string& d : deps) out += " \\\n  " + escape_make(d);
  out += "\n";
  if (phony)
    for (const std::string& d : deps) out += "\n" + escape_make(d) + ":\n";
  return out;
}

}  // namespace tilec
