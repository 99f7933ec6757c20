// The Python constructs .tile lacks (frontend/python_forms.h): which words and forms are
// recognized, and which are left alone.
#include <catch2/catch.hpp>

#include "frontend/python_forms.h"

using namespace tilec;

TEST_CASE("Python's keywords that .tile lacks have a message; others do not", "[python_forms]") {
  for (const char* w : {"class", "lambda", "global", "nonlocal", "with", "try", "except", "finally", "raise",
                        "yield", "async", "await", "del", "from", "is"})
    CHECK(python_keyword_message(w) != nullptr);
  for (const char* w : {"def", "for", "import", "as", "match", "print", "lambda_", "Class", ""})
    CHECK(python_keyword_message(w) == nullptr);
  CHECK(std::string(python_keyword_message("with")).rfind("'with' is not part of the .tile language", 0) == 0);
  CHECK(python_statement_keyword("class"));
  CHECK(python_statement_keyword("del"));
  CHECK_FALSE(python_statement_keyword("lambda"));
  CHECK_FALSE(python_statement_keyword("is"));
  CHECK(python_try_clause("except"));
  CHECK(python_try_clause("finally"));
  CHECK_FALSE(python_try_clause("try"));
}

TEST_CASE("is_comprehension finds 'for' at the bracket's own level only", "[python_forms]") {
  CHECK(is_comprehension("[x for x in y]", 0));
  CHECK(is_comprehension("a = [x * 2 for x in range(3)]", 4));
  CHECK_FALSE(is_comprehension("[1, 2]", 0));
  CHECK_FALSE(is_comprehension("[f(x for x in y), 2]", 0));  // a generator inside: not this list's
  CHECK_FALSE(is_comprehension("[before, fork, for_]", 0));  // words that contain "for"
  CHECK_FALSE(is_comprehension("['for', \"for\"]", 0));      // strings
  CHECK_FALSE(is_comprehension("[1, 2] + [x for x in y]", 0));  // stops at its own ']'
  CHECK(is_comprehension("{k: v for k in d}", 0));
  CHECK(is_comprehension("[x  # comment ]\n for x in y]", 0));  // a comment's ']' does not close
  CHECK_FALSE(is_comprehension("[x", 0));                     // never closed: no 'for'
}

TEST_CASE("special floats in Python's spelling name the .tile one", "[python_forms]") {
  CHECK(python_special_float_message("-inf") ==
        "float('-inf') is not part of the .tile language; write -inf (inf and nan are predeclared constants)");
  CHECK(python_special_float_message("inf")->find("write inf ") != std::string::npos);
  CHECK(python_special_float_message("Infinity")->find("write inf ") != std::string::npos);
  CHECK(python_special_float_message("NaN")->find("write nan ") != std::string::npos);
  CHECK_FALSE(python_special_float_message("1.5"));
  CHECK_FALSE(python_special_float_message(""));
}

TEST_CASE("Python's names get a hint, or none instead of a misleading guess", "[python_forms]") {
  CHECK(python_name_hint("math")->find("sqrt(x)") != std::string::npos);
  CHECK(python_name_hint("len")->find("x.shape[axis]") != std::string::npos);
  CHECK(python_name_hint("sort") == std::string());  // not "did you mean 'sqrt'"
  CHECK_FALSE(python_name_hint("totl"));
  CHECK_FALSE(python_name_hint("load"));
}

TEST_CASE("string prefixes: f-strings point at print", "[python_forms]") {
  CHECK(string_prefix_message("f").rfind("f-strings are not part of the .tile language", 0) == 0);
  CHECK(string_prefix_message("rf").rfind("f-strings", 0) == 0);
  CHECK(string_prefix_message("b") == "string prefixes ('b') are not part of the .tile language; write a plain string");
}
