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
  CHECK(closest_name("abcd", {"ab"}) == "");        // 2 edits for a 4-letter name: too many
  CHECK(closest_name("abcd", {"abc"}) == "abc");    // 1 is fine
  CHECK(closest_name("abc", {"a"}) == "");          // 2 edits for a 3-letter name: too many
  CHECK(closest_name("x", names) == "");            // replacing the whole name is no typo
  CHECK(closest_name("j", names) == "");
  CHECK(closest_name("a", names) == "");            // one letter: even "ab" is no typo of it
  CHECK(closest_name("load", names) == "");         // the name itself is not a suggestion
  CHECK(closest_name("", names) == "");
  CHECK(closest_name("lod", {}) == "");
}

TEST_CASE("max_typo_edits grows with the name, slowly", "[spelling]") {
  CHECK(max_typo_edits(0) == 0);
  CHECK(max_typo_edits(1) == 0);
  CHECK(max_typo_edits(2) == 1);
  CHECK(max_typo_edits(4) == 1);
  CHECK(max_typo_edits(5) == 2);
  CHECK(max_typo_edits(30) == 2);
}

TEST_CASE("a 4-letter word is not corrected to an unrelated 3- or 4-letter one", "[spelling]") {
  // The fresh-user findings: 2 edits apart, each of them.
  CHECK(closest_name("math", {"cat", "max", "min"}) == "");
  CHECK(closest_name("totl", {"bool", "f32", "sum"}) == "");
  CHECK(closest_name("totl", {"bool", "total"}) == "total");  // one insertion away
  CHECK(closest_name("BLOK", {"BLOCK", "bool"}) == "BLOCK");
  CHECK(closest_name("twicee", {"twice"}) == "twice");
  CHECK(closest_name("num_wraps", {"num_warps"}) == "num_warps");  // a swap: 2 edits, 9 letters
}

TEST_CASE("a difference in case only is preferred to any other", "[spelling]") {
  CHECK(closest_name("true", {"True", "False", "tree"}) == "True");  // `tree` is 1 edit too
  CHECK(closest_name("none", {"None", "one"}) == "None");
  CHECK(closest_name("FALSE", {"False", "FALSY"}) == "False");
  CHECK(closest_name("block_size", {"BLOCK_SIZE"}) == "BLOCK_SIZE");  // beyond 2 edits, still a typo
  CHECK(closest_name("Tile", {"TILE", "tile"}) == "TILE");  // two candidates: byte order
  CHECK(closest_name("True", {"True"}) == "");              // the name itself is no suggestion
}

TEST_CASE("closest_name does not depend on the candidates' order", "[spelling]") {
  CHECK(closest_name("mun", {"min", "max", "mul"}) == "min");
  CHECK(closest_name("mun", {"mul", "max", "min"}) == "min");
}

TEST_CASE("did_you_mean ends a message", "[spelling]") {
  CHECK(did_you_mean("lod", {"load"}) == "; did you mean 'load'?");
  CHECK(did_you_mean("zzz", {"load"}) == "");
}
