// The .tile lexer rules, compiled by re2c at build time into Lexer::scan().
// One raw token per call; NEWLINE for each '\n'. Indentation is measured by the wrapper in
// src/frontend/indentation.cpp, so this file reads like a table.
#include "frontend/lexer.h"
#include "frontend/python_forms.h"

namespace tilec {

Token Lexer::scan() {
  for (;;) {
    const char* start = cursor_;
    const char* YYMARKER = nullptr;
    /*!re2c
      re2c:define:YYCTYPE = "unsigned char";
      re2c:define:YYCURSOR = cursor_;
      re2c:define:YYLIMIT = limit_;
      re2c:define:YYMARKER = YYMARKER;
      re2c:yyfill:enable = 0;
      re2c:eof = 0;

      dec    = [0-9] ("_"? [0-9])*;
      hex    = "0" [xX] ("_"? [0-9a-fA-F])+;
      bin    = "0" [bB] ("_"? [01])+;
      oct    = "0" [oO] ("_"? [0-7])+;
      exp    = [eE] [+-]? dec;
      float  = dec "." dec? exp? | "." dec exp? | dec exp;
      ident  = [a-zA-Z_] [a-zA-Z_0-9]*;
      dqchar = [^"\\\n\x00] | "\\" [^\n\x00];
      sqchar = [^'\\\n\x00] | "\\" [^\n\x00];
      string = ["] dqchar* ["] | ['] sqchar* ['];
      prefix = [fFrRbBuU] | [rR] [bBfF] | [bBfF] [rR];

      $                  { return make(TokKind::END, start, start); }
      [ \t\r\f]+         { continue; }
      "#" [^\n\x00]*     { continue; }
      "\\" "\r"? "\n"    { newline_at(cursor_); continue; }
      "\n"               { Token t = make(TokKind::NEWLINE, start, cursor_); newline_at(cursor_); return t; }

      "def"      { return make(TokKind::DEF, start, cursor_); }
      "return"   { return make(TokKind::RETURN, start, cursor_); }
      "if"       { return make(TokKind::IF, start, cursor_); }
      "elif"     { return make(TokKind::ELIF, start, cursor_); }
      "else"     { return make(TokKind::ELSE, start, cursor_); }
      "for"      { return make(TokKind::FOR, start, cursor_); }
      "in"       { return make(TokKind::IN, start, cursor_); }
      "while"    { return make(TokKind::WHILE, start, cursor_); }
      "break"    { return make(TokKind::BREAK, start, cursor_); }
      "continue" { return make(TokKind::CONTINUE, start, cursor_); }
      "pass"     { return make(TokKind::PASS, start, cursor_); }
      "and"      { return make(TokKind::AND, start, cursor_); }
      "or"       { return make(TokKind::OR, start, cursor_); }
      "not"      { return make(TokKind::NOT, start, cursor_); }
      "import"   { return make(TokKind::IMPORT, start, cursor_); }
      "assert"   { return make(TokKind::ASSERT, start, cursor_); }
      "True"     { return make(TokKind::TRUE, start, cursor_); }
      "False"    { return make(TokKind::FALSE, start, cursor_); }
      "None"     { return make(TokKind::NONE, start, cursor_); }

      ident      { return make(TokKind::IDENT, start, cursor_); }
      float      { return make(TokKind::FLOAT, start, cursor_); }
      dec | hex | bin | oct { return make(TokKind::INT, start, cursor_); }
      string     { return make(TokKind::STRING, start, cursor_); }
      // """...""" and '''...''' (docstrings) may span lines: scanned by hand (indentation.cpp).
      ["]["]["] | ['][']['] { Token t; if (triple_quoted(start, t)) return t; continue; }
      // Python's f"...", r"...", b"...": one error, then the string as if unprefixed, so the
      // statement still parses (the parser reports nothing more on a line the lexer faulted).
      prefix string {
        const char* quote = start;
        while (*quote != '"' && *quote != '\'') ++quote;
        std::string_view prefix(start, size_t(quote - start));
        error(make(TokKind::ERROR, start, cursor_).range, string_prefix_message(prefix));
        Token t = make(TokKind::STRING, start, cursor_);
        t.text = std::string_view(quote, size_t(cursor_ - quote));
        return t;
      }
      ["] dqchar* | ['] sqchar* {
        error(make(TokKind::ERROR, start, cursor_).range, "unterminated string literal");
        continue;
      }

      "("   { return make(TokKind::LPAREN, start, cursor_); }
      ")"   { return make(TokKind::RPAREN, start, cursor_); }
      "["   { return make(TokKind::LBRACKET, start, cursor_); }
      "]"   { return make(TokKind::RBRACKET, start, cursor_); }
      "{"   { return make(TokKind::LBRACE, start, cursor_); }  // no rule takes them: the parser
      "}"   { return make(TokKind::RBRACE, start, cursor_); }  // names dict and set literals
      ","   { return make(TokKind::COMMA, start, cursor_); }
      ":"   { return make(TokKind::COLON, start, cursor_); }
      ";"   { return make(TokKind::SEMI, start, cursor_); }
      "."   { return make(TokKind::DOT, start, cursor_); }
      "->"  { return make(TokKind::ARROW, start, cursor_); }
      "="   { return make(TokKind::ASSIGN, start, cursor_); }
      "+"   { return make(TokKind::PLUS, start, cursor_); }
      "-"   { return make(TokKind::MINUS, start, cursor_); }
      "*"   { return make(TokKind::STAR, start, cursor_); }
      "/"   { return make(TokKind::SLASH, start, cursor_); }
      "//"  { return make(TokKind::SLASHSLASH, start, cursor_); }
      "%"   { return make(TokKind::PERCENT, start, cursor_); }
      "**"  { return make(TokKind::STARSTAR, start, cursor_); }
      "@"   { return make(TokKind::AT, start, cursor_); }
      "&"   { return make(TokKind::AMP, start, cursor_); }
      "|"   { return make(TokKind::PIPE, start, cursor_); }
      "^"   { return make(TokKind::CARET, start, cursor_); }
      "~"   { return make(TokKind::TILDE, start, cursor_); }
      "<<"  { return make(TokKind::SHL, start, cursor_); }
      ">>"  { return make(TokKind::SHR, start, cursor_); }
      "<"   { return make(TokKind::LT, start, cursor_); }
      ">"   { return make(TokKind::GT, start, cursor_); }
      "<="  { return make(TokKind::LE, start, cursor_); }
      ">="  { return make(TokKind::GE, start, cursor_); }
      "=="  { return make(TokKind::EQ, start, cursor_); }
      "!="  { return make(TokKind::NE, start, cursor_); }
      "+="  { return make(TokKind::PLUSEQ, start, cursor_); }
      "-="  { return make(TokKind::MINUSEQ, start, cursor_); }
      "*="  { return make(TokKind::STAREQ, start, cursor_); }
      "/="  { return make(TokKind::SLASHEQ, start, cursor_); }
      "//=" { return make(TokKind::SLASHSLASHEQ, start, cursor_); }
      "%="  { return make(TokKind::PERCENTEQ, start, cursor_); }
      "**=" { return make(TokKind::STARSTAREQ, start, cursor_); }
      "@="  { return make(TokKind::ATEQ, start, cursor_); }
      "&="  { return make(TokKind::AMPEQ, start, cursor_); }
      "|="  { return make(TokKind::PIPEEQ, start, cursor_); }
      "^="  { return make(TokKind::CARETEQ, start, cursor_); }
      "<<=" { return make(TokKind::SHLEQ, start, cursor_); }
      ">>=" { return make(TokKind::SHREQ, start, cursor_); }

      [\x80-\xff]+ {
        error(make(TokKind::ERROR, start, cursor_).range,
              "non-ASCII characters are only allowed in comments and strings");
        continue;
      }
      * {
        unsigned c = static_cast<unsigned char>(*start);
        char buf[64];
        if (c >= 0x21 && c < 0x7f) std::snprintf(buf, sizeof buf, "invalid character '%c'", char(c));
        else std::snprintf(buf, sizeof buf, "invalid character '\\x%02x'", c);
        error(make(TokKind::ERROR, start, cursor_).range, buf);
        continue;
      }
    */
  }
}

}  // namespace tilec
