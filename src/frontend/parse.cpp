// The parser's helpers: token hand-off, literal decoding, syntax error messages, depth limit.
#include "frontend/parse.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace tilec {
namespace {

using yy::parser;

// Literal tokens ("'('", "'def'") are quoted in messages; descriptive names are not.
std::string readable(parser::symbol_kind_type k) {
  std::string name = parser::symbol_name(k);
  static const char* kDescriptive[] = {"end of file", "end of line", "indent", "dedent",
                                       "identifier", "integer literal", "float literal",
                                       "string literal", "invalid token"};
  for (const char* d : kDescriptive)
    if (name == d) return name;
  return "'" + name + "'";
}

}  // namespace
}  // namespace tilec

namespace yy {

parser::symbol_type yylex(tilec::ParseContext& ctx) {
  using tilec::TokKind;
  tilec::Token t = ctx.lexer.next();
  ctx.saw_token(t);
  switch (t.kind) {
    case TokKind::END: return parser::make_END(t.range);
    case TokKind::IDENT: return parser::make_IDENT(t.text, t.range);
    case TokKind::INT: return parser::make_INT(t.text, t.range);
    case TokKind::FLOAT: return parser::make_FLOAT(t.text, t.range);
    case TokKind::STRING: return parser::make_STRING(t.text, t.range);
    default: break;
  }
  static constexpr parser::token_kind_type kMap[] = {
#define X(name, text) parser::token::TOK_##name,
      TILEC_TOKENS(X)
#undef X
  };
  return parser::symbol_type(kMap[int(t.kind)], t.range);
}

}  // namespace yy

namespace tilec {

ExprPtr ParseContext::limit(ExprPtr e, size_t first_new) {
  int depth = first_new > 0 ? e->depth - 1 : 0;
  bool poisoned = e->poisoned;  // a comparison chain growing on a poisoned start
  for (size_t i = first_new; i < e->args.size(); ++i)
    if (e->args[i]) {
      depth = std::max<int>(depth, e->args[i]->depth);
      poisoned = poisoned || e->args[i]->poisoned;
    }
  for (const Keyword& k : e->kwargs)
    if (k.value) {
      depth = std::max<int>(depth, k.value->depth);
      poisoned = poisoned || k.value->poisoned;
    }
  if (!poisoned && depth + 1 <= kMaxExprDepth) {
    e->depth = uint16_t(depth + 1);
    return e;
  }
  // Too deep, or around a part that was: the whole expression becomes one poisoned leaf (the
  // checker says nothing more about it), and the error is reported once at the outermost
  // expression, whose start is where the nesting begins (report_too_deep).
  if (!depth_reported) {
    depth_reported = true;
    too_deep = e->range;
    too_deep_echo = lexer.error_line() != 0 && lexer.error_line() == e->range.begin.line;
  } else if (e->range.begin.offset <= too_deep.begin.offset && e->range.end.offset >= too_deep.end.offset &&
             e->range.file == too_deep.file) {
    too_deep = e->range;
  }
  ExprPtr leaf = make_expr(ExprKind::None, e->range);  // `e` and its children are freed here
  leaf->poisoned = true;
  return leaf;
}

void ParseContext::report_too_deep() {
  if (!depth_reported || too_deep_echo) return;  // a lexer error ("brackets nested too deeply") said it
  diag.error(too_deep, fmt::format("expression too deep: more than {} operations inside one another (each "
                                   "operator of a chain like a + b + c counts); split it with variables",
                                   kMaxExprDepth));
}

ExprPtr ParseContext::binary(ExprKind k, Op op, ExprPtr a, ExprPtr b, const SourceRange& r) {
  ExprPtr e = make_expr(k, r);
  e->op = op;
  e->args.push_back(std::move(a));
  e->args.push_back(std::move(b));
  return limit(std::move(e));
}

ExprPtr ParseContext::unary(Op op, ExprPtr a, const SourceRange& r) {
  ExprPtr e = make_expr(ExprKind::Unary, r);
  e->op = op;
  e->args.push_back(std::move(a));
  return limit(std::move(e));
}

ExprPtr ParseContext::tuple(std::vector<ExprPtr> elems, const SourceRange& r) {
  ExprPtr e = make_expr(ExprKind::Tuple, r);
  e->args = std::move(elems);
  return limit(std::move(e));
}

ExprPtr ParseContext::tuple_or_single(std::vector<ExprPtr> elems, const SourceRange& r) {
  if (elems.size() == 1) return std::move(elems[0]);
  return tuple(std::move(elems), r);
}

ExprPtr ParseContext::slice(ExprPtr lo, ExprPtr hi, ExprPtr step, const SourceRange& r) {
  ExprPtr e = make_expr(ExprKind::Slice, r);
  e->args.push_back(std::move(lo));
  e->args.push_back(std::move(hi));
  e->args.push_back(std::move(step));
  return limit(std::move(e));
}

ExprPtr ParseContext::int_literal(std::string_view text, const SourceRange& r) {
  ExprPtr e = make_expr(ExprKind::Int, r);
  e->text = std::string(text);
  unsigned base = 10;
  size_t i = 0;
  if (text.size() > 1 && text[0] == '0' && text[1] != '_' && !std::isdigit(static_cast<unsigned char>(text[1]))) {
    char b = char(text[1] | 0x20);
    base = b == 'x' ? 16 : b == 'b' ? 2 : 8;
    i = 2;
  }
  uint64_t v = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_') continue;
    unsigned d = std::isdigit(static_cast<unsigned char>(c)) ? unsigned(c - '0') : unsigned((c | 0x20) - 'a' + 10);
    if (v > (UINT64_MAX - d) / base) e->overflow = true;
    v = v * base + d;
  }
  e->int_value = e->overflow ? 0 : v;
  if (e->overflow)
    diag.error(r, fmt::format("integer literal {} does not fit in 64 bits", text.size() > 40
                                                                            ? std::string(text.substr(0, 40)) + "..."
                                                                            : std::string(text)));
  return e;
}

