// "Did you mean": edit distance and the nearest known name (spelling.h).
#include "basic/spelling.h"

#include <algorithm>
#include <cctype>

namespace tilec {

size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the dynamic-programming table at a time: row[j] is the distance between the
  // prefix of `a` read so far and the first j characters of `b`.
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];  // the distance for a[0, i-1) and b[0, j-1)
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// Two names that differ only in the case of letters: `true` and `True`, `block` and `BLOCK`.
bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

size_t max_typo_edits(size_t length) {
  // One edit in a short name already changes a third of it or more: `math` is 2 edits from
  // `cat`, `totl` from `bool`, and neither is a typo of them. Clang's typo correction allows
  // (length + 2) / 3 edits, which would take both; a 4-letter name gets 1 here.
  if (length <= 1) return 0;  // replacing the whole name is no typo (`x` for `i`)
  return length <= 4 ? 1 : 2;
}

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  // A difference in case only is the likeliest typo of all, however long the name.
  std::string best;
  for (const std::string& c : candidates)
    if (c != name && same_ignoring_case(name, c) && (best.empty() || c < best)) best = c;
  if (!best.empty()) return best;
  size_t limit = max_typo_edits(name.size());
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    size_t d = edit_distance(name, c);
    if (d == 0 || d > limit) continue;
    if (d < best_distance || (d == best_distance && c < best)) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best = closest_name(name, candidates);
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

}  // namespace tilec
