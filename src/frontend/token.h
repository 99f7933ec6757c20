// Token kinds. The grammar (grammar/tile.yy) declares a token TOK_<NAME> for each entry; the
// parser's yylex maps them with this list, so a kind missing there fails to compile.
#pragma once

#include <string_view>

#include "basic/source.h"

namespace tilec {

// X(NAME, "spelling or description")
#define TILEC_TOKENS(X)                     \
  X(END, "end of file")                     \
  X(NEWLINE, "end of line")                 \
  X(INDENT, "indent")                       \
  X(DEDENT, "dedent")                       \
  X(IDENT, "identifier")                    \
  X(INT, "integer literal")                 \
  X(FLOAT, "float literal")                 \
  X(STRING, "string literal")               \
  X(DEF, "def")                             \
  X(RETURN, "return")                       \
  X(IF, "if")                               \
  X(ELIF, "elif")                           \
  X(ELSE, "else")                           \
  X(FOR, "for")                             \
  X(IN, "in")                               \
  X(WHILE, "while")                         \
  X(BREAK, "break")                         \
  X(CONTINUE, "continue")                   \
  X(PASS, "pass")                           \
  X(AND, "and")                             \
  X(OR, "or")                               \
  X(NOT, "not")                             \
  X(IMPORT, "import")                       \
  X(ASSERT, "assert")                       \
  X(TRUE, "True")                           \
  X(FALSE, "False")                         \
  X(NONE, "None")                           \
  X(LPAREN, "(")                            \
  X(RPAREN, ")")                            \
  X(LBRACKET, "[")                          \
  X(RBRACKET, "]")                          \
  X(LBRACE, "{")                            \
  X(RBRACE, "}")                            \
  X(COMMA, ",")                             \
  X(COLON, ":")                             \
  X(SEMI, ";")                              \
  X(DOT, ".")                               \
  X(ARROW, "->")                            \
  X(ASSIGN, "=")                            \
  X(PLUS, "+")                              \
  X(MINUS, "-")                             \
  X(STAR, "*")                              \
  X(SLASH, "/")                             \
  X(SLASHSLASH, "//")                       \
  X(PERCENT, "%")                           \
  X(STARSTAR, "**")                         \
  X(AT, "@")                                \
  X(AMP, "&")                               \
  X(PIPE, "|")                              \
  X(CARET, "^")                             \
  X(TILDE, "~")                             \
  X(SHL, "<<")                              \
  X(SHR, ">>")                              \
  X(LT, "<")                                \
  X(GT, ">")                                \
  X(LE, "<=")                               \
  X(GE, ">=")                               \
  X(EQ, "==")                               \
  X(NE, "!=")                               \
  X(PLUSEQ, "+=")                           \
  X(MINUSEQ, "-=")                          \
  X(STAREQ, "*=")                           \
  X(SLASHEQ, "/=")                          \
  X(SLASHSLASHEQ, "//=")                    \
  X(PERCENTEQ, "%=")                        \
  X(STARSTAREQ, "**=")                      \
  X(ATEQ, "@=")                             \
  X(AMPEQ, "&=")                            \
  X(PIPEEQ, "|=")                           \
  X(CARETEQ, "^=")                          \
  X(SHLEQ, "<<=")                           \
  X(SHREQ, ">>=")                           \
  X(ERROR, "invalid token")

enum class TokKind : unsigned char {
#define X(name, text) name,
  TILEC_TOKENS(X)
#undef X
};

/// The readable name of a kind, as the parser's messages spell it.
std::string_view tok_kind_name(TokKind k);

/// One token. `text` points into the source file (literal spellings, identifiers); for
/// strings `text` is the raw spelling with quotes and `value` is decoded by the parser.
struct Token {
  TokKind kind = TokKind::END;
  SourceRange range;
  std::string_view text;
};

}  // namespace tilec