ExprPtr ParseContext::float_literal(std::string_view text, const SourceRange& r) {
  ExprPtr e = make_expr(ExprKind::Float, r);
  e->text = std::string(text);
  std::string digits;
  for (char c : text)
    if (c != '_') digits += c;
  errno = 0;
  e->float_value = std::strtod(digits.c_str(), nullptr);
  if (std::isinf(e->float_value))
    diag.error(r, "float literal " + (digits.size() > 40 ? digits.substr(0, 40) + "..." : digits) +
                      " is out of range (larger than f64 can hold)");
  return e;
}

ExprPtr ParseContext::string_literal(std::string_view text, const SourceRange& r) {
  ExprPtr e = make_expr(ExprKind::String, r);
  std::string out;
  // Quotes: one, or three for a triple-quoted string (grammar/tile.re); in a triple-quoted one a
  // backslash before a line end joins the lines, as in Python.
  size_t quotes = text.size() >= 6 && text[0] == text[1] && text[1] == text[2] ? 3 : 1;
  for (size_t i = quotes; i + quotes < text.size(); ++i) {
    char c = text[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    char n = text[++i];
    switch (n) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '0': out += '\0'; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case '\n': break;  // a line continued inside a triple-quoted string
      case 'x': {
        auto hex = [](char h) { return std::isxdigit(static_cast<unsigned char>(h)) ? (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (h | 0x20) - 'a' + 10) : -1; };
        int hi = i + 1 + 1 < text.size() ? hex(text[i + 1]) : -1;
        int lo = i + 2 + 1 < text.size() ? hex(text[i + 2]) : -1;
        if (hi < 0 || lo < 0) {
          diag.error(r, "invalid \\x escape in string literal: two hex digits expected");
          break;
        }
        out += char(hi * 16 + lo);
        i += 2;
        break;
      }
      default:
        out += '\\';
        out += n;
        break;
    }
  }
  e->text = std::move(out);
  return e;
}

