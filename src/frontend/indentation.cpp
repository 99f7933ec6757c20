// The hand-written half of Lexer (lexer.h): the indentation layer around the re2c scanner,
// NEWLINE at the end of each logical line (none inside brackets, none for blank lines),
// INDENT/DEDENT where the indentation changes. The scanner itself, Lexer::scan(), is
// generated at build time from grammar/tile.re (and the parser from grammar/tile.yy) into the
// build folder; neither output is tracked.
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

Diagnostic& Lexer::error(const SourceRange& r, std::string msg) {
  error_line_ = r.begin.line;
  return diag_.error(r, std::move(msg));
}

bool Lexer::triple_quoted(const char* start, Token& t) {
  t = make(TokKind::STRING, start, start + 3);  // begins at the opening quotes' line
  const char q = *start;
  for (const char* p = start + 3; p < limit_ && *p != '\0';) {
    if (limit_ - p >= 3 && p[0] == q && p[1] == q && p[2] == q) {
      cursor_ = p + 3;
      t.range.end = make(TokKind::STRING, p, cursor_).range.end;
      t.text = std::string_view(start, size_t(cursor_ - start));
      return true;
    }
    if (*p == '\\' && p + 1 < limit_ && p[1] != '\0') ++p;  // an escaped quote or line end
    if (*p == '\n') newline_at(p + 1);
    ++p;
  }
  Token open = t;
  cursor_ = limit_;
  while (cursor_ > start && cursor_[-1] == '\0') --cursor_;
  error(open.range, std::string("unterminated triple-quoted string: no closing ") + q + q + q + " before the end of the file");
  return false;
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
    // After the error below, a tab counts to the next multiple of 4 so that a file indented
    // with tabs still parses into blocks (one error, not one per line).
    width = *p == ' ' ? width + 1 : *p == '\t' ? (width / 4 + 1) * 4 : width;
  }
  // Blank and comment-only lines do not change the indentation.
  if (p >= limit_ || *p == '\n' || *p == '\r' || *p == '#') return;
  if (tab && !tab_reported_) {
    tab_reported_ = true;
    Diagnostic& d = error(make(TokKind::ERROR, tab, tab + 1).range, "tab character in indentation");
    DiagnosticEngine::note(d, make(TokKind::ERROR, tab, tab + 1).range,
                           "indent with spaces only (for example 4 per level)");
  }
  Token at = make(TokKind::INDENT, p, p);
  if (width > indents_.back()) {
    if (int(indents_.size()) > kMaxIndentDepth) {
      if (!depth_reported_)
        error(at.range, "too many levels of indentation (limit " + std::to_string(kMaxIndentDepth) + ")");
      depth_reported_ = true;
      return;
    }
    indents_.push_back(width);
    pending_.push_back(at);
    misindent_width_ = -1;  // a new block: its mistakes are new ones
    return;
  }
  while (width < indents_.back()) {
    // Between the enclosing level and this block's (2 spaces where the levels are 0 and 4):
    // the line stays in the block. Closing it would put the line, and the lines after it that
    // are back at the block's level, in the wrong place ("bid() can only be used inside a
    // kernel", "unexpected indent"). Further lines of the same width in the same block are the
    // same mistake: reported once.
    if (width > indents_[indents_.size() - 2]) {
      bool again = misindent_width_ == width && misindent_depth_ == indents_.size();
      if (!again) error(at.range, "unindent does not match any outer indentation level");
      misindent_width_ = width;
      misindent_depth_ = indents_.size();
      return;
    }
    indents_.pop_back();
    misindent_width_ = -1;
    Token d = at;
    d.kind = TokKind::DEDENT;
    pending_.push_back(d);
  }
}

// Inside brackets newlines are ignored, so one missing ')' would swallow the rest of the file.
// Like Python 3.10, give up on the bracket when the next line starts a new statement (a
// statement keyword or decorator, indented no deeper than the line that opened the bracket).
bool Lexer::unclosed_bracket_ends_here() {
  const char* p = cursor_;
  int width = 0;
  for (; p < limit_ && *p == ' '; ++p) ++width;
  auto starts_with = [&](const char* k) {
    size_t n = std::strlen(k);
    return size_t(limit_ - p) >= n && std::strncmp(p, k, n) == 0 &&
           (size_t(limit_ - p) == n || !(std::isalnum(static_cast<unsigned char>(p[n])) || p[n] == '_'));
  };
  // These keywords never continue an expression, however deep the line is indented (a
  // `def f(x:` missing its ')' followed by the indented body).
  static const char* kStatementOnly[] = {"def", "elif", "for", "while", "return", "import",
                                         "assert", "pass", "break", "continue"};
  for (const char* k : kStatementOnly)
    if (starts_with(k)) return true;
  // `if`, `else` and `@` may continue one (`x if c else y`, `a @ b`) unless the line is no
  // deeper than the bracket's.
  if (width > first_open_indent_) return false;
  return (p < limit_ && *p == '@') || starts_with("if") || starts_with("else");
}

