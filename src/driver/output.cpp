// Atomic output files and depfiles.
#include "driver/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "codegen/toolchain/cleanup.h"
#include "driver/output_kinds.h"

namespace tilec {
namespace {

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

// A complete temporary file beside `path`, not yet renamed into place.
struct Staged {
  std::string path;
  std::string temp;
  int slot = -1;
};

// Why the temporary file beside `path` could not be created (mkstemp's `err`), naming the
// folder when that is what is missing.
std::string temp_file_error(const std::string& path, int err) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  if (folder.empty()) folder = ".";
  std::error_code ec;
  // ENOENT also comes from a folder that exists but is no place for files (/proc).
  if (err == ENOENT && !std::filesystem::is_directory(folder, ec)) return "the folder '" + folder + "' does not exist";
  if (err == ENOTDIR) return "'" + folder + "' is not a folder";
  return std::string("cannot create a temporary file beside it: ") + std::strerror(err);
}

// The permissions the output gets: an existing file's own (replacing it must not change its
// mode), else the usual ones for a new file (0666 less the umask). mkstemp creates 0600.
mode_t output_mode(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

// Writes `data` into a fresh `<path>.tmp.XXXXXX`, registered for removal on a signal.
bool stage(const std::string& path, const std::string& data, Staged& out, std::string& error) {
  std::string temp = path + ".tmp.XXXXXX";
  std::vector<char> buf(temp.begin(), temp.end());
  buf.push_back('\0');
  // No signal between creating the file and registering it: it could not be cleaned up.
  int fd = -1, saved = 0;
  {
    CleanupHold hold;
    fd = mkstemp(buf.data());
    saved = errno;
    if (fd >= 0) out.slot = register_cleanup(buf.data(), false);
  }
  if (fd < 0) {
    error = temp_file_error(path, saved);
    return false;
  }
  out.path = path;
  out.temp = buf.data();
  bool ok = write_all(fd, data);
  saved = errno;
  if (ok && fchmod(fd, output_mode(path)) != 0) {
    ok = false;
    saved = errno;
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    unlink(out.temp.c_str());
    unregister_cleanup(out.slot);
    error = std::strerror(saved);
  }
  return ok;
}

void discard(const Staged& s) {
  unlink(s.temp.c_str());
  unregister_cleanup(s.slot);
}

}  // namespace

void install_cleanup_handlers() { install_signal_cleanup(); }

namespace {

// Where the output at `path` goes: the file a symbolic link names (the link stays), and whether
// `path` is something other than a regular file (a device such as /dev/null, a FIFO), which is
// written in place: renaming a file over it would replace it.
std::string output_target(const std::string& path, bool& in_place) {
  in_place = false;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return path;  // a new file (or a dangling link: replaced)
  if (!S_ISREG(st.st_mode)) {
    in_place = true;
    return path;
  }
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      std::string target = real;
      std::free(real);
      return target;
    }
  }
  return path;
}

bool write_in_place(const std::string& path, const std::string& data, std::string& error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  bool ok = write_all(fd, data);
  int saved = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) error = std::strerror(saved);
  return ok;
}

// Whether an existing output at `path` may be replaced: the rename needs only the folder's
// permission, so without this check a file the user cannot write (or made read-only) would be
// replaced all the same. A new file needs nothing here; the temporary file's creation checks
// the folder.
bool may_replace(const std::string& path, std::string& error) {
  if (::access(path.c_str(), F_OK) != 0 || ::access(path.c_str(), W_OK) == 0) return true;
  error = errno == EACCES ? "permission denied (the file is not writable; tilec does not replace it)"
                          : std::strerror(errno);
  return false;
}

}  // namespace

