// Recording, printing (clang format with caret and ~~~ underline) and verifying diagnostics.
#include "basic/diagnostics.h"

#include <algorithm>
#include <map>
#include <regex>

namespace tilec {
namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::Error: return "\033[1;31m";
    case Severity::Warning: return "\033[1;35m";
    case Severity::Note: return "\033[1;30m";
  }
  return "";
}

// Control characters and bytes that are not UTF-8 are shown as '?', one per byte (so carets
// stay in their columns): a diagnostic never writes raw escape sequences or invalid UTF-8 to
// the terminal.
std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = utf8_sequence_length(s, i);
    if (n > 1) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    out += (c == '\t' || (c >= 0x20 && c < 0x7f)) ? char(c) : '?';
    ++i;
  }
  return out;
}

}  // namespace

std::string DiagnosticEngine::limit_message() const {
  return "too many errors emitted, stopping now [--max-errors=" + std::to_string(max_errors_) + "]";
}

Diagnostic& DiagnosticEngine::add(Severity s, const SourceRange& r, std::string msg) {
  if (r.valid() && !seen_.insert({int(s), r.file, r.begin.offset, r.end.offset, msg}).second) {
    dropped_ = Diagnostic{};
    return dropped_;
  }
  if (s == Severity::Error) {
    if (too_many()) {
      if (!limit_reported_) {
        limit_reported_ = true;
        diags_.push_back(Diagnostic{Severity::Error, SourceRange{}, limit_message(), {}});
      }
      dropped_ = Diagnostic{};
      return dropped_;
    }
    ++error_count_;
  }
  diags_.push_back(Diagnostic{s, r, std::move(msg), {}});
  if (s != Severity::Note) {
    // Like clang's template backtrace limit: the 5 innermost and 5 outermost contexts.
    Diagnostic& d = diags_.back();
    size_t n = contexts_.size();
    for (size_t i = 0; i < n; ++i) {
      if (n > 10 && i == 5) {
        d.notes.push_back(Diagnostic{Severity::Note, SourceRange{}, "(" + std::to_string(n - 10) + " more calls in between)", {}});
        ++d.context_notes;
        i = n - 6;
        continue;
      }
      d.notes.push_back(contexts_[n - 1 - i]);
      ++d.context_notes;
    }
  }
  return diags_.back();
}

Diagnostic& DiagnosticEngine::error(const SourceRange& r, std::string msg) {
  return add(Severity::Error, r, std::move(msg));
}

Diagnostic& DiagnosticEngine::warning(Warning w, const SourceRange& r, std::string msg) {
  if (!warnings_.enabled(w)) {
    dropped_ = Diagnostic{};
    return dropped_;
  }
  bool error = warnings_.is_error(w);
  Diagnostic& d = add(error ? Severity::Error : Severity::Warning, r, std::move(msg));
  if (&d != &dropped_) d.flag = std::string(error ? "-Werror," : "") + "-W" + warning_info(w).name;
  return d;
}

void DiagnosticEngine::note(Diagnostic& d, const SourceRange& r, std::string msg) {
  d.notes.insert(d.notes.end() - std::ptrdiff_t(d.context_notes), Diagnostic{Severity::Note, r, std::move(msg), {}});
}