Token Lexer::next() {
  for (;;) {
    if (!pending_.empty()) {
      Token t = pending_.front();
      pending_.pop_front();
      return t;
    }
    if (done_) {
      Token t = make(TokKind::END, limit_, limit_);
      t.range.begin = t.range.end = prev_end_;
      return t;
    }
    if (at_line_start_) {
      at_line_start_ = false;
      line_start();
      if (!pending_.empty()) continue;
    }
    Token t = scan();
    if (t.kind != TokKind::NEWLINE && t.kind != TokKind::END && ++line_tokens_ > kMaxLineTokens) {
      error(t.range, "line has more than " + std::to_string(kMaxLineTokens) + " tokens; the rest is skipped");
      skip_rest_of_line();
      t.kind = TokKind::ERROR;
      return t;  // the parser recovers at the NEWLINE that skip_rest_of_line queued
    }
    switch (t.kind) {
      case TokKind::NEWLINE:
        if (bracket_depth_ > 0 && unclosed_bracket_ends_here()) {
          error(first_open_.range, "'" + std::string(first_open_.text) + "' was never closed");
          bracket_depth_ = 0;
        }
        if (bracket_depth_ > 0) continue;  // implicit line joining inside () and []
        at_line_start_ = true;
        if (!line_has_tokens_) continue;   // blank or comment-only line
        line_has_tokens_ = false;
        line_tokens_ = 0;
        // The end of a line is where its last token ends ("expecting ':'" points there, not
        // past a trailing comment).
        t.range.begin = t.range.end = prev_end_;
        return t;
      case TokKind::END: {
        done_ = true;
        // The end of the input is where the last token ends, not on the line past the end
        // ("unexpected end of file" points after the last token, as clang does).
        t.range.begin = t.range.end = prev_end_;
        if (bracket_depth_ > 0) error(first_open_.range, "'" + std::string(first_open_.text) + "' was never closed");
        if (line_has_tokens_) {
          Token nl = t;
          nl.kind = TokKind::NEWLINE;
          nl.range.begin = nl.range.end = prev_end_;
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
      case TokKind::LBRACE:  // a dict literal spanning lines is one error, not one per line
        if (bracket_depth_ == 0) {
          first_open_ = t;
          first_open_indent_ = indents_.back();
        }
        if (++bracket_depth_ == kMaxBracketDepth + 1)
          error(t.range, "brackets nested too deeply (limit " + std::to_string(kMaxBracketDepth) + ")");
        break;
      case TokKind::RPAREN:
      case TokKind::RBRACKET:
      case TokKind::RBRACE:
        if (bracket_depth_ > 0) --bracket_depth_;
        break;
      default:
        break;
    }
    line_has_tokens_ = true;
    starts_line_ = t.range.begin.line != prev_end_.line || prev_end_.offset == 0;
    prev_end_ = t.range.end;
    return t;
  }
}

const Token* Lexer::open_bracket() const { return bracket_depth_ > 0 ? &first_open_ : nullptr; }

void Lexer::skip_rest_of_line() {
  for (;;) {
    Token t = scan();
    if (t.kind == TokKind::LPAREN || t.kind == TokKind::LBRACKET || t.kind == TokKind::LBRACE) ++bracket_depth_;
    if ((t.kind == TokKind::RPAREN || t.kind == TokKind::RBRACKET || t.kind == TokKind::RBRACE) && bracket_depth_ > 0)
      --bracket_depth_;
    bool line_ends = t.kind == TokKind::NEWLINE && (bracket_depth_ == 0 || unclosed_bracket_ends_here());
    if (t.kind == TokKind::END || line_ends) {
      t.kind = TokKind::NEWLINE;  // scan() returns END again on the next call
      pending_.push_back(t);
      break;
    }
  }
  bracket_depth_ = 0;
  line_tokens_ = 0;
  line_has_tokens_ = false;
  at_line_start_ = true;
}

}  // namespace tilec