bool write_files_atomic(const std::vector<std::pair<std::string, std::string>>& files, std::string& failed,
                        std::string& error) {
  // Every existing output is checked before anything is written, so that a refusal leaves all
  // of them as they were.
  for (const auto& [given, data] : files) {
    bool device = false;
    std::string path = given == "-" ? given : output_target(given, device);
    if (given != "-" && !device && !may_replace(path, error)) {
      failed = path;
      return false;
    }
  }
  std::vector<Staged> staged;
  std::vector<std::pair<std::string, const std::string*>> in_place;
  for (const auto& [given, data] : files) {
    if (given == "-") continue;
    bool device = false;
    std::string path = output_target(given, device);
    if (device) {
      in_place.push_back({path, &data});
      continue;
    }
    Staged s;
    if (!stage(path, data, s, error)) {
      for (const Staged& t : staged) discard(t);
      failed = path;
      return false;
    }
    staged.push_back(s);
  }
  for (size_t i = 0; i < staged.size(); ++i) {
    if (std::rename(staged[i].temp.c_str(), staged[i].path.c_str()) != 0) {
      error = std::strerror(errno);
      failed = staged[i].path;
      for (size_t j = i; j < staged.size(); ++j) discard(staged[j]);
      return false;
    }
    unregister_cleanup(staged[i].slot);
  }
  for (const auto& [path, data] : in_place) {
    if (!write_in_place(path, *data, error)) {
      failed = path;
      return false;
    }
  }
  for (const auto& [path, data] : files) {
    if (path != "-") continue;
    if (!write_all(STDOUT_FILENO, data)) {
      error = std::strerror(errno);
      failed = path;
      return false;
    }
  }
  return true;
}

bool write_file_atomic(const std::string& path, const std::string& data, std::string& error) {
  std::string failed;
  return write_files_atomic({{path, data}}, failed, error);
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

std::string output_extension_problem(const std::string& output, EmitKind emit, bool emit_given) {
  std::error_code ec;
  if (output == "-" || emit == EmitKind::None ||
      (std::filesystem::exists(output, ec) && !std::filesystem::is_regular_file(output, ec)))
    return "";
  std::string base = output.substr(output.find_last_of('/') + 1);
  size_t dot = base.find_last_of('.');
  std::string ext = dot == std::string::npos || dot == 0 ? "" : base.substr(dot);
  const OutputKind* known = output_kind_of_extension(ext);
  if (emit_given && known && known->kind != emit && !lists_extension(output_kind(emit), ext))
    return std::string("writing --emit=") + emit_kind_name(emit) + " output to '" + output + "', whose extension " +
           ext + " is that of " + known->noun;
  if (!emit_given && !known)
    return "'" + output + "' has " +
           (ext.empty() ? std::string("no extension") : "the extension " + ext + ", which names no output kind") +
           " (.h, .ptx, .cubin, .fatbin, .tir): writing a header; name it .h, or say what to write with --emit";
  return "";
}

std::string make_depfile(const std::string& target, const std::vector<std::string>& deps, bool phony) {
  std::string out = escape_make(target) + ":";
  // Standard input is no file make could check (SourceManager names it "<stdin>").
  auto is_file = [](const std::string& d) { return d != "-" && d != "<stdin>"; };
  for (const std::string& d : deps)
    if (is_file(d)) out += " \\\n  " + escape_make(d);
  out += "\n";
  // Like gcc's -MP, no rule for the main file: `make` should say a missing source is missing.
  if (phony)
    for (size_t i = 1; i < deps.size(); ++i)
      if (is_file(deps[i])) out += "\n" + escape_make(deps[i]) + ":\n";
  return out;
}

std::string replaced_source(const std::vector<std::pair<std::string, std::string>>& files,
                            const std::vector<std::string>& sources) {
  for (const auto& [path, text] : files)
    for (const std::string& src : sources) {
      std::error_code ec;
      if (path != "-" && src != "-" && src != "<stdin>" && std::filesystem::equivalent(path, src, ec))
        return "the output '" + path + "' is the source file '" + src + "', which this compilation reads; name "
               "another one";
    }
  return "";
}

}  // namespace tilec
