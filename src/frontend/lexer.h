// The lexer: re2c rules (grammar/tile.re) produce raw tokens; this wrapper turns line starts into
// NEWLINE/INDENT/DEDENT the way Python does, so the grammar stays context-free.
#pragma once

#include <deque>
#include <vector>

#include "basic/diagnostics.h"
#include "frontend/token.h"

namespace tilec {

/// Lexes one source file. Errors (tabs, bad characters, unterminated strings, inconsistent
/// dedents) are reported to `diag` and lexing continues.
class Lexer {
 public:
  Lexer(const SourceManager& sm, uint32_t file, DiagnosticEngine& diag);

  /// The next token, with NEWLINE after each logical line, INDENT/DEDENT at indentation
  /// changes, and END (after closing NEWLINE and DEDENTs) at the end of input.
  Token next();

  /// Maximum nesting of brackets; deeper input is an error (keeps the parser's stack bounded).
  static constexpr int kMaxBracketDepth = 200;
  /// Maximum indentation depth, for the same reason.
  static constexpr int kMaxIndentDepth = 100;
  /// Maximum tokens in one logical line; the rest of a longer line is skipped. Bounds the
  /// parser's stack (a million `-` or `not` in a row) and the size of one statement's tree.
  static constexpr int kMaxLineTokens = 100000;

  /// The line of the most recent lexer error (0: none yet).
  uint32_t error_line() const { return error_line_; }
  /// The outermost bracket still open after the last token returned, if any.
  const Token* open_bracket() const;
  /// True when the last token returned is the first one on its physical line.
  bool token_starts_line() const { return starts_line_; }
  /// The indentation of the line where open_bracket() was opened.
  int open_bracket_indent() const { return first_open_indent_; }
  /// Forgets the open brackets (after the parser reported one as never closed).
  void drop_brackets() { bracket_depth_ = 0; }
  /// The file being lexed.
  const SourceFile& source() const { return src_; }

 private:
  Token scan();  // generated from grammar/tile.re: one raw token, NEWLINE for '\n'
  Diagnostic& error(const SourceRange& r, std::string msg);
  void skip_rest_of_line();  // after too many tokens: up to the NEWLINE ending the logical line
  Token make(TokKind k, const char* begin, const char* end) const;
  /// A triple-quoted string whose opening quotes start at `start` (cursor_ after them): scans to
  /// the closing quotes across lines, counting them, and sets `t` to a STRING token spanning it.
  /// Returns false after reporting an unterminated one (cursor_ at the end of input).
  bool triple_quoted(const char* start, Token& t);
  void newline_at(const char* after);  // a '\n' was consumed; `after` is the next line's start
  void line_start();  // measures indentation of the line at `cursor_`, queues INDENT/DEDENT
  bool unclosed_bracket_ends_here();  // a statement keyword starts the line after an open '('

  const SourceFile& src_;
  uint32_t file_;
  DiagnosticEngine& diag_;
  const char* begin_;
  const char* cursor_;
  const char* limit_;
  uint32_t line_ = 1;
  const char* line_begin_;

  std::vector<int> indents_{0};
  std::deque<Token> pending_;
  int bracket_depth_ = 0;
  Token first_open_;        // the outermost open bracket
  int first_open_indent_ = 0;  // indentation of the line where it opened
  bool at_line_start_ = true;
  bool line_has_tokens_ = false;
  bool done_ = false;
  bool tab_reported_ = false;  // a tab in indentation is reported once per file
  bool depth_reported_ = false;  // so is indentation deeper than kMaxIndentDepth
  int line_tokens_ = 0;
  int misindent_width_ = -1;    // the width of the last line that matched no level, kept in
  size_t misindent_depth_ = 0;  // the block at this depth of indents_ (line_start)
  SourcePos prev_end_;        // end of the last token returned (NEWLINE goes there)
  bool starts_line_ = false;
  uint32_t error_line_ = 0;
};

}  // namespace tilec
