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

/// The candidate nearest to `name` when it is near enough to be a typo of it: at most 2 edits
/// away, or 1 for a name of 3 characters or fewer, and fewer edits than `name` has characters
/// (so that `x` does not suggest `i`). Among equally near candidates, the first in byte order,
/// so the answer does not depend on the candidates' order. "" when none is near enough, and
/// for a candidate equal to `name`.
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

/// "; did you mean 'load'?" for closest_name's answer, to end a message with; "" when none.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace tilec