void ParseContext::report_syntax_error(const yy::parser::context& yyctx) {
  if (lexer.error_line() != 0 && lexer.error_line() == yyctx.location().begin.line) return;
  // A line inside a bracket opened on an earlier line, indented no deeper than the bracket's
  // line, that cannot continue it: the bracket is the mistake (Python 3.10's "'(' was never
  // closed"). A deeper line is a continuation with a mistake of its own (a missing ',').
  const Token* open = lexer.open_bracket();
  if (open && lexer.token_starts_line() && open->range.begin.line < yyctx.location().begin.line &&
      int(yyctx.location().begin.col) - 1 <= lexer.open_bracket_indent()) {
    diag.error(open->range, "'" + std::string(open->text) + "' was never closed");
    lexer.drop_brackets();
    return;
  }
  if (report_python_form()) return;
  std::string msg;
  parser::symbol_kind_type got = yyctx.token();
  if (got == parser::symbol_kind::S_INDENT) msg = "unexpected indent";
  else if (got == parser::symbol_kind::S_DEDENT) msg = "unexpected unindent";
  else msg = "unexpected " + readable(got);
  parser::symbol_kind_type expected[64];
  int n = yyctx.expected_tokens(expected, 64);
  if (n == 1 && expected[0] == parser::symbol_kind::S_INDENT) {
    // `if c:` followed by a line no deeper, or by the end of the file (Python's wording).
    msg = "expected an indented block after ':'";
  } else if (n > 0 && n <= 5) {
    msg += ", expecting ";
    for (int i = 0; i < n; ++i) msg += (i ? " or " : "") + readable(expected[i]);
  } else {
    // Many tokens could continue an expression; name the closer that is surely missing, and
    // the ',' that may be ("f(a b)").
    bool comma = false;
    for (int i = 0; i < n; ++i) comma = comma || expected[i] == parser::symbol_kind::S_COMMA;
    for (int i = 0; i < n; ++i)
      if (expected[i] == parser::symbol_kind::S_COLON || expected[i] == parser::symbol_kind::S_RPAREN ||
          expected[i] == parser::symbol_kind::S_RBRACKET) {
        bool closer = expected[i] != parser::symbol_kind::S_COLON;
        msg += ", expecting " + std::string(comma && closer ? "',' or " : "") + readable(expected[i]);
        break;
      }
  }
  diag.error(yyctx.location(), msg);
}

void ParseContext::saw_token(const Token& t) {
  before_last = last;
  last = t;
  if (t.kind == TokKind::LPAREN || t.kind == TokKind::LBRACKET || t.kind == TokKind::LBRACE) open_brackets.push_back(t);
  if ((t.kind == TokKind::RPAREN || t.kind == TokKind::RBRACKET || t.kind == TokKind::RBRACE) && !open_brackets.empty())
    open_brackets.pop_back();
  if (t.kind == TokKind::NEWLINE) open_brackets.clear();
  if (t.kind == TokKind::NEWLINE) at_line_start = true;
  if (t.kind == TokKind::NEWLINE || t.kind == TokKind::INDENT || t.kind == TokKind::DEDENT || t.kind == TokKind::END)
    return;
  if (!at_line_start) {
    if (line_second.kind == TokKind::END) line_second = t;
    return;
  }
  at_line_start = false;
  line_first = t;
  line_second = Token{};
  // A statement at the `try`'s column or left of it that is no clause of it ends the try.
  bool clause = t.kind == TokKind::ELSE || (t.kind == TokKind::IDENT && python_try_clause(t.text));
  if (try_col && t.range.begin.col <= try_col && !clause) try_col = 0;
}

