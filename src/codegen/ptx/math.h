// f32 math functions on one register each (math.cpp): the functions of basic/math_functions.h
// (exp, log, tanh, erf, ...) and pow, accurate to a few ulp by default, PTX .approx
// instructions where approximations are allowed.
#pragma once

#include <string>
#include <vector>

#include "codegen/ptx/context.h"

namespace tilec::codegen {

class MathEmitter : FamilyEmitter {
 public:
  explicit MathEmitter(EmitContext& cx) : FamilyEmitter(cx) {}

  /// Math function `f` (basic/math_functions.h) of f32 register `x`, in a new f32 register;
  /// accurate to the bounds of docs/language.md §7.7 unless `approx`.
  std::string math_f32(MathFunction f, const std::string& x, bool approx);
  /// x ** y of f32 registers, with C's pow special cases (negative bases with integer
  /// exponents, y = 0, x = 1).
  std::string pow_f32(const std::string& x, const std::string& y, bool approx);

 private:
  std::string exp2_f32(const std::string& x, bool approx);
  std::string exp_f32(const std::string& x, bool approx);
  std::string log2_f32(const std::string& x, bool approx);
  std::string tanh_f32(const std::string& x, bool approx);
  std::string erf_f32(const std::string& x, bool approx);
  std::string sincos_f32(const std::string& x, bool cosine, bool approx);
  /// Horner's scheme with fma: coeffs[0] + x * (coeffs[1] + x * (...)).
  std::string poly(const std::string& x, const std::vector<double>& coeffs);
};

}  // namespace tilec::codegen
