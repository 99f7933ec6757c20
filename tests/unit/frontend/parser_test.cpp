// The parser: tree shapes, precedence, error messages and recovery.
#include <catch2/catch.hpp>

#include "frontend/parse.h"

using namespace tilec;

namespace {
struct Parsed {
  std::string tree;
  std::string errors;
};

Parsed parse(const std::string& text) {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  diag.set_max_errors(0);
  uint32_t id = sm.add("t.tile", text);
  Module m;
  parse_file(sm, id, diag, m);
  Parsed p;
  if (!diag.has_errors()) p.tree = print_ast(m, sm, false);  // the printer recurses: only valid trees
  for (const Diagnostic& d : diag.diagnostics()) p.errors += diag.format(d);
  return p;
}
}  // namespace

TEST_CASE("precedence: unary minus binds looser than **, * tighter than +", "[parser]") {
  Parsed p = parse("x = -a ** 2 + b * c\n");
  CHECK(p.errors.empty());
  CHECK(p.tree ==
        "module t (t.tile)\n"
        "  assign @1:1\n"
        "    target name x @1:1\n"
        "    binary + @1:5\n"
        "      unary - @1:5\n"
        "        binary ** @1:6\n"
        "          name a @1:6\n"
        "          int 2 @1:11\n"
        "      binary * @1:15\n"
        "        name b @1:15\n"
        "        name c @1:19\n");
}

TEST_CASE("comparisons chain into one node", "[parser]") {
  Parsed p = parse("y = a < b <= c\n");
  CHECK(p.tree.find("compare < <= @1:5") != std::string::npos);
}

TEST_CASE("keyword arguments and subscripts", "[parser]") {
  Parsed p = parse("z = f(a, axis=1)[:, None]\n");
  CHECK(p.errors.empty());
  CHECK(p.tree.find("axis=int 1") != std::string::npos);
  CHECK(p.tree.find("slice") != std::string::npos);
  CHECK(p.tree.find("none") != std::string::npos);
}

TEST_CASE("syntax errors name the token and recover at the next line", "[parser]") {
  Parsed p = parse("x = (1 +\ny = 2)\nz = )\nw = 3 +\n");
  CHECK(p.errors.find("t.tile:2:3: error: unexpected '='") == 0);
  CHECK(p.errors.find("t.tile:3:5: error: unexpected ')'") != std::string::npos);
  CHECK(p.errors.find("t.tile:4:8: error: unexpected end of line") != std::string::npos);
  Parsed q = parse("def f(:\n    pass\nif x\n    pass\n");
  CHECK(q.errors.find("t.tile:1:7: error: unexpected ':', expecting identifier or ')'") == 0);
  CHECK(q.errors.find("t.tile:3:5: error: unexpected end of line, expecting ':'") != std::string::npos);
}

TEST_CASE("an unclosed bracket is reported where it opened", "[parser]") {
  Parsed p = parse("x = f(1,\ndef g():\n    pass\n");
  CHECK(p.errors.find("t.tile:1:6: error: '(' was never closed") != std::string::npos);
}

TEST_CASE("deep nesting is an error, not a crash", "[parser]") {
  std::string deep = "x = " + std::string(5000, '-') + "1\n";
  Parsed p = parse(deep);
  CHECK(p.errors.find("expression too deep") != std::string::npos);
  std::string parens = "x = " + std::string(300, '(') + "1" + std::string(300, ')') + "\n";
  CHECK(parse(parens).errors.find("brackets nested too deeply (limit 200)") != std::string::npos);
  std::string longsum = "x = 1";
  for (int i = 0; i < 200000; ++i) longsum += "+1";
  CHECK(parse(longsum + "\n").errors.find("expression too deep") != std::string::npos);
}

TEST_CASE("huge literals are diagnosed", "[parser]") {
  Parsed p = parse("x = 99999999999999999999999\ny = 1e999\n");
  CHECK(p.errors.find("t.tile:1:5: error: integer literal 99999999999999999999999 does not fit in 64 bits") == 0);
  CHECK(p.errors.find("t.tile:2:5: error: float literal 1e999 is out of range") != std::string::npos);
}

TEST_CASE("a broken block header and its block give one error", "[parser]") {
  Parsed p = parse("def f(x)\n    return x\nif x\n    pass\ny = 1\n");
  CHECK(p.errors.find("t.tile:1:9: error: unexpected end of line, expecting ':' or '->'") == 0);
  CHECK(p.errors.find("t.tile:3:5: error: unexpected end of line, expecting ':'") != std::string::npos);
  CHECK(p.errors.find("indent") == std::string::npos);  // no "unexpected indent/unindent" echo
}

TEST_CASE("a lexer error is not echoed by a syntax error on the same line", "[parser]") {
  Parsed p = parse("s = \"abc\nt = 1 ? 2\n");
  CHECK(p.errors.find("t.tile:1:5: error: unterminated string literal") == 0);
  CHECK(p.errors.find("t.tile:2:7: error: invalid character '?'") != std::string::npos);
  CHECK(p.errors.find("unexpected") == std::string::npos);
}

TEST_CASE("deep and long input stays small: one error, bounded tree and stack", "[parser]") {
  // A million unary minus signs: the line is cut after kMaxLineTokens tokens.
  Parsed p = parse("x = " + std::string(1000000, '-') + "1\ny = 2 +\n");
  CHECK(p.errors.find("t.tile:1:100003: error: line has more than 100000 tokens; the rest is skipped") == 0);
  CHECK(p.errors.find("t.tile:2:8: error: unexpected end of line") != std::string::npos);  // parsing goes on
  std::string chain = "z = 1";
  for (int i = 0; i < 20000; ++i) chain += " < 1";
  CHECK(parse(chain + "\n").errors.find("expression too deep") == std::string::npos);
  std::string calls = "w = f";
  for (int i = 0; i < 20000; ++i) calls += "(1)";
  Parsed q = parse(calls + "\n");
  CHECK(q.errors == "t.tile:1:5: error: expression too deep: more than 400 operations inside one another (each operator of a chain like a + b + c counts); split it with variables\n" + calls.substr(0, 200) +
                        "...\n    ^" + std::string(195, '~') + "\n");
}
