// "Did you mean": how far apart two names are, and which known name an unknown one is most
// likely a typo of, for the hints of diagnostics about unknown names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// The Levenshtein distance between `a` and `b`: the fewest one-character insertions,
/// deletions and substitutions that turn one into the other (a swap of two neighbours counts 2).
/// Case-sensitive, byte by byte; O(|a|·|b|) time, O(|b|) memory.
size_t edit_distance(std::string_view a, std::string_view b);

/// How many edits a typo of a name of `length` characters may have: 0 for one character (a
/// different one-letter name is no typo), 1 up to 4 characters (so a 4-letter word is not
/// "corrected" to an unrelated 3-letter one), 2 beyond.
size_t max_typo_edits(size_t length);

/// The candidate nearest to `name` when it is near enough to be a typo of it. A candidate that
/// differs from `name` only in the case of letters (`true` for `True`) wins outright; otherwise
/// at most max_typo_edits(|name|) edits. Among equally near candidates, the first in byte order,
/// so the answer does not depend on the candidates' order. "" when none is near enough, and for
/// a candidate equal to `name`.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

/// "; did you mean 'load'?" for closest_name's answer, to end a message with; "" when none.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace tilec
