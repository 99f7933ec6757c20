// Small pieces of C text for the header generator: identifiers, keywords, literals, comments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// True for `[A-Za-z_][A-Za-z0-9_]*`.
bool is_c_identifier(std::string_view s);

/// True for keywords of C (C99 to C23) and C++ (to C++20), the alternative operator spellings
/// (`and`, `bitor`, ...) and the macros a C header commonly sees as keywords (`bool`, `true`,
/// `false`, `NULL`).
bool is_c_keyword(std::string_view s);

/// True for names the C and C++ standards reserve: `_` plus an upper-case letter, or `__` anywhere.
bool is_reserved_identifier(std::string_view s);

/// True for functions with external linkage of the C17 standard library (Annex B; math.h's with
/// their f and l forms) and the POSIX functions programs commonly link (c_library.cpp).
bool is_c_library_function(std::string_view s);

/// True for macros of the C standard headers that are not keywords (`errno`, `assert`, `stdin`,
/// `EOF`, `offsetof`, ...): a parameter of that name breaks a unit that includes their header.
bool is_c_library_macro(std::string_view s);

/// A C string literal for `s`: quotes, `\\`, `\"`, `\?` (no trigraphs) and octal escapes for
/// bytes outside printable ASCII.
std::string c_string_literal(std::string_view s);

/// `s` made safe inside a `/* */` comment: `*/` and `??` (trigraphs) are broken apart and other
/// control characters become spaces; newlines are kept.
std::string comment_text(std::string_view s);

/// The identifiers of a C expression, in order, duplicates kept. Numbers (`0x1f`, `1e5`) are
/// skipped.
std::vector<std::string> c_identifiers(std::string_view expr);

/// The image as a list of little-endian 64-bit words for a `uint64_t` array initializer, hex
/// (`0x1f`, `0` for zero), `per_line` words a line, each line indented by two spaces; zero
/// padding fills the last word. About 2.3 characters per byte, and 8x fewer tokens than a byte
/// array, which is what keeps multi-megabyte headers compiling in about a second.
std::string image_words(std::string_view bytes, int per_line = 8);

/// Number of 64-bit words image_words() writes for `nbytes` bytes (at least 1).
size_t image_word_count(size_t nbytes);

}  // namespace tilec

namespace tilec {

/// The grid expression with every identifier that ends in a grid helper's name (`tilec_cdiv`,
/// `tilec_floordiv`, `tilec_min`, `tilec_max`) replaced by that bare name, so `mylib_tilec_cdiv`
/// written by a producer that added the --prefix becomes `tilec_cdiv` (kernel_abi.h AbiGrid).
std::string normalize_grid_expr(std::string_view expr);

}  // namespace tilec
