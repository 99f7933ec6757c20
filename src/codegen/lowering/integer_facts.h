// Facts about the integer values of one kernel variant: powers of two that divide them (what
// Triton gets by specializing on arguments divisible by 16, here from what the launch stub
// checks) and non-negativity.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

class IntegerFacts {
 public:
  /// Facts of kernel `k`. Divisors: constants always; in the vectorized variant also the
  /// dimension symbols that are the innermost extent of an array moved in vectors: the launch
  /// stub takes that variant only when extent × element size is a multiple of the array's
  /// vector_bytes (docs/header.md "Variants"), so such an extent is a multiple of
  /// vector_bytes / element size.
  IntegerFacts(const LoweredKernel& k, bool vectorized);
  /// Facts of the vectorized variant of `k` from the vector bytes `vector_bytes` of some of its
  /// arrays only (array_vector_bytes's form): access_vector_bytes uses the tile-index accesses'.
  IntegerFacts(const LoweredKernel& k, const std::map<const ir::ArrayParam*, int>& vector_bytes);

  /// The largest power of two, at most 2^30, known to divide every element of the integer
  /// value `v` (a scalar or a tile); 1 when nothing is known. Follows constants, dimension
  /// symbols, a for loop's induction variable (its lower bound's and step's), integer casts,
  /// splats and reshapes, + - % min max | ^ (the smaller divisor), * (the product), & (the larger:
  /// `x & -16`), << (times 2^c; any count keeps x's), >> and // by a constant 2^c (divided
  /// by 2^c), and the align-down x - x % c for a constant c > 0 (also c's).
  int64_t divisor(const ir::Value* v) const;

  /// Whether the integer value `v` is known to be >= 0: a constant >= 0, a block index, a
  /// dimension extent, an unsigned value, a widening integer cast of one, -x of a value known
  /// to be <= 0, x // c of a known sign for a constant c > 0 (so cdiv(n, c) = -((-n) // c)),
  /// x % c, min of two and max with one.
  bool nonneg(const ir::Value* v) const;

  /// Whether the integer value `v` is known to be in [0, 2^32): an unsigned value of at most 32
  /// bits, a signed one known >= 0, or a widening cast of one of those.
  bool fits_u32(const ir::Value* v) const;

  /// Whether the integer value `v` is known to be < the extent of dimension symbol `symbol`:
  /// `v` is bid(a) (or a widening cast of it) and the kernel's grid along axis a is that
  /// symbol itself (`grid=(M,)`), so the launch has exactly one CTA per index.
  bool below_extent(const ir::Value* v, const std::string& symbol) const;

 private:
  int64_t divisor(const ir::Value* v, int depth) const;
  /// nonneg (`want_nonneg`) or known to be in [-(2^(bits-1) - 1), 0] (else).
  bool sign_known(const ir::Value* v, bool want_nonneg, int depth) const;

  const LoweredKernel& k_;
  std::map<std::string, int64_t> dims_;  ///< dimension symbol → divisor
};

}  // namespace tilec::codegen
