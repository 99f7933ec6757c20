// Reductions along one tile dimension (reduce.cpp): in-thread, then warp shuffles, then
// across warps through shared memory.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "codegen/ptx/arith.h"
#include "codegen/ptx/context.h"

namespace tilec::codegen {

class ReduceEmitter : FamilyEmitter {
 public:
  ReduceEmitter(EmitContext& cx, ArithEmitter& arith) : FamilyEmitter(cx), arith_(arith) {}

  /// op.combine (sum, prod, max, min, argmax, argmin) of the operand along op.axis; the result
  /// is in the slice of the operand's layout, so every thread holds the results of its rows.
  void reduce(const ir::Op& op);

 private:
  /// Combines (a, ia) with (b, ib) into `out`/`iout` (indices only for argmax/argmin).
  void combine(ir::Combine c, DType d, std::string a, std::string ia, std::string b, std::string ib,
               std::string& out, std::string& iout);
  /// shfl.sync.bfly of register `v` of dtype `d` with lane mask `mask`.
  std::string shuffle_xor(const std::string& v, DType d, int64_t mask);
  /// Combines the (value, index) pairs of `level` (at least one, in increasing index order)
  /// pairwise, log2(n) deep; the combine rules do not depend on the order.
  std::pair<std::string, std::string> combine_tree(ir::Combine c, DType d,
                                                   std::vector<std::pair<std::string, std::string>> level);

  ArithEmitter& arith_;
};

}  // namespace tilec::codegen
