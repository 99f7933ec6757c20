// Source files and source ranges: every token, AST node and IR op carries a SourceRange.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// A position in a source file: 1-based line and column (columns count bytes), plus the
/// 0-based byte offset.
struct SourcePos {
  uint32_t line = 1;
  uint32_t col = 1;
  uint32_t offset = 0;
};

/// A half-open byte range [begin, end) inside one file. `file` indexes SourceManager; 0 means
/// "no file" (built-in or command line). Bison's default location merge uses `.begin`/`.end`.
struct SourceRange {
  uint32_t file = 0;
  SourcePos begin;
  SourcePos end;

  /// The whole of file `file`, not a place in it (line 0): printed as "path: error: ...".
  static SourceRange whole_file(uint32_t file) {
    SourceRange r;
    r.file = file;
    r.begin.line = r.end.line = 0;
    return r;
  }
  bool is_whole_file() const { return file != 0 && begin.line == 0; }

  /// The range covering both `a` and `b` (same file assumed; `a` first).
  static SourceRange join(const SourceRange& a, const SourceRange& b) {
    SourceRange r = a;
    r.end = b.end;
    return r;
  }
  bool valid() const { return file != 0; }
};

/// One loaded source file.
struct SourceFile {
  std::string path;     ///< as given on the command line or found through `import`
  std::string text;     ///< the bytes, except that a lone '\r' (an old Mac line end) is '\n'
  std::vector<uint32_t> line_starts;  ///< byte offset of each line's first byte

  /// The text of 1-based line `line`, without its newline; empty past the end.
  std::string_view line_text(uint32_t line) const;
  /// The line and column of byte `offset`.
  SourcePos position(size_t offset) const;
  /// The text of `r` (a range in this file) for quoting in a message, or "" when it spans
  /// lines or is longer than `max` bytes.
  std::string snippet(const SourceRange& r, size_t max = 40) const;
};

/// The length of the UTF-8 sequence that starts at `s[i]` (1 for ASCII), or 0 when the bytes
/// there are not one (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF,
/// cut short). RFC 3629, section 4.
size_t utf8_sequence_length(std::string_view s, size_t i);

/// Owns every file of one compilation. File ids start at 1 (0 is "no file").
class SourceManager {
 public:
  /// Adds a file with the given contents and returns its id.
  uint32_t add(std::string path, std::string text);
  /// Reads `path` ("-" reads stdin) and adds it; returns 0 and sets `error` on failure.
  uint32_t load(const std::string& path, std::string& error);
  const SourceFile& file(uint32_t id) const { return *files_.at(id - 1); }
  size_t size() const { return files_.size(); }

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace tilec
