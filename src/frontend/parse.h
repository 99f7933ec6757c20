// Parsing one .tile file into a Module (the Bison parser in grammar/tile.yy plus its helpers).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "frontend/ast.h"
#include "basic/diagnostics.h"
#include "frontend/lexer.h"
#include "frontend/python_forms.h"
#include "tile.tab.hh"

namespace tilec {

/// State shared between the generated parser and its semantic actions.
struct ParseContext {
  Lexer lexer;
  DiagnosticEngine& diag;
  Module& module;

  ExprPtr binary(ExprKind k, Op op, ExprPtr a, ExprPtr b, const SourceRange& r);
  ExprPtr unary(Op op, ExprPtr a, const SourceRange& r);
  ExprPtr tuple(std::vector<ExprPtr> elems, const SourceRange& r);
  /// One expression stays itself; several make a tuple.
  ExprPtr tuple_or_single(std::vector<ExprPtr> elems, const SourceRange& r);
  ExprPtr slice(ExprPtr lo, ExprPtr hi, ExprPtr step, const SourceRange& r);
  /// Sets `e->depth` from its children (from `args[first_new]` on when the earlier ones are
  /// already counted, as when a comparison chain grows). Past kMaxExprDepth, and around a part
  /// that was, it returns a poisoned childless node instead, so a million-deep `-(-(...))` or
  /// `1+1+...` keeps the tree (and every later recursion over it) small.
  ExprPtr limit(ExprPtr e, size_t first_new = 0);
  /// After parsing: "expression too deep" once, at the outermost expression that limit()
  /// poisoned first, unless the lexer reported an error on its line (brackets nested too deeply).
  void report_too_deep();
  /// Decimal, hex (0x), binary (0b) or octal (0o) with `_` separators; values past 2^64-1
  /// are reported here ("integer literal ... does not fit in 64 bits").
  ExprPtr int_literal(std::string_view text, const SourceRange& r);
  ExprPtr float_literal(std::string_view text, const SourceRange& r);
  /// Decodes escapes (\n \t \\ \' \" \xHH) of a quoted literal.
  ExprPtr string_literal(std::string_view text, const SourceRange& r);
  /// "unexpected ')', expecting identifier or '('" at the lookahead token; nothing when the
  /// lexer already reported an error on that line (the syntax error would only echo it).
  void report_syntax_error(const yy::parser::context& yyctx);
  /// `t = value`; for `a = b = value` an error with a hint, and `b = value`.
  StmtPtr assignment(std::vector<AssignTarget> targets, ExprPtr value, const SourceRange& r);
  /// `import name as alias`: an error (with a note pointing at docs/language.md §10 for
  /// cuTile's and Triton's modules); the statement is dropped (a `pass`).
  StmtPtr import_as(const std::string& name, std::string_view as, const SourceRange& as_range, std::string_view alias,
                    const SourceRange& r);
  /// The source text of `r` (one line), or "" when it is longer than `max` bytes.
  std::string text(const SourceRange& r, size_t max = 40) const;
  /// "unexpected indent" at an indented block that no statement opened (unless the lexer
  /// reported an error on that line).
  void unexpected_indent(const SourceRange& r);

  /// Records a token handed to the parser (yylex calls it), for report_python_form.
  void saw_token(const Token& t);
  /// The error for a syntax error that a Python construct the language lacks explains (a
  /// keyword such as `class` or `lambda`, a list, dict or set literal, `import a, b`), at the
  /// construct's first token; true when reported (or silenced: the `except` of a `try` already
  /// reported). docs/language.md §2.4 lists them.
  bool report_python_form();

  bool depth_reported = false;
  SourceRange too_deep{};      ///< the outermost expression around the first one too deep
  bool too_deep_echo = false;  ///< the lexer reported an error on its line
  Token last{};           ///< the last token handed to the parser: the lookahead at an error
  Token before_last{};    ///< the one before it
  Token line_first{};     ///< the first token of the current logical line (not INDENT/DEDENT)
  Token line_second{};    ///< the second one (kind END until there is one)
  std::vector<Token> open_brackets{};  ///< the '(', '[' and '{' not closed yet, innermost last
  bool at_line_start = true;
  uint32_t try_col = 0;  ///< column of a `try` reported while its clauses may follow; 0: none
};

/// Parses file `file` of `sm` into `out` (its body and name). Syntax errors go to `diag`;
/// the returned module holds whatever statements parsed. A file that is not UTF-8 text (a NUL
/// byte, a byte outside UTF-8) is one error and an empty module. Expressions nested deeper than
/// kMaxExprDepth are an error (later stages recurse over the tree).
void parse_file(const SourceManager& sm, uint32_t file, DiagnosticEngine& diag, Module& out);

constexpr int kMaxExprDepth = 400;

/// "cuTile" or "Triton" when `module` (`cuda.tile`, `triton.language`) is one of their Python
/// modules, which a port may try to import; nullptr otherwise.
const char* foreign_module(std::string_view module);

/// The note for such an import (`alias`: the name it was imported as, if any): the built-ins
/// need no import, and where the differences are.
std::string foreign_module_note(std::string_view module, std::string_view alias);

/// Lexes the whole file and prints one token per line (`--emit=tokens`):
/// `line:col KIND 'text'`.
std::string dump_tokens(const SourceManager& sm, uint32_t file, DiagnosticEngine& diag);

}  // namespace tilec
