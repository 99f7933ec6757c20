// The tuning table's text form: a line lexer (words, quoted strings, '#' comments), the parser
// of its directives into a TuningTable with located errors, and the writer.
#include "codegen/header/tuning_table.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include <fmt/format.h>

namespace tilec {
namespace {

// One token of a line: a word (a run of characters other than blanks, '"' and '#') or a
// quoted string, whose text is unescaped (\" and \\ are the only escapes).
struct Token {
  bool quoted = false;
  std::string text;
  SourceRange range;
};

// The directives and their forms, as the "expected ..." messages quote them.
constexpr std::string_view kKernelForm = "kernel NAME";
constexpr std::string_view kSpaceForm = "space HASH";
constexpr std::string_view kConfigForm = "config INDEX \"LABEL\"";
constexpr std::string_view kGpuForm = "gpu \"NAME\" cc MAJOR.MINOR sms COUNT";

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t\r") - b + 1));
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

class TableParser {
 public:
  TableParser(uint32_t file, DiagnosticEngine& diag)
      : id_(file), f_(diag.sources().file(file)), diag_(diag) {}

  std::optional<TuningTable> run();

 private:
  // Splits line `line` into tokens and its comment; false (reported) on a broken string.
  bool lex_line(uint32_t line, std::vector<Token>& tokens, std::string& comment);
  SourceRange range(size_t begin, size_t end) const { return {id_, f_.position(begin), f_.position(end)}; }
  static SourceRange span(const std::vector<Token>& ts) { return SourceRange::join(ts.front().range, ts.back().range); }

  bool header(const std::vector<Token>& ts);
  void directive(const std::vector<Token>& ts, const std::string& comment);
  void kernel(const std::vector<Token>& ts);
  void space(const std::vector<Token>& ts);
  void symbols(const std::vector<Token>& ts);
  void config(const std::vector<Token>& ts, const std::string& comment);
  void gpu(const std::vector<Token>& ts, const std::string& comment);
  void row(const std::vector<Token>& ts, const std::string& comment);

  // True when `ts` has the words and strings of `form` (`quoted[i]`: token i is a string);
  // else reports "expected 'FORM'" at the line.
  bool shaped(const std::vector<Token>& ts, std::initializer_list<bool> quoted, std::string_view form);
  // Records the first line of a header directive; a second one is an error with a note.
  bool first_of(const Token& directive, SourceRange& first);
  std::optional<int64_t> integer(const Token& t, int64_t min, int64_t max, std::string_view what);

  uint32_t id_;
  const SourceFile& f_;
  DiagnosticEngine& diag_;
  TuningTable t_;
  std::map<int, SourceRange> config_lines_;
  std::map<std::string, SourceRange> gpu_lines_;
  std::map<std::vector<int64_t>, SourceRange> section_rows_;
};

bool TableParser::lex_line(uint32_t line, std::vector<Token>& tokens, std::string& comment) {
  std::string_view text = f_.line_text(line);
  size_t base = f_.line_starts[line - 1];
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == '#') {
      comment = trim(text.substr(i + 1));
      return true;
    } else if (c == '"') {
      Token t{true, "", {}};
      size_t j = i + 1;
      for (; j < text.size() && text[j] != '"'; ++j) {
        if (text[j] != '\\') {
          t.text += text[j];
          continue;
        }
        if (j + 1 < text.size() && (text[j + 1] == '"' || text[j + 1] == '\\')) {
          t.text += text[++j];
          continue;
        }
        diag_.error(range(base + j, base + j + 2), "unknown escape in a string (only \\\" and \\\\ are escapes)");
        return false;
      }
      if (j == text.size()) {
        diag_.error(range(base + i, base + i + 1), "unterminated string");
        return false;
      }
      t.range = range(base + i, base + j + 1);
      tokens.push_back(std::move(t));
      i = j + 1;
    } else {
      size_t j = text.find_first_of(" \t\r\"#", i);
      if (j == std::string_view::npos) j = text.size();
      tokens.push_back({false, std::string(text.substr(i, j - i)), range(base + i, base + j)});
      i = j;
    }
  }
  return true;
}

