// Edit distance and the "did you mean" choice of basic/spelling.h.
#include <catch2/catch.hpp>

#include "basic/spelling.h"

using namespace tilec;

TEST_CASE("edit_distance counts insertions, deletions and substitutions", "[spelling]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("load", "load") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("lod", "load") == 1);     // insertion
  CHECK(edit_distance("loads", "load") == 1);   // deletion
  CHECK(edit_distance("lead", "load") == 1);    // substitution
  CHECK(edit_distance("laod", "load") == 2);    // a swap is two edits
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("sitting", "kitten") == 3);  // symmetric
  CHECK(edit_distance("Load", "load") == 1);    // case-sensitive
}

TEST_CASE("closest_name suggests only a likely typo", "[spelling]") {
  std::vector<std::string> names{"load", "store", "index", "i", "ab", "max", "min"};
  CHECK(closest_name("lod", names) == "load");
  CHECK(closest_name("indx", names) == "index");
  CHECK(closest_name("idnex", names) == "index");   // 2 edits for a 5-letter name
  CHECK(closest_name("stroe", names) == "store");
  CHECK(closest_name("sorted", names) == "");       // 3 edits from store
  CHECK(closest_name("mx", names) == "max");        // 1 edit for a short name
  CHECK(closest_name("mux", names) == "max");       // max and min are both 1 edit: byte order
  CHECK(closest_name("mxx", names) == "max");
  CHECK(closest_name("abcd", {"ab"}) == "ab");      // 2 edits for a 4-letter name
  CHECK(closest_name("abc", {"a"}) == "");          // 2 edits for a 3-letter name: too many
  CHECK(closest_name("x", names) == "");            // replacing the whole name is no typo
  CHECK(closest_name("j", names) == "");
  CHECK(closest_name("a", names) == "");            // one letter: even "ab" is no typo of it
  CHECK(closest_name("load", names) == "");         // the name itself is not a suggestion
  CHECK(closest_name("", names) == "");
  CHECK(closest_name("lod", {}) == "");
}

TEST_CASE("closest_name does not depend on the candidates' order", "[spelling]") {
  CHECK(closest_name("mun", {"min", "max", "mul"}) == "min");
  CHECK(closest_name("mun", {"mul", "max", "min"}) == "min");
}

TEST_CASE("did_you_mean ends a message", "[spelling]") {
  CHECK(did_you_mean("lod", {"load"}) == "; did you mean 'load'?");
  CHECK(did_you_mean("zzz", {"load"}) == "");
}
