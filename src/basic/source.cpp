// Loading source files and mapping offsets to lines.
#include "basic/source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <sys/stat.h>

namespace tilec {

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts.size()) return {};
  size_t begin = line_starts[line - 1];
  size_t end = line < line_starts.size() ? line_starts[line] : text.size();
  while (end > begin && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  return std::string_view(text).substr(begin, end - begin);
}

SourcePos SourceFile::position(size_t offset) const {
  auto after = std::upper_bound(line_starts.begin(), line_starts.end(), uint32_t(offset));
  uint32_t line = uint32_t(after - line_starts.begin());
  return SourcePos{line, uint32_t(offset - line_starts[line - 1] + 1), uint32_t(offset)};
}

std::string SourceFile::snippet(const SourceRange& r, size_t max) const {
  if (r.end.offset < r.begin.offset || r.end.offset > text.size() || r.end.offset - r.begin.offset > max) return "";
  std::string t = text.substr(r.begin.offset, r.end.offset - r.begin.offset);
  return t.find('\n') == std::string::npos ? t : "";
}

size_t utf8_sequence_length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  unsigned b0 = byte(0);
  if (b0 < 0x80) return 1;
  auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return byte(k) >= lo && byte(k) <= hi; };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;               // no overlong forms
  if (b0 == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;         // no surrogates
  if (b0 >= 0xE1 && b0 <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (b0 == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;  // up to U+10FFFF
  return 0;
}

uint32_t SourceManager::add(std::string path, std::string text) {
  auto f = std::make_unique<SourceFile>();
  f->path = std::move(path);
  f->text = std::move(text);
  // An old Mac line end (a '\r' alone) becomes '\n', so that the lexer, the line table and the
  // printed source lines all see one line end ("\r\n" stays: the lexer skips its '\r').
  for (size_t i = 0; i < f->text.size(); ++i)
    if (f->text[i] == '\r' && (i + 1 == f->text.size() || f->text[i + 1] != '\n')) f->text[i] = '\n';
  f->line_starts.push_back(0);
  for (size_t i = 0; i < f->text.size(); ++i)
    if (f->text[i] == '\n' && i + 1 < f->text.size()) f->line_starts.push_back(uint32_t(i + 1));
  files_.push_back(std::move(f));
  return uint32_t(files_.size());
}

namespace {

// A source larger than this is refused (a kernel file is kilobytes; /dev/zero never ends).
constexpr size_t kMaxSourceBytes = size_t(64) << 20;

// Reads all of `in` into `text`, at most kMaxSourceBytes + 1 bytes.
bool read_bounded(std::istream& in, std::string& text, std::string& error) {
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, size_t(in.gcount()));
    if (text.size() > kMaxSourceBytes) {
      error = "file too large (over 64 MiB)";
      return false;
    }
  }
  if (in.bad()) {
    error = "read error";
    return false;
  }
  // A UTF-8 byte order mark (editors on Windows write one) is not part of the program.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  return true;
}

}  // namespace

uint32_t SourceManager::load(const std::string& path, std::string& error) {
  std::string text;
  if (path == "-") {
    if (!read_bounded(std::cin, text, error)) return 0;
    return add("<stdin>", std::move(text));
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error = "is a directory";
    return 0;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return 0;
  }
  if (!read_bounded(in, text, error)) return 0;
  return add(path, std::move(text));
}

}  // namespace tilec
