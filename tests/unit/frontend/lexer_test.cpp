// The lexer: tokens, indentation (NEWLINE/INDENT/DEDENT), line joining, errors.
#include <catch2/catch.hpp>

#include "frontend/parse.h"

using namespace tilec;

namespace {
std::string tokens(const std::string& text, std::string* errors = nullptr) {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t id = sm.add("t.tile", text);
  std::string out = dump_tokens(sm, id, diag);
  if (errors)
    for (const Diagnostic& d : diag.diagnostics()) *errors += diag.format(d);
  return out;
}
}  // namespace

TEST_CASE("indentation becomes INDENT and DEDENT", "[lexer]") {
  CHECK(tokens("if x:\n    y\nz\n") ==
        "1:1 if\n1:4 identifier x\n1:5 :\n1:6 end of line\n2:5 indent\n2:5 identifier y\n"
        "2:6 end of line\n3:1 dedent\n3:1 identifier z\n3:2 end of line\n3:2 end of file\n");
}

TEST_CASE("blank and comment lines do not count; brackets join lines", "[lexer]") {
  CHECK(tokens("f(a,\n   b)  # c\n\n   # only a comment\n") ==
        "1:1 identifier f\n1:2 (\n1:3 identifier a\n1:4 ,\n2:4 identifier b\n2:5 )\n2:6 end of line\n"
        "2:6 end of file\n");
}

TEST_CASE("literals keep their spelling", "[lexer]") {
  CHECK(tokens("0x1F 1_000 2.5e-3 .5 'a\\'b'") ==
        "1:1 integer literal 0x1F\n1:6 integer literal 1_000\n1:12 float literal 2.5e-3\n"
        "1:19 float literal .5\n1:22 string literal 'a\\'b'\n1:28 end of line\n1:28 end of file\n");
}

TEST_CASE("the end of the file and its closing DEDENTs are after the last token", "[lexer]") {
  // Not on the line past the end: "unexpected unindent" or "unexpected end of file" point
  // into the file.
  CHECK(tokens("if x:\n    y\n\n# end\n") ==
        "1:1 if\n1:4 identifier x\n1:5 :\n1:6 end of line\n2:5 indent\n2:5 identifier y\n"
        "2:6 end of line\n2:6 dedent\n2:6 end of file\n");
}

TEST_CASE("the file ends with closing DEDENTs without a final newline", "[lexer]") {
  CHECK(tokens("def f():\n  pass") ==
        "1:1 def\n1:5 identifier f\n1:6 (\n1:7 )\n1:8 :\n1:9 end of line\n2:3 indent\n2:3 pass\n"
        "2:7 end of line\n2:7 dedent\n2:7 end of file\n");
}

TEST_CASE("tabs in indentation, stray bytes and open strings are errors", "[lexer]") {
  std::string errors;
  tokens("if x:\n\ty\n", &errors);
  CHECK(errors.find("t.tile:2:1: error: tab character in indentation") == 0);
  CHECK(errors.find("note: indent with spaces only") != std::string::npos);
  errors.clear();
  tokens("a = $\n", &errors);
  CHECK(errors.find("t.tile:1:5: error: invalid character '$'") == 0);
  errors.clear();
  tokens("s = \"abc\n", &errors);
  CHECK(errors.find("t.tile:1:5: error: unterminated string literal") == 0);
  errors.clear();
  tokens("a = \x7f\n", &errors);
  CHECK(errors.find("t.tile:1:5: error: invalid character '\\x7f'") == 0);
}

TEST_CASE("input that is not UTF-8 text is one error before any token", "[lexer]") {
  std::string errors;
  CHECK(tokens(std::string("a\nb\0\0 = $\n", 10), &errors).empty());
  CHECK(errors == "t.tile: error: not a text file: a NUL byte at line 2, column 2; a .tile source is UTF-8 text\n");
  errors.clear();
  CHECK(tokens("x = 1  # \xe9t\xe9\n", &errors).empty());
  CHECK(errors == "t.tile:1:10: error: the byte 0xe9 is not UTF-8; a .tile source is UTF-8 text\n"
                  "x = 1  # ?t?\n"
                  "         ^\n");
  errors.clear();
  tokens("# caf\xc3\xa9 \xf0\x9f\x98\x80\nx = 1\n", &errors);  // UTF-8 in a comment is fine
  CHECK(errors.empty());
}