std::optional<TuningTable> TableParser::run() {
  int errors = diag_.error_count();
  bool started = false;
  for (uint32_t line = 1; line <= f_.line_starts.size(); ++line) {
    std::vector<Token> ts;
    std::string comment;
    if (!lex_line(line, ts, comment) || ts.empty()) continue;
    if (!started) {
      if (!header(ts)) return std::nullopt;  // not a table of this version: nothing else to say
      started = true;
      continue;
    }
    directive(ts, comment);
    if (diag_.too_many()) return std::nullopt;
  }
  if (!started) {
    diag_.error(SourceRange::whole_file(id_), "the file has no 'tilec-tuning 1' line: it is not a tuning table");
    return std::nullopt;
  }
  if (t_.kernel_range.file == 0) diag_.error(SourceRange::whole_file(id_), "the table has no 'kernel' line");
  if (t_.space_range.file == 0) diag_.error(SourceRange::whole_file(id_), "the table has no 'space' line");
  if (t_.symbols_range.file == 0) diag_.error(SourceRange::whole_file(id_), "the table has no 'symbols' line");
  if (diag_.error_count() != errors) return std::nullopt;
  return std::move(t_);
}

// tilec-tuning VERSION   (the first line that is not blank or a comment)
bool TableParser::header(const std::vector<Token>& ts) {
  if (ts[0].quoted || ts[0].text != "tilec-tuning") {
    diag_.error(ts[0].range, "expected 'tilec-tuning 1': the first line of a tuning table names its format");
    return false;
  }
  if (!shaped(ts, {false, false}, "tilec-tuning 1")) return false;
  std::optional<int64_t> v = integer(ts[1], 0, INT32_MAX, "a version");
  if (v && *v != kTuningTableVersion)
    diag_.error(ts[1].range, fmt::format("tuning table version {} is not supported (this tilec reads version {})",
                                         *v, kTuningTableVersion));
  return v && *v == kTuningTableVersion;
}

void TableParser::directive(const std::vector<Token>& ts, const std::string& comment) {
  const Token& d = ts[0];
  char c = d.text.empty() ? '\0' : d.text[0];
  if (!d.quoted && (std::isdigit(static_cast<unsigned char>(c)) || c == '-')) return row(ts, comment);
  if (!d.quoted && d.text == "gpu") return gpu(ts, comment);
  bool known = !d.quoted && (d.text == "kernel" || d.text == "space" || d.text == "symbols" || d.text == "config");
  if (!known) {
    diag_.error(d.range, fmt::format("unknown directive '{}' (a line is kernel, space, symbols, config, gpu or a row "
                                     "of integers)", d.quoted ? "\"" + d.text + "\"" : d.text));
    return;
  }
  if (!t_.sections.empty()) {
    diag_.error(d.range, fmt::format("'{}' must come before the first 'gpu' line", d.text));
    return;
  }
  if (d.text == "kernel") return kernel(ts);
  if (d.text == "space") return space(ts);
  if (d.text == "symbols") return symbols(ts);
  config(ts, comment);
}

bool TableParser::shaped(const std::vector<Token>& ts, std::initializer_list<bool> quoted, std::string_view form) {
  bool ok = ts.size() == quoted.size();
  for (size_t i = 0; ok && i < ts.size(); ++i) ok = ts[i].quoted == quoted.begin()[i];
  if (!ok) diag_.error(span(ts), fmt::format("expected '{}'", form));
  return ok;
}

bool TableParser::first_of(const Token& directive, SourceRange& first) {
  if (first.file != 0) {
    Diagnostic& d = diag_.error(directive.range, fmt::format("a second '{}' line", directive.text));
    DiagnosticEngine::note(d, first, "the first is here");
    return false;
  }
  first = directive.range;
  return true;
}

std::optional<int64_t> TableParser::integer(const Token& t, int64_t min, int64_t max, std::string_view what) {
  int64_t v = 0;
  const char* end = t.text.data() + t.text.size();
  auto [p, ec] = t.quoted ? std::from_chars_result{t.text.data(), std::errc::invalid_argument}
                          : std::from_chars(t.text.data(), end, v);
  if (ec == std::errc::invalid_argument || p != end) {
    diag_.error(t.range, fmt::format("expected {}, found '{}'", what, t.text));
    return std::nullopt;
  }
  if (ec == std::errc::result_out_of_range || v < min || v > max) {
    std::string bounds = max == INT64_MAX ? fmt::format("at least {}", min) : fmt::format("{} to {}", min, max);
    diag_.error(t.range, fmt::format("{} is out of range for {} ({})", t.text, what, bounds));
    return std::nullopt;
  }
  return v;
}

