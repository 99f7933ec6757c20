// The warning table, the -W flags, and the man page's WARNINGS section against the table.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "basic/diagnostics.h"
#include "basic/warnings.h"

using namespace tilec;

TEST_CASE("every warning has a distinct name and a summary", "[warnings]") {
  std::set<std::string> names;
  for (size_t i = 0; i < all_warnings().size(); ++i) {
    const WarningInfo& w = all_warnings()[i];
    CHECK(size_t(w.id) == i);
    CHECK(names.insert(w.name).second);
    CHECK(std::string(w.summary).size() > 10);
    CHECK(find_warning(w.name) == w.id);
    if (i > 0) CHECK(std::string(all_warnings()[i - 1].name) < w.name);  // alphabetical
  }
  CHECK_FALSE(find_warning("error"));
  CHECK_FALSE(find_warning("no-unused-value"));
}

TEST_CASE("-Wno-name, -Wname, -Werror and -Werror=name", "[warnings]") {
  WarningSettings s;
  std::string error;
  CHECK(s.enabled(Warning::UnusedValue));
  CHECK_FALSE(s.is_error(Warning::UnusedValue));
  CHECK(s.apply("-Wno-unused-value", error));
  CHECK_FALSE(s.enabled(Warning::UnusedValue));
  CHECK(s.enabled(Warning::UnreachableCode));
  CHECK(s.apply("--Wunused-value", error));  // the later flag wins; two dashes work too
  CHECK(s.enabled(Warning::UnusedValue));

  CHECK(s.apply("-Werror=grid-axis", error));
  CHECK(s.is_error(Warning::GridAxis));
  CHECK_FALSE(s.is_error(Warning::UnusedValue));
  CHECK(s.apply("-Wno-grid-axis", error));  // off, whatever it would be reported as
  CHECK_FALSE(s.enabled(Warning::GridAxis));
  CHECK(s.apply("-Werror=grid-axis", error));  // -Werror=name turns it back on
  CHECK(s.enabled(Warning::GridAxis));

  CHECK(s.apply("-Wno-error=spills", error));
  CHECK(s.apply("-Werror", error));
  CHECK(s.is_error(Warning::UnusedValue));
  CHECK_FALSE(s.is_error(Warning::Spills));  // exempt, although -Werror came later
  CHECK(s.apply("-Wno-error", error));
  CHECK_FALSE(s.is_error(Warning::UnusedValue));
  CHECK(s.is_error(Warning::GridAxis));  // its own -Werror=grid-axis stays
}

TEST_CASE("an unknown warning name is refused with the list of names", "[warnings]") {
  WarningSettings s;
  for (const char* flag : {"-Wunused", "-Wno-bogus", "-Werror=bogus", "-Werror=", "-W", "-Wno-", "-Wall"}) {
    std::string error;
    CHECK_FALSE(s.apply(flag, error));
    CHECK(error == "unknown warning option '" + std::string(flag) + "'; the warnings are: " + warning_names());
  }
  CHECK(warning_names().rfind("assert-always-fails, by-target, cluster, config, consumers, grid-axis, ", 0) == 0);
}

TEST_CASE("a named warning prints its flag; settings drop it or make it an error", "[warnings]") {
  SourceManager sm;
  uint32_t id = sm.add("k.tile", "x + 1\n");
  SourceRange r{id, {1, 1, 0}, {1, 6, 5}};
  {
    DiagnosticEngine diag(sm);
    Diagnostic& d = diag.warning(Warning::UnusedValue, r, "expression result unused");
    CHECK(diag.format(d) == "k.tile:1:1: warning: expression result unused [-Wunused-value]\nx + 1\n^~~~~\n");
    CHECK_FALSE(diag.has_errors());
  }
  {
    DiagnosticEngine diag(sm);
    WarningSettings s;
    std::string error;
    REQUIRE(s.apply("-Wno-unused-value", error));
    diag.set_warnings(s);
    Diagnostic& d = diag.warning(Warning::UnusedValue, r, "expression result unused");
    DiagnosticEngine::note(d, r, "a note of a dropped warning");
    CHECK(diag.diagnostics().empty());
  }
  {
    DiagnosticEngine diag(sm);
    WarningSettings s;
    std::string error;
    REQUIRE(s.apply("-Werror=unused-value", error));
    diag.set_warnings(s);
    Diagnostic& d = diag.warning(Warning::UnusedValue, r, "expression result unused");
    CHECK(diag.format(d) == "k.tile:1:1: error: expression result unused [-Werror,-Wunused-value]\nx + 1\n^~~~~\n");
    CHECK(diag.has_errors());
  }
}

namespace {

// The man page's spelling of plain text: '-' is written '\-'.
std::string roff(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

}  // namespace

TEST_CASE("man/tilec.1 lists every warning of the table, in order", "[warnings]") {
  std::ifstream in(TILEC_SOURCE_DIR "/man/tilec.1");
  REQUIRE(in);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  auto section = std::find(lines.begin(), lines.end(), ".SH WARNINGS");
  REQUIRE(section != lines.end());
  // Each entry: .TP, .B \-W<name>, the summary with a period, "On by default." or "Off ...".
  std::vector<std::string> listed;
  for (auto it = section + 1; it != lines.end() && it->rfind(".SH", 0) != 0; ++it) {
    if (*it != ".TP") continue;
    REQUIRE(lines.end() - it > 3);
    listed.push_back(it[1] + "\n" + it[2] + "\n" + it[3]);
  }
  std::vector<std::string> table;
  for (const WarningInfo& w : all_warnings())
    table.push_back(".B \\-W" + roff(w.name) + "\n" + roff(w.summary) + ".\n" +
                    (w.on_by_default ? "On by default." : "Off by default."));
  CHECK(listed == table);
}
