// Loading source files and mapping offsets to lines.
#include "frontend/source.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace tilec {

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts.size()) return {};
  size_t begin = line_starts[line - 1];
  size_t end = line < line_starts.size() ? line_starts[line] : text.size();
  while (end > begin && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  return std::string_view(text).substr(begin, end - begin);
}

uint32_t SourceManager::add(std::string path, std::string text) {
  auto f = std::make_unique<SourceFile>();
  f->path = std::move(path);
  f->text = std::move(text);
  f->line_starts.push_back(0);
  for (size_t i = 0; i < f->text.size(); ++i)
    if (f->text[i] == '\n' && i + 1 < f->text.size()) f->line_starts.push_back(uint32_t(i + 1));
  files_.push_back(std::move(f));
  return uint32_t(files_.size());
}

uint32_t SourceManager::load(const std::string& path, std::string& error) {
  std::string text;
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
    return add("<stdin>", std::move(text));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = std::strerror(errno);
    return 0;
  }
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) {
    error = "read error";
    return 0;
  }
  // Offsets are 32-bit; refuse inputs that cannot be addressed rather than wrap.
  if (text.size() > 0x7fffffffu) {
    error = "file too large (over 2 GiB)";
    return 0;
  }
  return add(path, std::move(text));
}

}  // namespace tilec