// kernel NAME
void TableParser::kernel(const std::vector<Token>& ts) {
  if (!first_of(ts[0], t_.kernel_range) || !shaped(ts, {false, false}, kKernelForm)) return;
  if (!is_identifier(ts[1].text)) diag_.error(ts[1].range, fmt::format("'{}' is not a kernel name", ts[1].text));
  t_.kernel = ts[1].text;
  t_.kernel_range = span(ts);
}

// space HASH   (16 lower-case hex digits: the kernel's tilec_kernel_metadata::config_space)
void TableParser::space(const std::vector<Token>& ts) {
  if (!first_of(ts[0], t_.space_range) || !shaped(ts, {false, false}, kSpaceForm)) return;
  const std::string& h = ts[1].text;
  if (h.size() != 16 || h.find_first_not_of("0123456789abcdef") != std::string::npos)
    diag_.error(ts[1].range, "a configuration space is 16 lower-case hexadecimal digits, as tilec-tune writes it");
  t_.space = h;
  t_.space_range = ts[1].range;
}

// symbols NAME...   (the kernel's dimension symbols; a kernel may have none)
void TableParser::symbols(const std::vector<Token>& ts) {
  if (!first_of(ts[0], t_.symbols_range)) return;
  t_.symbols_range = span(ts);
  std::map<std::string, SourceRange> seen;
  for (size_t i = 1; i < ts.size(); ++i) {
    if (ts[i].quoted || !is_identifier(ts[i].text)) {
      diag_.error(ts[i].range, fmt::format("'{}' is not a dimension symbol", ts[i].text));
      continue;
    }
    if (auto [it, fresh] = seen.try_emplace(ts[i].text, ts[i].range); !fresh) {
      Diagnostic& d = diag_.error(ts[i].range, fmt::format("symbol '{}' is listed twice", ts[i].text));
      DiagnosticEngine::note(d, it->second, "first listed here");
      continue;
    }
    t_.symbols.push_back(ts[i].text);
  }
}

// config INDEX "LABEL"
void TableParser::config(const std::vector<Token>& ts, const std::string& comment) {
  if (!shaped(ts, {false, false, true}, kConfigForm)) return;
  std::optional<int64_t> index = integer(ts[1], 0, INT32_MAX, "a configuration index");
  if (!index) return;
  if (auto [it, fresh] = config_lines_.try_emplace(int(*index), span(ts)); !fresh) {
    Diagnostic& d = diag_.error(ts[1].range, fmt::format("a second 'config {}' line", *index));
    DiagnosticEngine::note(d, it->second, "the first is here");
    return;
  }
  t_.configs.push_back({int(*index), ts[2].text, comment, span(ts), ts[1].range});
}

// gpu "NAME" cc MAJOR.MINOR sms COUNT
void TableParser::gpu(const std::vector<Token>& ts, const std::string& comment) {
  if (!shaped(ts, {false, true, false, false, false, false}, kGpuForm)) return;
  if (ts[2].text != "cc" || ts[4].text != "sms") {
    diag_.error(ts[2].text != "cc" ? ts[2].range : ts[4].range, fmt::format("expected '{}'", kGpuForm));
    return;
  }
  const std::string& cc = ts[3].text;
  bool cc_ok = cc.size() >= 3 && cc[cc.size() - 2] == '.' && std::isdigit(static_cast<unsigned char>(cc.back())) &&
               cc.find_first_not_of("0123456789") == cc.size() - 2 && cc.size() <= 4;
  if (!cc_ok) {
    diag_.error(ts[3].range, fmt::format("expected a compute capability MAJOR.MINOR (9.0), found '{}'", cc));
    return;
  }
  std::optional<int64_t> sms = integer(ts[5], 1, 65535, "a multiprocessor count");
  if (!sms) return;
  auto [it, fresh] = gpu_lines_.try_emplace(ts[1].text, span(ts));
  if (!fresh) {
    Diagnostic& d = diag_.error(ts[1].range, fmt::format("a second section for GPU \"{}\"", ts[1].text));
    DiagnosticEngine::note(d, it->second, "the first is here");
  }
  // A repeated GPU still opens a section, so that its rows are checked (and not taken as the
  // first section's).
  TuningSection s;
  s.gpu = ts[1].text;
  s.cc = std::stoi(cc.substr(0, cc.size() - 2)) * 10 + (cc.back() - '0');
  s.sms = int(*sms);
  s.comment = comment;
  s.range = span(ts);
  t_.sections.push_back(std::move(s));
  section_rows_.clear();
}

