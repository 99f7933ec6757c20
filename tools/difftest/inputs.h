// Inputs of a differential test: the `# difftest:` header of a .tile file, deterministic random
// arguments for a kernel, and the binary files a GPU runner reads to repeat the same launch.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ir/interp/interp.h"

namespace tilec::difftest {

/// The settings of a file's `# difftest: NAME=VALUE ...` line: dimension extents and integer
/// scalar parameters by name (any kernel of the file), and `skip=REASON`.
struct Header {
  std::map<std::string, int64_t> values;
  std::string skip;
};

/// Reads the first `# difftest:` line of `text`; absent, every value is chosen by the seed.
Header parse_header(const std::string& text);

/// A random generator whose numbers are the same on every platform (std:: distributions are
/// not): splitmix64 over the seed.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next();
  /// Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }

 private:
  uint64_t state_;
};

/// How kernel `f` uses its array parameter `param`: `read` by a load, gather or atomic,
/// `written` by a store, scatter or atomic (anywhere in its body).
void array_access(const ir::Function& f, size_t param, bool& read, bool& written);

/// Arguments for kernel `f`: each dimension symbol's extent from `h` or random in [1, 48];
/// arrays filled with small exact values (integers in -4..4, 0..8 unsigned, 0/1 bool; floats
/// k/8 for k in -32..32, exact in every float dtype, so sums and products stay exact), except
/// arrays the kernel writes and never reads, which start as poison: every bit set (integers
/// -1 or their maximum, floats NaN; bool arrays random 0/1), so that an element the kernel
/// should write and a GPU run does not is seen; integer scalars from `h` or in 0..4, float
/// scalars k/8.
std::vector<interp::Arg> make_args(const ir::Function& f, const Header& h, Rng& rng);

/// Writes `dir/<kernel>.<what>.<param>.bin` for each array (little-endian elements of the
/// array's dtype, row-major) and, with `what` "in", `dir/<kernel>.json`: the grid, the
/// dimension symbols with their extents (in the order of the header's dense launch), the
/// parameters (arrays: dtype, extents, file, whether the kernel reads and writes them;
/// scalars: dtype and value), and `extra` (more `"key": value` members, or empty). False with
/// `error` when a file cannot be written.
bool write_arrays(const std::string& dir, const ir::Function& f, const std::vector<interp::Arg>& args,
                  const std::vector<int64_t>& grid, const std::string& what, std::string& error,
                  const std::string& extra = "");

/// Replaces the data of each array of `args` that kernel `f` reads by `dir/<kernel>.in.<param>.bin`
/// where that file exists (the format write_arrays writes), so that a caller can choose the
/// values (rows whose means differ, values far from 0). False with `error` when a file cannot
/// be read or its size is not the array's.
bool read_arrays(const std::string& dir, const ir::Function& f, std::vector<interp::Arg>& args, std::string& error);

}  // namespace tilec::difftest
