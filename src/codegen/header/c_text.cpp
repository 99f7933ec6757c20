// C text helpers for the header generator.
#include "codegen/header/c_text.h"

#include <algorithm>
#include <iterator>
#include <cstdint>

namespace tilec {
namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

// C99 §6.4.1, C11/C23 additions, C++20 [lex.key] and [lex.digraph] alternative tokens, plus the
// macros of <stdbool.h> and <stddef.h> that read like keywords. Sorted for binary search.
constexpr std::string_view kKeywords[] = {
    "NULL", "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool", "_Complex", "_Decimal128",
    "_Decimal32", "_Decimal64", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
    "_Thread_local", "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
    "bool", "break", "case", "catch", "char", "char16_t", "char32_t", "char8_t", "class",
    "co_await", "co_return", "co_yield", "compl", "concept", "const", "const_cast", "consteval",
    "constexpr", "constinit", "continue", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
    "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "register", "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "typeof",
    "typeof_unqual", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
    "while", "xor", "xor_eq",
};

}  // namespace

bool is_c_identifier(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  return std::all_of(s.begin(), s.end(), is_ident_char);
}

bool is_c_keyword(std::string_view s) {
  return std::binary_search(std::begin(kKeywords), std::end(kKeywords), s);
}

bool is_reserved_identifier(std::string_view s) {
  if (s.size() >= 2 && s[0] == '_' && s[1] >= 'A' && s[1] <= 'Z') return true;
  return s.find("__") != std::string_view::npos;
}

std::string c_string_literal(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += char(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      // Octal escapes take at most three digits, so a following digit cannot join them.
      const char digits[] = {char('0' + (c >> 6)), char('0' + ((c >> 3) & 7)), char('0' + (c & 7))};
      out += '\\';
      out.append(digits, 3);
    }
  }
  return out + "\"";
}

std::string comment_text(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '/' && !out.empty() && out.back() == '*') out += ' ';
    if (c == '?' && !out.empty() && out.back() == '?') out += ' ';
    if (c == '\n') {
      out += c;
    } else if ((unsigned char)c < 0x20 || c == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> c_identifiers(std::string_view expr) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < expr.size()) {
    char c = expr[i];
    if (c >= '0' && c <= '9') {  // a number, suffixes and hex digits included
      while (i < expr.size() && (is_ident_char(expr[i]) || expr[i] == '.')) ++i;
    } else if (is_ident_start(c)) {
      size_t start = i;
      while (i < expr.size() && is_ident_char(expr[i])) ++i;
      out.emplace_back(expr.substr(start, i - start));
    } else {
      ++i;
    }
  }
  return out;
}

size_t image_word_count(size_t nbytes) { return std::max<size_t>(1, (nbytes + 7) / 8); }

std::string image_words(std::string_view bytes, int per_line) {
  static const char kHex[] = "0123456789abcdef";
  size_t words = image_word_count(bytes.size());
  std::string out;
  out.reserve(words * 20);
  for (size_t w = 0; w < words; ++w) {
    uint64_t v = 0;
    for (size_t b = 0; b < 8 && w * 8 + b < bytes.size(); ++b)
      v |= uint64_t((unsigned char)bytes[w * 8 + b]) << (8 * b);  // little-endian
    out += w % size_t(per_line) == 0 ? "  " : " ";
    if (v == 0) {
      out += '0';
    } else {
      char buf[18];
      int n = 0;
      for (; v; v >>= 4) buf[n++] = kHex[v & 15];
      out += "0x";
      while (n) out += buf[--n];
    }
    out += ',';
    if (w % size_t(per_line) == size_t(per_line) - 1 || w + 1 == words) out += '\n';
  }
  return out;
}

}  // namespace tilec

namespace tilec {

std::string normalize_grid_expr(std::string_view expr) {
  static const std::string_view kHelpers[] = {"tilec_cdiv", "tilec_floordiv", "tilec_min",
                                              "tilec_max"};
  std::string out;
  size_t i = 0;
  while (i < expr.size()) {
    char c = expr[i];
    size_t start = i;
    if (c >= '0' && c <= '9') {
      while (i < expr.size() && (is_ident_char(expr[i]) || expr[i] == '.')) ++i;
    } else if (is_ident_start(c)) {
      while (i < expr.size() && is_ident_char(expr[i])) ++i;
      std::string_view id = expr.substr(start, i - start);
      for (std::string_view h : kHelpers) {
        if (id.size() >= h.size() && id.substr(id.size() - h.size()) == h) {
          out += h;
          start = i;
          break;
        }
      }
    } else {
      ++i;
    }
    out += expr.substr(start, i - start);
  }
  return out;
}

}  // namespace tilec
