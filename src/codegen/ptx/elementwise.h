// Elementwise ops, casts, iota, and the shape changes between layouts (splat, broadcast,
// reshape, permute, convert_layout) (elementwise.cpp).
#pragma once

#include "codegen/ptx/arith.h"
#include "codegen/ptx/context.h"
#include "codegen/ptx/math.h"

namespace tilec::codegen {

class ElementwiseEmitter : FamilyEmitter {
 public:
  ElementwiseEmitter(EmitContext& cx, ArithEmitter& arith, MathEmitter& math)
      : FamilyEmitter(cx), arith_(arith), math_(math) {}

  /// A scalar constant of op.dtype.
  void constant(const ir::Op& op);
  /// neg, not, abs, floor, ceil, isnan and the math functions, per register.
  void unary(const ir::Op& op);
  /// add .. max (ArithEmitter::binary_reg), per register.
  void binary(const ir::Op& op);
  /// cmp: a bool per element; a run of elements that must agree is compared once
  /// (uniform_run).
  void compare(const ir::Op& op);
  void select(const ir::Op& op);
  /// fma in f32 (f16, bf16, f32) or f64, rounded once.
  void fma(const ir::Op& op);
  /// astype (language.md §6.8), per register.
  void cast(const ir::Op& op);
  /// The same bits as op.dtype.
  void bitcast(const ir::Op& op);
  /// 0 .. n-1 from the thread coordinates.
  void iota(const ir::Op& op);
  /// splat, broadcast, reshape, permute and convert_layout: in registers when every thread
  /// already holds the elements it needs, else through the shared-memory conversion buffer.
  void convert_layout(const ir::Op& op);

 private:
  /// Run length G > 1 when compare `op` is the same for each aligned run of G elements a
  /// thread holds (`iota + c < s` or `>=`, c and s multiples of G), else 1.
  int64_t uniform_run(const ir::Op& op) const;
  /// For x = an iota (widened or not) plus offsets c1, c2, ..., every value in layout `l`: the
  /// largest power of two known to divide all the offsets (2^30 when there is none); 0 when x
  /// is not of that form.
  int64_t iota_offset_divisor(const ir::Value* x, const Layout& l) const;

  ArithEmitter& arith_;
  MathEmitter& math_;
};

}  // namespace tilec::codegen
