// C text helpers of the header generator.
#include <catch2/catch.hpp>

#include "codegen/header/c_text.h"

using namespace tilec;

TEST_CASE("identifiers, keywords and reserved names", "[header]") {
  CHECK(is_c_identifier("vector_add"));
  CHECK(is_c_identifier("_x1"));
  CHECK_FALSE(is_c_identifier("1x"));
  CHECK_FALSE(is_c_identifier("a-b"));
  CHECK_FALSE(is_c_identifier(""));
  for (const char* kw : {"int", "class", "new", "restrict", "_Bool", "bool", "and", "NULL", "co_await", "xor_eq"})
    CHECK(is_c_keyword(kw));
  for (const char* ok : {"vector_add", "Int", "news", "stream"}) CHECK_FALSE(is_c_keyword(ok));
  CHECK(is_reserved_identifier("_Foo"));
  CHECK(is_reserved_identifier("a__b"));
  CHECK_FALSE(is_reserved_identifier("_foo"));
}

TEST_CASE("string literals escape quotes, backslashes, trigraphs and bytes", "[header]") {
  CHECK(c_string_literal("a \"b\" c\\d") == "\"a \\\"b\\\" c\\\\d\"");
  CHECK(c_string_literal("?\?=") == "\"\\?\\?=\"");
  CHECK(c_string_literal(std::string("\n\x01\xff" "7", 4)) == "\"\\012\\001\\3777\"");
}

TEST_CASE("comment text cannot close the comment or form trigraphs", "[header]") {
  CHECK(comment_text("a */ b") == "a * / b");
  CHECK(comment_text("what?\?/") == "what? ?/");
  CHECK(comment_text("tab\there\nnext") == "tab here\nnext");
}

TEST_CASE("identifiers of a grid expression skip numbers", "[header]") {
  CHECK(c_identifiers("tilec_cdiv(n, 1024) * 0x1f + m2") ==
        std::vector<std::string>{"tilec_cdiv", "n", "m2"});
  CHECK(normalize_grid_expr("mylib_tilec_cdiv(n, 64) + tilec_max(a, b)") == "tilec_cdiv(n, 64) + tilec_max(a, b)");
  CHECK(normalize_grid_expr("x1 + 2") == "x1 + 2");
}

TEST_CASE("the image becomes little-endian 64-bit words", "[header]") {
  CHECK(image_word_count(0) == 1);
  CHECK(image_word_count(8) == 1);
  CHECK(image_word_count(9) == 2);
  CHECK(image_words("") == "  0,\n");
  CHECK(image_words(std::string("\x01\x02\x03\x04\x05\x06\x07\x08\xff", 9)) == "  0x807060504030201, 0xff,\n");
  std::string sixteen(16 * 8, '\0');
  CHECK(image_words(sixteen, 8) == "  0, 0, 0, 0, 0, 0, 0, 0,\n  0, 0, 0, 0, 0, 0, 0, 0,\n");
}