void DiagnosticEngine::format_one(std::string& out, const Diagnostic& d) const {
  const char* bold = color_ ? "\033[1m" : "";
  const char* reset = color_ ? "\033[0m" : "";
  if (d.range.is_whole_file()) {
    out += bold + printable(sm_.file(d.range.file).path) + ": " + reset;
  } else if (d.range.valid()) {
    const SourceFile& f = sm_.file(d.range.file);
    out += bold + printable(f.path) + ":" + std::to_string(d.range.begin.line) + ":" +
           std::to_string(d.range.begin.col) + ": " + reset;
  } else {
    out += std::string(bold) + "tilec: " + reset;
  }
  // A message quotes names and literals from the source; a million-character name must not
  // make a million-character line.
  // (Cut before printable(): a character cut in two then shows as '?'.)
  std::string message = d.message.size() > 400 ? printable(d.message.substr(0, 400)) + "..." : printable(d.message);
  if (!d.flag.empty()) message += " [" + d.flag + "]";
  out += std::string(color_ ? severity_color(d.severity) : "") + severity_name(d.severity) +
         ":" + reset + " " + bold + message + reset + "\n";
  if (!d.range.valid() || d.range.is_whole_file()) return;
  const SourceFile& f = sm_.file(d.range.file);
  std::string_view line = f.line_text(d.range.begin.line);
  // Very long lines are cut around the caret so the output stays readable.
  size_t first = 0;
  if (line.size() > 200 && d.range.begin.col > 100) first = d.range.begin.col - 80;
  std::string_view shown = line.substr(std::min(first, line.size()), 200);
  out += printable(shown) + (line.size() > first + 200 ? "..." : "") + "\n";
  std::string marks;
  size_t col0 = d.range.begin.col - 1;
  for (size_t i = first; i < col0 && i - first < shown.size(); ++i)
    marks += shown[i - first] == '\t' ? '\t' : ' ';
  size_t end_col = d.range.end.line == d.range.begin.line ? d.range.end.col - 1 : line.size();
  size_t len = end_col > col0 ? end_col - col0 : 1;
  len = std::min(len, std::max<size_t>(1, first + shown.size() > col0 ? first + shown.size() - col0 : 1));
  marks += '^';
  if (len > 1) marks += std::string(len - 1, '~');
  out += std::string(color_ ? "\033[1;32m" : "") + marks + reset + "\n";
}

std::string DiagnosticEngine::format(const Diagnostic& d) const {
  std::string out;
  format_one(out, d);
  for (const Diagnostic& n : d.notes) format_one(out, n);
  return out;
}

void DiagnosticEngine::flush(FILE* out) {
  // The stages stop as soon as the limit is reached, so the notice may not have been added
  // by a dropped error yet.
  if (too_many() && !limit_reported_) {
    limit_reported_ = true;
    diags_.push_back(Diagnostic{Severity::Error, SourceRange{}, limit_message(), {}});
  }
  // In line order within each file (the checker visits a kernel's decorator after its
  // parameters, and a module's definitions before their bodies), the files in the order their
  // first diagnostic came, and the diagnostics without a place last.
  std::map<uint32_t, size_t> file_rank;
  for (size_t i = printed_; i < diags_.size(); ++i)
    if (diags_[i].range.valid()) file_rank.try_emplace(diags_[i].range.file, file_rank.size());
  auto key = [&](const Diagnostic& d) {
    if (!d.range.valid()) return std::tuple(file_rank.size(), uint32_t(0), uint32_t(0));
    return std::tuple(file_rank[d.range.file], d.range.begin.line, d.range.begin.col);
  };
  std::stable_sort(diags_.begin() + std::ptrdiff_t(printed_), diags_.end(),
                   [&](const Diagnostic& a, const Diagnostic& b) { return key(a) < key(b); });
  for (; printed_ < diags_.size(); ++printed_) {
    std::string text = format(diags_[printed_]);
    std::fwrite(text.data(), 1, text.size(), out);
  }
  std::fflush(out);
}