bool ParseContext::report_python_form() {
  // The lookahead of the syntax error is `last`: yylex recorded it.
  // `except E:` and `finally:` (and `else:`) after a `try` reported: the same construct.
  bool clause = line_first.kind == TokKind::ELSE ||
                (line_first.kind == TokKind::IDENT && python_try_clause(line_first.text));
  if (try_col && clause && line_first.range.begin.col == try_col) return true;
  // A keyword the language lacks: the statement's first word (`with open(f) as g:`, unless
  // the next token makes it a variable: `with = 3`), the unexpected word itself (`x is None`),
  // or the word before it (`lambda q: q`, `if c: raise E`).
  auto variable_follows = [](TokKind k) {
    return k == TokKind::ASSIGN || k == TokKind::DOT || k == TokKind::COMMA || k == TokKind::LBRACKET ||
           (k >= TokKind::PLUSEQ && k <= TokKind::SHREQ);
  };
  const Token* word = nullptr;
  if (line_first.kind == TokKind::IDENT && python_statement_keyword(line_first.text) &&
      !variable_follows(line_second.kind))
    word = &line_first;
  else if (last.kind == TokKind::IDENT && last.text == "is")
    word = &last;
  else if (before_last.kind == TokKind::IDENT && python_keyword_message(before_last.text))
    word = &before_last;
  if (word) {
    diag.error(word->range, python_keyword_message(word->text));
    if (word->text == "try" || python_try_clause(word->text)) try_col = word->range.begin.col;
    return true;
  }
  // A list display parses (configs=[...]); a comprehension fails at its 'for'.
  if (last.kind == TokKind::FOR && !open_brackets.empty() && open_brackets.back().kind == TokKind::LBRACKET) {
    diag.error(open_brackets.back().range, list_message(ListForm::Comprehension));
    return true;
  }
  if (last.kind == TokKind::LBRACKET) {
    ListForm form = before_last.kind == TokKind::IN && line_first.kind == TokKind::FOR ? ListForm::ForIterable
                    : is_comprehension(lexer.source().text, last.range.begin.offset) ? ListForm::Comprehension
                                                                                     : ListForm::Literal;
    diag.error(last.range, list_message(form));
    return true;
  }
  if (last.kind == TokKind::LBRACE) {
    diag.error(last.range, brace_message());
    return true;
  }
  if (last.kind == TokKind::COMMA && line_first.kind == TokKind::IMPORT) {
    diag.error(last.range, import_list_message());
    return true;
  }
  return false;
}

std::string ParseContext::text(const SourceRange& r, size_t max) const { return lexer.source().snippet(r, max); }

StmtPtr ParseContext::assignment(std::vector<AssignTarget> targets, ExprPtr value, const SourceRange& r) {
  if (targets.size() > 1) {
    // Python assigns the value to every target; here each assignment has one target.
    Diagnostic& d = diag.error(targets[1].eq, "chained assignment is not supported");
    std::string first = text(targets[0].target->range), last = text(targets.back().target->range);
    std::string v = text(value->range);
    if (targets.size() == 2 && !first.empty() && !last.empty() && !v.empty())
      DiagnosticEngine::note(d, targets[1].eq, "assign one target per statement: '" + last + " = " + v + "', then '" +
                                                   first + " = " + last + "'");
    else
      DiagnosticEngine::note(d, targets[1].eq, "assign one target per statement");
  }
  StmtPtr s = make_stmt(StmtKind::Assign, r);
  s->target = std::move(targets.back().target);
  s->value = std::move(value);
  return s;
}

const char* foreign_module(std::string_view module) {
  std::string_view top = module.substr(0, module.find('.'));
  if (top == "cuda") return "cuTile";
  if (top == "triton") return "Triton";
  return nullptr;
}

