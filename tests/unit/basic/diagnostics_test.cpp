// The diagnostic format (clang style: location, message, source line, caret and ~~~) and the
// --verify-diagnostics matcher.
#include <catch2/catch.hpp>

#include "basic/diagnostics.h"

using namespace tilec;

TEST_CASE("diagnostics print the line with a caret and underline", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t id = sm.add("k.tile", "a = 1\nbad = foo + 1\n");
  SourceRange r{id, {2, 7, 12}, {2, 10, 15}};
  Diagnostic& d = diag.error(r, "use of undefined name 'foo'");
  DiagnosticEngine::note(d, SourceRange{id, {1, 1, 0}, {1, 2, 1}}, "see here");
  CHECK(diag.format(d) ==
        "k.tile:2:7: error: use of undefined name 'foo'\n"
        "bad = foo + 1\n"
        "      ^~~\n"
        "k.tile:1:1: note: see here\n"
        "a = 1\n"
        "^\n");
}

TEST_CASE("errors past --max-errors are dropped with one notice", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  diag.set_max_errors(2);
  for (int i = 0; i < 5; ++i) diag.error(SourceRange{}, "e");
  CHECK(diag.error_count() == 2);
  CHECK(diag.diagnostics().size() == 3);
  CHECK(diag.diagnostics().back().message == "too many errors emitted, stopping now [--max-errors=2]");
}

TEST_CASE("-Werror turns warnings into errors", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  WarningSettings s;
  std::string error;
  REQUIRE(s.apply("-Werror", error));
  diag.set_warnings(s);
  Diagnostic& d = diag.warning(Warning::Ptxas, SourceRange{}, "w");
  CHECK(diag.has_errors());
  CHECK(diag.format(d) == "tilec: error: w [-Werror,-Wptxas]\n");
}

TEST_CASE("verify matches expected-error comments by line", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t id = sm.add("k.tile", "# expected-error@+1 {{undefined name}}\nx = y\nz = 1  # expected-warning {{unused}}\n");
  diag.error(SourceRange{id, {2, 5, 0}, {2, 6, 0}}, "use of undefined name 'y'");
  char buf[4096] = {};
  FILE* out = fmemopen(buf, sizeof buf, "w");
  CHECK_FALSE(diag.verify(out));  // the warning was expected but not seen
  std::fclose(out);
  CHECK(std::string(buf).find("'warning' diagnostics expected but not seen:\n  File k.tile Line 3: unused") != std::string::npos);
  diag.warning(Warning::UnusedValue, SourceRange{id, {3, 1, 0}, {3, 2, 0}}, "result unused");
  CHECK(diag.verify(stderr));
}

TEST_CASE("an identical diagnostic at the same place is reported once", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t id = sm.add("k.tile", "x = y\n");
  SourceRange r{id, {1, 5, 4}, {1, 6, 5}};
  diag.error(r, "use of undefined name 'y'");
  diag.error(r, "use of undefined name 'y'");  // the same helper body, inlined twice
  diag.error(r, "another message");
  CHECK(diag.error_count() == 2);
}

TEST_CASE("verify: @* matches a diagnostic in any file, with a line first", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t id = sm.add("k.tile", "# expected-error@* {{bad value}}\nx = 1  # expected-error {{bad value}}\n");
  uint32_t dash_d = sm.add("<-D X>", "f16\n");
  diag.error(SourceRange{id, {2, 1, 0}, {2, 2, 0}}, "bad value here");
  diag.error(SourceRange{dash_d, {1, 1, 0}, {1, 4, 0}}, "bad value there");
  CHECK(diag.verify(stderr));
}

TEST_CASE("verify: an expectation may match a named warning's flag", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t id = sm.add("k.tile", "x  # expected-warning {{result unused [-Wunused-value]}}\n");
  diag.warning(Warning::UnusedValue, SourceRange{id, {1, 1, 0}, {1, 2, 1}}, "expression result unused");
  CHECK(diag.verify(stderr));
}

TEST_CASE("a diagnostic about a whole file names it without a line", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t id = sm.add("e.tile", "");
  Diagnostic& d = diag.error(SourceRange::whole_file(id), "no @kernel in this file");
  CHECK(diag.format(d) == "e.tile: error: no @kernel in this file\n");
}

TEST_CASE("UTF-8 sequences are recognized; diagnostics never print invalid UTF-8", "[diagnostics]") {
  CHECK(utf8_sequence_length("a", 0) == 1);
  CHECK(utf8_sequence_length("\xc3\xa9", 0) == 2);
  CHECK(utf8_sequence_length("\xe2\x82\xac", 0) == 3);
  CHECK(utf8_sequence_length("\xf0\x9f\x98\x80", 0) == 4);
  CHECK(utf8_sequence_length("\xc3", 0) == 0);          // cut short
  CHECK(utf8_sequence_length("\xa9", 0) == 0);          // a continuation byte alone
  CHECK(utf8_sequence_length("\xc0\x80", 0) == 0);      // overlong NUL
  CHECK(utf8_sequence_length("\xed\xa0\x80", 0) == 0);  // a surrogate
  CHECK(utf8_sequence_length("\xf4\x90\x80\x80", 0) == 0);  // past U+10FFFF
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t id = sm.add("k\xff.tile", "x = caf\xc3\xa9 + \xff\x1b\n");
  Diagnostic& d = diag.error(SourceRange{id, {1, 5, 4}, {1, 6, 5}}, "bad name 'caf\xc3\xa9\xff'");
  CHECK(diag.format(d) == "k?.tile:1:5: error: bad name 'caf\xc3\xa9?'\n"
                          "x = caf\xc3\xa9 + ??\n"
                          "    ^\n");
  // A long message is cut at 400 bytes; a character cut in two there shows as '?'.
  Diagnostic& cut = diag.error(SourceRange{}, std::string(399, 'a') + "\xc3\xa9");
  CHECK(diag.format(cut) == "tilec: error: " + std::string(399, 'a') + "?...\n");
}

TEST_CASE("flush prints by line within a file, files in the order of their first diagnostic", "[diagnostics]") {
  SourceManager sm;
  DiagnosticEngine diag(sm);
  uint32_t a = sm.add("a.tile", "1\n2\n3\n");
  uint32_t b = sm.add("b.tile", "1\n2\n");
  auto at = [](uint32_t file, uint32_t line) { return SourceRange{file, {line, 1, 0}, {line, 2, 0}}; };
  diag.error(at(b, 2), "b2");
  diag.error(SourceRange{}, "nowhere");
  diag.error(at(a, 3), "a3");
  diag.error(at(b, 1), "b1");
  Diagnostic& a1 = diag.error(at(a, 1), "a1");
  DiagnosticEngine::note(a1, at(b, 2), "a note stays with its error");
  diag.error(SourceRange::whole_file(a), "a");
  char buf[4096] = {};
  FILE* out = fmemopen(buf, sizeof buf, "w");
  diag.flush(out);
  std::fclose(out);
  std::string text = buf, order;
  for (size_t pos = text.find("error: "); pos != std::string::npos; pos = text.find("error: ", pos + 1))
    order += text.substr(pos + 7, text.find('\n', pos) - pos - 7) + " ";
  CHECK(order == "b1 b2 a a1 a3 nowhere ");
  CHECK(text.find("a.tile:1:1: error: a1\n1\n^\nb.tile:2:1: note: a note stays with its error\n") != std::string::npos);
}
