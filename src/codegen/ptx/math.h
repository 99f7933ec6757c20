// f32 math functions on one register each (math.cpp): exp, log, tanh, sin, cos, pow, ...,
// accurate to a few ulp by default, PTX .approx instructions where approximations are allowed.
#pragma once

#include <string>
#include <vector>

#include "codegen/ptx/context.h"

namespace tilec::codegen {

class MathEmitter : FamilyEmitter {
 public:
  explicit MathEmitter(EmitContext& cx) : FamilyEmitter(cx) {}

  /// `k` (exp, exp2, log, log2, sqrt, rsqrt, tanh, sin, cos, sigmoid) of f32 register `x`;
  /// accurate unless `approx`. Any other `k` is an internal compiler error reported at `loc`.
  std::string math_f32(ir::OpKind k, const std::string& x, bool approx, const SourceRange& loc);
  /// x ** y of f32 registers, with C's pow special cases (negative bases with integer
  /// exponents, y = 0, x = 1).
  std::string pow_f32(const std::string& x, const std::string& y, bool approx);

 private:
  std::string exp2_f32(const std::string& x, bool approx);
  std::string exp_f32(const std::string& x, bool approx);
  std::string log2_f32(const std::string& x, bool approx);
  std::string tanh_f32(const std::string& x, bool approx);
  std::string sincos_f32(const std::string& x, bool cosine, bool approx);
  /// Horner's scheme with fma: coeffs[0] + x * (coeffs[1] + x * (...)).
  std::string poly(const std::string& x, const std::vector<double>& coeffs);
};

}  // namespace tilec::codegen