std::string foreign_module_note(std::string_view module, std::string_view alias) {
  std::string from = foreign_module(module);
  std::string prefix = !alias.empty() ? std::string(alias) : from == "cuTile" ? "ct" : "tl";
  return "'" + std::string(module) + "' is " + from + "'s Python module: in .tile the built-ins need no import "
         "and no prefix (load(...), not " + prefix + ".load(...)); docs/language.md §10 lists the differences";
}

StmtPtr ParseContext::import_as(const std::string& name, std::string_view as, const SourceRange& as_range,
                                std::string_view alias, const SourceRange& r) {
  if (as != "as") {
    diag.error(as_range, "unexpected identifier, expecting end of line or ';' or '.'");
  } else if (foreign_module(name)) {
    Diagnostic& d = diag.error(as_range, "'import ... as' is not supported");
    DiagnosticEngine::note(d, r, foreign_module_note(name, alias));
  } else {
    Diagnostic& d = diag.error(as_range, "'import ... as' is not supported");
    DiagnosticEngine::note(d, r, "'import " + name + "' binds '" + name.substr(name.find_last_of('.') + 1) +
                                     "', and its names are also visible unqualified");
  }
  return make_stmt(StmtKind::Pass, r);
}

void ParseContext::unexpected_indent(const SourceRange& r) {
  if (lexer.error_line() != 0 && lexer.error_line() == r.begin.line) return;
  diag.error(r, "unexpected indent");
}

namespace {

// A source is UTF-8 text. A NUL byte means a binary file (an executable, an image): one error
// for the whole file, without echoing any of it. A byte that is not UTF-8 in a text file (a
// Latin-1 comment) is one error at that byte. Either way nothing else is reported for the file.
bool check_text(const SourceManager& sm, uint32_t file, DiagnosticEngine& diag) {
  const SourceFile& f = sm.file(file);
  size_t nul = f.text.find('\0');
  if (nul != std::string::npos) {
    SourcePos at = f.position(nul);
    diag.error(SourceRange::whole_file(file),
               fmt::format("not a text file: a NUL byte at line {}, column {}; a .tile source is UTF-8 text",
                           at.line, at.col));
    return false;
  }
  for (size_t i = 0; i < f.text.size();) {
    size_t n = utf8_sequence_length(f.text, i);
    if (n == 0) {
      SourcePos at = f.position(i);
      SourcePos end = at;
      ++end.col;
      ++end.offset;
      diag.error(SourceRange{file, at, end},
                 fmt::format("the byte 0x{:02x} is not UTF-8; a .tile source is UTF-8 text",
                             static_cast<unsigned char>(f.text[i])));
      return false;
    }
    i += n;
  }
  return true;
}

std::string module_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".tile") == 0) base.resize(base.size() - 5);
  return base;
}

}  // namespace

void parse_file(const SourceManager& sm, uint32_t file, DiagnosticEngine& diag, Module& out) {
  out.file = file;
  out.name = module_name(sm.file(file).path);
  int errors = diag.error_count();
  if (!check_text(sm, file, diag)) {
    out.broken = true;
    return;
  }
  ParseContext ctx{Lexer(sm, file, diag), diag, out};
  yy::parser parser(ctx);
  parser.parse();
  ctx.report_too_deep();
  out.broken = diag.error_count() != errors || diag.too_many();
}

std::string dump_tokens(const SourceManager& sm, uint32_t file, DiagnosticEngine& diag) {
  if (!check_text(sm, file, diag)) return "";
  Lexer lexer(sm, file, diag);
  std::string out;
  for (;;) {
    Token t = lexer.next();
    out += fmt::format("{}:{} {}", t.range.begin.line, t.range.begin.col, tok_kind_name(t.kind));
    if (t.kind == TokKind::IDENT || t.kind == TokKind::INT || t.kind == TokKind::FLOAT ||
        t.kind == TokKind::STRING)
      out += " " + std::string(t.text);
    out += "\n";
    if (t.kind == TokKind::END) break;
  }
  return out;
}

}  // namespace tilec