namespace {

struct Expected {
  Severity severity;
  uint32_t file;  // 0: any file and line (`@*`)
  uint32_t line;
  uint32_t col;  // 0: any column
  std::string text;
  bool seen = false;
};

// The message as printed: a named warning's flag follows it, and an expectation may match it.
std::string with_flag(const Diagnostic& d) { return d.flag.empty() ? d.message : d.message + " [" + d.flag + "]"; }

// Parses `# expected-error@+1:5 {{message}}` comments. The line spec is `@+N`, `@-N` or `@N`
// (absolute); the optional `:COL` pins the column; several `{{...}}` may follow.
std::vector<Expected> parse_expectations(const SourceManager& sm) {
  static const std::regex head(R"(expected-(error|warning|note)(@([+-]?)(\d+)|@\*)?(:(\d+))?\s*)");
  std::vector<Expected> out;
  for (uint32_t id = 1; id <= sm.size(); ++id) {
    const SourceFile& f = sm.file(id);
    for (uint32_t ln = 1; ln <= f.line_starts.size(); ++ln) {
      std::string line(f.line_text(ln));
      size_t hash = line.find('#');
      if (hash == std::string::npos) continue;
      std::string rest = line.substr(hash);
      std::smatch m;
      while (std::regex_search(rest, m, head)) {
        Severity sev = m[1] == "error" ? Severity::Error
                       : m[1] == "warning" ? Severity::Warning
                                           : Severity::Note;
        uint32_t target = ln, file = id;
        if (m[2].matched && !m[4].matched) {
          target = 0;
          file = 0;
        } else if (m[2].matched) {
          long n = std::stol(m[4]);
          target = m[3] == "+" ? ln + n : m[3] == "-" ? ln - n : uint32_t(n);
        }
        uint32_t col = m[5].matched ? uint32_t(std::stoul(m[6])) : 0;
        std::string tail = m.suffix();
        size_t pos = 0;
        while (tail.compare(pos, 2, "{{") == 0) {
          size_t close = tail.find("}}", pos + 2);
          if (close == std::string::npos) break;
          out.push_back({sev, file, target, col, tail.substr(pos + 2, close - pos - 2)});
          pos = close + 2;
          while (pos < tail.size() && tail[pos] == ' ') ++pos;
        }
        rest = tail.substr(pos);
      }
    }
  }
  return out;
}

}  // namespace

bool DiagnosticEngine::verify(FILE* out) const {
  std::vector<Expected> expected = parse_expectations(sm_);
  std::vector<const Diagnostic*> all;
  for (const Diagnostic& d : diags_) {
    all.push_back(&d);
    for (const Diagnostic& n : d.notes) all.push_back(&n);
  }
  std::vector<const Diagnostic*> unexpected;
  for (const Diagnostic* d : all) {
    bool matched = false;
    // Expectations with a line first, so that an `@*` one never takes their diagnostic.
    for (bool anywhere : {false, true}) {
      for (Expected& e : expected) {
        if (matched || e.seen || (e.file == 0) != anywhere || e.severity != d->severity ||
            (!anywhere && (e.file != d->range.file || e.line != d->range.begin.line)) ||
            (e.col && e.col != d->range.begin.col))
          continue;
        if (with_flag(*d).find(e.text) == std::string::npos) continue;
        e.seen = matched = true;
      }
    }
    if (!matched) unexpected.push_back(d);
  }
  bool ok = unexpected.empty();
  for (const Expected& e : expected) ok = ok && e.seen;
  for (Severity s : {Severity::Error, Severity::Warning, Severity::Note}) {
    std::string missing, extra;
    for (const Expected& e : expected)
      if (!e.seen && e.severity == s)
        missing += (e.file ? "  File " + sm_.file(e.file).path + " Line " + std::to_string(e.line) +
                                 (e.col ? ":" + std::to_string(e.col) : "")
                           : std::string("  Anywhere")) +
                   ": " + e.text + "\n";
    for (const Diagnostic* d : unexpected)
      if (d->severity == s)
        extra += "  File " + (d->range.valid() ? sm_.file(d->range.file).path : "<none>") +
                 " Line " + std::to_string(d->range.begin.line) + ":" +
                 std::to_string(d->range.begin.col) + ": " + with_flag(*d) + "\n";
    if (!missing.empty())
      std::fprintf(out, "error: '%s' diagnostics expected but not seen:\n%s", severity_name(s),
                   missing.c_str());
    if (!extra.empty())
      std::fprintf(out, "error: '%s' diagnostics seen but not expected:\n%s", severity_name(s),
                   extra.c_str());
  }
  return ok;
}

}  // namespace tilec
