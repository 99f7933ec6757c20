// The indentation wrapper around the re2c scanner: NEWLINE at the end of each logical line
// (none inside brackets, none for blank lines), INDENT/DEDENT where the indentation changes.
#include "frontend/lexer.h"

#include <cctype>
#include <cstring>

namespace tilec {

std::string_view tok_kind_name(TokKind k) {
  static constexpr std::string_view kNames[] = {
#define X(name, text) text,
      TILEC_TOKENS(X)
#undef X
  };
  return kNames[int(k)];
}

Lexer::Lexer(const SourceManager& sm, uint32_t file, DiagnosticEngine& diag)
    : src_(sm.file(file)), file_(file), diag_(diag) {
  begin_ = src_.text.c_str();
  cursor_ = begin_;
  limit_ = begin_ + src_.text.size();
  line_begin_ = begin_;
}

Token Lexer::make(TokKind k, const char* begin, const char* end) const {
  Token t;
  t.kind = k;
  t.text = std::string_view(begin, size_t(end - begin));
  t.range.file = file_;
  t.range.begin = {line_, uint32_t(begin - line_begin_ + 1), uint32_t(begin - begin_)};
  t.range.end = {line_, uint32_t(end - line_begin_ + 1), uint32_t(end - begin_)};
  return t;
}

void Lexer::newline_at(const char* after) {
  ++line_;
  line_begin_ = after;
}

void Lexer::line_start() {
  const char* p = cursor_;
  int width = 0;
  const char* tab = nullptr;
  for (; p < limit_ && (*p == ' ' || *p == '\t' || *p == '\f'); ++p) {
    if (*p == '\t' && !tab) tab = p;
    width += *p == ' ' ? 1 : 0;
  }
  // Blank and comment-only lines do not change the indentation.
  if (p >= limit_ || *p == '\n' || *p == '\r' || *p == '#') return;
  if (tab) {
    Diagnostic& d = diag_.error(make(TokKind::ERROR, tab, tab + 1).range,
                                "tab character in indentation");
    DiagnosticEngine::note(d, make(TokKind::ERROR, tab, tab + 1).range,
                           "indent with spaces only (for example 4 per level)");
  }
  Token at = make(TokKind::INDENT, p, p);
  if (width > indents_.back()) {
    if (int(indents_.size()) > kMaxIndentDepth) {
      diag_.error(at.range, "too many levels of indentation (limit " +
                                std::to_string(kMaxIndentDepth) + ")");
      return;
    }
    indents_.push_back(width);
    pending_.push_back(at);
    return;
  }
  while (width < indents_.back()) {
    indents_.pop_back();
    Token d = at;
    d.kind = TokKind::DEDENT;
    pending_.push_back(d);
  }
  if (width != indents_.back())
    diag_.error(at.range, "unindent does not match any outer indentation level");
}

// Inside brackets newlines are ignored, so one missing ')' would swallow the rest of the file.
// Like Python 3.10, give up on the bracket when the next line starts a new statement (a
// statement keyword or decorator, indented no deeper than the line that opened the bracket).
bool Lexer::unclosed_bracket_ends_here() {
  const char* p = cursor_;
  int width = 0;
  for (; p < limit_ && *p == ' '; ++p) ++width;
  if (width > first_open_indent_) return false;
  if (p < limit_ && *p == '@') return true;
  static const char* kStarters[] = {"def", "if", "elif", "else", "for", "while", "return",
                                    "import", "assert", "pass", "break", "continue"};
  for (const char* k : kStarters) {
    size_t n = std::strlen(k);
    if (size_t(limit_ - p) >= n && std::strncmp(p, k, n) == 0 &&
        (size_t(limit_ - p) == n || !(std::isalnum(static_cast<unsigned char>(p[n])) || p[n] == '_')))
      return true;
  }
  return false;
}

Token Lexer::next() {
  for (;;) {
    if (!pending_.empty()) {
      Token t = pending_.front();
      pending_.pop_front();
      return t;
    }
    if (done_) return make(TokKind::END, limit_, limit_);
    if (at_line_start_) {
      at_line_start_ = false;
      line_start();
      if (!pending_.empty()) continue;
    }
    Token t = scan();
    switch (t.kind) {
      case TokKind::NEWLINE:
        if (bracket_depth_ > 0 && unclosed_bracket_ends_here()) {
          diag_.error(first_open_.range, "'" + std::string(first_open_.text) + "' was never closed");
          bracket_depth_ = 0;
        }
        if (bracket_depth_ > 0) continue;  // implicit line joining inside () and []
        at_line_start_ = true;
        if (!line_has_tokens_) continue;   // blank or comment-only line
        line_has_tokens_ = false;
        return t;
      case TokKind::END: {
        done_ = true;
        if (line_has_tokens_) {
          Token nl = t;
          nl.kind = TokKind::NEWLINE;
          pending_.push_back(nl);
        }
        for (size_t i = 1; i < indents_.size(); ++i) {
          Token d = t;
          d.kind = TokKind::DEDENT;
          pending_.push_back(d);
        }
        indents_.resize(1);
        pending_.push_back(t);
        continue;
      }
      case TokKind::LPAREN:
      case TokKind::LBRACKET:
        if (bracket_depth_ == 0) {
          first_open_ = t;
          first_open_indent_ = indents_.back();
        }
        if (++bracket_depth_ == kMaxBracketDepth + 1)
          diag_.error(t.range, "brackets nested too deeply (limit " +
                                   std::to_string(kMaxBracketDepth) + ")");
        break;
      case TokKind::RPAREN:
      case TokKind::RBRACKET:
        if (bracket_depth_ > 0) --bracket_depth_;
        break;
      default:
        break;
    }
    line_has_tokens_ = true;
    return t;
  }
}

}  // namespace tilec
