// What a Python user writes that .tile lacks (docs/language.md §2.4, §10): the keywords of
// constructs the language does not have, list, dict and set literals, string prefixes, and the
// names of Python's built-ins and modules. Each gets one message that names the construct and
// says what to use instead; the parser and the checker both use them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// The error for `word`, one of Python's keywords that .tile does not have (`class`, `lambda`,
/// `global`, `nonlocal`, `with`, `try`, `except`, `finally`, `raise`, `yield`, `async`,
/// `await`, `del`, `from`, `is`): "'with' is not part of the .tile language; ...". nullptr for
/// any other word. These words stay ordinary identifiers (a parameter may be named `lambda`);
/// the parser uses the message where the construct does not parse, the checker where the word
/// is used as a name that is not defined (`raise` alone).
const char* python_keyword_message(std::string_view word);

/// True for the keywords of python_keyword_message that start a statement (`class`, `with`,
/// `try`, ...), as opposed to those inside an expression (`lambda`, `is`, `await`, `yield`).
bool python_statement_keyword(std::string_view word);

/// True for `except` and `finally`, the clauses of a `try` statement: after the error at the
/// `try`, its clauses are part of the same construct and get no error of their own.
bool python_try_clause(std::string_view word);

/// Where an unexpected '[' opens a list: the kind decides the message.
enum class ListForm {
  Literal,        ///< `[1, 2]`
  Comprehension,  ///< `[x * 2 for x in ...]`
  ForIterable,    ///< `for s in [...]`
};

/// The error for a list literal or comprehension (the language has tuples and tiles instead).
std::string list_message(ListForm form);

/// True when the bracketed text that starts at `text[open]` (a '[' or '{') holds the keyword
/// `for` at its own nesting level: a comprehension. Strings and comments are skipped; the scan
/// stops at the matching bracket or the end of the text.
bool is_comprehension(std::string_view text, size_t open);

/// The error for a '{': dict and set literals (and their comprehensions).
std::string brace_message();

/// The error for a string with a prefix (`f"x = {x}"`, `r"..."`, `b"..."`); `prefix` as written.
std::string string_prefix_message(std::string_view prefix);

/// The error for `import a, b`.
std::string import_list_message();

/// For an undefined name that a Python, NumPy or Triton user writes on purpose (`math`, `len`,
/// `float`, `sort`): the text that ends the "use of undefined name" message instead of a "did
/// you mean" guess ("" when no hint fits but a guess would mislead: `sort` is not a typo of
/// `sqrt`). nullopt for other names.
std::optional<std::string> python_name_hint(std::string_view name);

/// The error for `float('inf')`, `float('-inf')`, `float('nan')` (Python's spellings of the
/// special floats), given the string argument as written; nullopt for any other string.
std::optional<std::string> python_special_float_message(std::string_view arg);

}  // namespace tilec
