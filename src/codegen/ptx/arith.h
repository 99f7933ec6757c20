// Arithmetic and conversions on single registers (arith.cpp): what the elementwise ops do per
// element, and what reductions, scans, atomics and printf use to combine or convert values.
#pragma once

#include <string>

#include "codegen/ptx/context.h"
#include "codegen/ptx/math.h"

namespace tilec::codegen {

/// f16 or bf16: held in 16 bits, computed in f32.
bool is_half(DType d);
/// The bit-size type of a register class: b16, b32, b64 or pred.
std::string bits_type(RegClass c);

class ArithEmitter : FamilyEmitter {
 public:
  ArithEmitter(EmitContext& cx, MathEmitter& math) : FamilyEmitter(cx), math_(math) {}

  /// `k` (add, sub, mul, div, floordiv, mod, pow, and, or, xor, shl, shr, min, max) of
  /// registers `a` and `b` of dtype `d`, with Python's semantics (language.md §6.4-6.5); a
  /// fresh result register. Unsupported pairs are reported as errors.
  std::string binary_reg(ir::OpKind k, DType d, const std::string& a, const std::string& b);
  /// `k` (floordiv or mod) of register `a` of integer dtype `d`, whose value is in [0, 2^32), by
  /// the launch divisor `div` (lower.h LaunchDivisor): q = (t + ((a - t) >> shift1)) >> shift2
  /// with t = mulhi(a, magic) in 32 bits (Granlund & Montgomery, PLDI 1994, Fig. 4.1; the
  /// header's tilec_divisor_magic), and a - q * divisor for mod. Five instructions for the
  /// quotient, none of them a division; a fresh result register.
  std::string divide_at_launch(ir::OpKind k, DType d, const std::string& a, const EmitContext::DivisorRegs& div);
  /// Converts register `r` of dtype `from` to dtype `to` (language.md §6.8: round to nearest
  /// even, float → integer truncates and saturates with NaN → 0, → tf32 rounds ties away).
  std::string cast_reg(const std::string& r, DType from, DType to);
  /// The f32 value of register `r` of dtype `d` (`r` itself for f32 and tf32).
  std::string to_f32(const std::string& r, DType d);
  /// Rounds f32 register `r` to dtype `d` (`r` itself for f32).
  std::string from_f32(const std::string& r, DType d);
  /// Re-wraps a narrow integer held in 32 bits after arithmetic (i8, i16, u8, u16; others
  /// unchanged).
  void wrap_narrow(const std::string& r, DType d);

 private:
  /// The f32 value of an f8 register `r` of dtype `d` (one zero-extended byte); exact.
  std::string f8_to_f32(const std::string& r, DType d);
  /// f32 register `r` rounded to f8 dtype `d` (nearest even, saturating to the largest finite
  /// value, NaN stays NaN), as one zero-extended byte in a 32-bit register.
  std::string f32_to_f8(const std::string& r, DType d);
  /// binary_reg of f32 (or, with `f64`, f64) registers.
  std::string float_binary_f32(ir::OpKind k, const std::string& a, const std::string& b, bool f64);

  MathEmitter& math_;
};

}  // namespace tilec::codegen
