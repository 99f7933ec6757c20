// "Did you mean": edit distance and the nearest known name (spelling.h).
#include "basic/spelling.h"

#include <algorithm>

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

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  size_t limit = std::min<size_t>(name.size() <= 3 ? 1 : 2, name.empty() ? 0 : name.size() - 1);
  std::string best;
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