// EXTENT... INDEX   (one non-negative extent per symbol, then a configuration index)
void TableParser::row(const std::vector<Token>& ts, const std::string& comment) {
  if (t_.sections.empty()) {
    diag_.error(span(ts), "a row before any 'gpu' line: rows belong to the section of a GPU");
    return;
  }
  if (t_.symbols_range.file == 0) return;  // reported at the end; the row's width is unknown
  if (ts.size() != t_.symbols.size() + 1) {
    std::string names;
    for (const std::string& s : t_.symbols) names += s + " ";
    diag_.error(span(ts), fmt::format("a row has {} integers (the extents of {}then a configuration index), "
                                      "found {}",
                                      t_.symbols.size() + 1, names, ts.size()));
    return;
  }
  TuningRow r;
  r.range = span(ts);
  for (size_t i = 0; i + 1 < ts.size(); ++i) {
    std::optional<int64_t> e = integer(ts[i], 0, INT64_MAX, "an extent");
    if (!e) return;
    r.extents.push_back(*e);
  }
  std::optional<int64_t> index = integer(ts.back(), 0, INT32_MAX, "a configuration index");
  if (!index) return;
  if (!config_lines_.count(int(*index))) {
    diag_.error(ts.back().range, fmt::format("configuration {} has no 'config' line in this table", *index));
    return;
  }
  r.config = int(*index);
  r.config_range = ts.back().range;
  r.comment = comment;
  if (auto [it, fresh] = section_rows_.try_emplace(r.extents, r.range); !fresh) {
    Diagnostic& d = diag_.error(r.range, "a second row for these extents in this GPU's section");
    DiagnosticEngine::note(d, it->second, "the first is here");
    return;
  }
  t_.sections.back().rows.push_back(std::move(r));
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    TILEC_ASSERT(c != '\n', "a tuning table string with a line break");
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string with_comment(std::string line, const std::string& comment) {
  return comment.empty() ? line + "\n" : line + "  # " + comment + "\n";
}

}  // namespace

std::optional<TuningTable> parse_tuning_table(uint32_t file, DiagnosticEngine& diag) {
  return TableParser(file, diag).run();
}

std::optional<TuningTable> load_tuning_table(const std::string& path, SourceManager& sm, DiagnosticEngine& diag) {
  std::string error;
  uint32_t file = sm.load(path, error);
  if (!file) {
    diag.error(SourceRange{}, "cannot read tuning table '" + path + "': " + error);
    return std::nullopt;
  }
  return parse_tuning_table(file, diag);
}

std::string write_tuning_table(const TuningTable& t) {
  std::string out = fmt::format("tilec-tuning {}\nkernel {}\nspace {}\nsymbols", kTuningTableVersion, t.kernel, t.space);
  for (const std::string& s : t.symbols) out += " " + s;
  out += "\n";
  std::vector<const TuningConfig*> configs;
  for (const TuningConfig& c : t.configs) configs.push_back(&c);
  std::stable_sort(configs.begin(), configs.end(), [](auto* a, auto* b) { return a->index < b->index; });
  for (const TuningConfig* c : configs) out += with_comment(fmt::format("config {} {}", c->index, quoted(c->label)), c->comment);
  for (const TuningSection& s : t.sections) {
    out += with_comment(fmt::format("\ngpu {} cc {}.{} sms {}", quoted(s.gpu), s.cc / 10, s.cc % 10, s.sms), s.comment);
    for (const TuningRow& r : s.rows) {
      std::string line;
      for (int64_t e : r.extents) line += std::to_string(e) + " ";
      out += with_comment(line + std::to_string(r.config), r.comment);
    }
  }
  return out;
}

}  // namespace tilec
