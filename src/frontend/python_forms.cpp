// The messages of python_forms.h: one table row per Python keyword .tile lacks, and the
// alternatives each message names (docs/language.md §2.4 lists the same words).
#include "frontend/python_forms.h"

#include <cctype>

namespace tilec {
namespace {

struct PythonKeyword {
  const char* word;
  bool statement;  // starts a statement (class, with, ...) rather than sitting in an expression
  const char* message;
};

// The try family shares one message: the error is at whichever clause did not parse first.
#define TILEC_NO_EXCEPTIONS(word)                                                                  \
  "'" word "' is not part of the .tile language: there are no exceptions; check a condition with " \
  "assert cond, \"message\" (on the device) or static_assert(cond, \"message\") (at compile time)"

constexpr PythonKeyword kKeywords[] = {
    {"async", true,
     "'async' is not part of the .tile language; write 'def': a kernel launch is already asynchronous "
     "on the stream given to the header's launch function"},
    {"await", false,
     "'await' is not part of the .tile language; a kernel launch is asynchronous on its stream: "
     "synchronize on the host"},
    {"class", true,
     "'class' is not part of the .tile language; use module constants and helper functions (a 'def' "
     "without @kernel)"},
    {"del", true,
     "'del' is not part of the .tile language; a name lives until its function returns: assign it a "
     "new value or stop using it"},
    {"except", true, TILEC_NO_EXCEPTIONS("except")},
    {"finally", true, TILEC_NO_EXCEPTIONS("finally")},
    {"from", true,
     "'from ... import' is not part of the .tile language; write 'import m': m's names are then "
     "visible unqualified and as m.name"},
    {"global", true,
     "'global' is not part of the .tile language; module constants cannot be assigned: pass values "
     "to a helper and return the results"},
    {"is", false, "'is' is not part of the .tile language; compare with == or !="},
    {"lambda", false,
     "'lambda' is not part of the .tile language; define a helper function with 'def' (helpers are "
     "inlined at each call)"},
    {"nonlocal", true,
     "'nonlocal' is not part of the .tile language; a helper cannot assign its caller's names: "
     "return the new value"},
    {"raise", true,
     "'raise' is not part of the .tile language: there are no exceptions; fail with "
     "assert cond, \"message\" (on the device) or static_assert(cond, \"message\") (at compile time)"},
    {"try", true, TILEC_NO_EXCEPTIONS("try")},
    {"with", true,
     "'with' is not part of the .tile language: there are no context managers; write the block's "
     "statements without it"},
    {"yield", false,
     "'yield' is not part of the .tile language: there are no generators; return a value (or a tuple) "
     "from a helper, or loop with for i in range(...)"},
};

#undef TILEC_NO_EXCEPTIONS

const PythonKeyword* find_keyword(std::string_view word) {
  for (const PythonKeyword& k : kKeywords)
    if (word == k.word) return &k;
  return nullptr;
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

const char* python_keyword_message(std::string_view word) {
  const PythonKeyword* k = find_keyword(word);
  return k ? k->message : nullptr;
}

bool python_statement_keyword(std::string_view word) {
  const PythonKeyword* k = find_keyword(word);
  return k && k->statement;
}

bool python_try_clause(std::string_view word) { return word == "except" || word == "finally"; }

std::string list_message(ListForm form) {
  switch (form) {
    case ListForm::Comprehension:
      return "list comprehensions are not part of the .tile language; compute on a whole tile "
             "(arange(n) * 2, where(c, a, b)), or loop with for i in range(...)";
    case ListForm::ForIterable:
      return "list literals are not part of the .tile language; a 'for' loop iterates over range(...): "
             "loop over indices with for i in range(n), or write the body once per value";
    case ListForm::Literal:
      break;
  }
  return "list literals are not part of the .tile language; use a tuple (1, 2), or a tile: arange(n), "
         "full(shape, value, dtype)";
}

bool is_comprehension(std::string_view text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' || c == '\'') {  // a string: skip to its closing quote (or the line's end)
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      continue;
    }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return false;
    }
    if (depth == 1 && text.compare(i, 3, "for") == 0 && !ident_char(text[i - 1]) &&
        (i + 3 == text.size() || !ident_char(text[i + 3])))
      return true;
    if (ident_char(c))  // the rest of a word: "before" must not match its "for"
      while (i + 1 < text.size() && ident_char(text[i + 1])) ++i;
  }
  return false;
}

std::string brace_message() {
  return "dict and set literals are not part of the .tile language; name each value as a module constant, "
         "or use a tuple";
}

std::string string_prefix_message(std::string_view prefix) {
  bool f = prefix.find_first_of("fF") != std::string_view::npos;
  if (f)
    return "f-strings are not part of the .tile language; print takes a C format and the values: "
           "print(\"x = %d\\n\", x)";
  return "string prefixes ('" + std::string(prefix) + "') are not part of the .tile language; write a plain string";
}

std::string import_list_message() {
  return "'import' takes one module; write one 'import' statement per module";
}

std::optional<std::string> python_name_hint(std::string_view name) {
  if (name == "math")
    return std::string("; the math functions are built-ins without a prefix: sqrt(x), exp(x), log(x), ...");
  if (name == "np" || name == "numpy" || name == "torch" || name == "tl" || name == "ct")
    return std::string("; the built-ins need no import and no prefix: load(...), sum(x), arange(n)");
  if (name == "float")
    return std::string("; the float dtypes are f16, bf16, f32 and f64: convert with x.astype(f32); "
                       "infinity is inf");
  if (name == "int")
    return std::string("; the integer dtypes are i8 ... i64 and u8 ... u64: convert with x.astype(i32)");
  if (name == "len") return std::string("; the extents of an array or tile x are x.shape[axis]");
  if (name == "sort" || name == "sorted" || name == "list" || name == "dict" || name == "set" ||
      name == "str" || name == "self")
    return std::string();  // no built-in of the kind; a near name would be a false lead
  return std::nullopt;
}

std::optional<std::string> python_special_float_message(std::string_view arg) {
  std::string v;
  for (char c : arg) v += char(std::tolower(static_cast<unsigned char>(c)));
  std::string spelling;
  if (v == "inf" || v == "+inf" || v == "infinity" || v == "+infinity") spelling = "inf";
  else if (v == "-inf" || v == "-infinity") spelling = "-inf";
  else if (v == "nan" || v == "+nan" || v == "-nan") spelling = "nan";
  else return std::nullopt;
  return "float('" + std::string(arg) + "') is not part of the .tile language; write " + spelling +
         " (inf and nan are predeclared constants)";
}

}  // namespace tilec
