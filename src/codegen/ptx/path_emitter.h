// An arch-specific code path's part of the emitter (path_table.h make_emitter): the Emitter
// (emitter.h) writes every entry alike and hands the path the points where it differs from the
// portable path: its entry parameters, its thread numbering, a body of its own (a role branch),
// its mma and stores, the grid registers, and its pipelined loops. The path's families live in
// its folder (src/codegen/paths/<name>/); the portable path has none (the Emitter's own
// families, mma_sync.h and cp_async.h, are it).
#pragma once

#include <string>
#include <vector>

#include "codegen/lowering/lower.h"

namespace tilec::codegen {

class PathEmitter {
 public:
  virtual ~PathEmitter() = default;

  /// The registers of the entry's parameters the path asked for (LoweredKernel::
  /// tensor_map_params, persistent_grid), as params() loads them: the u64 generic addresses of
  /// the tensor maps, in parameter order, and the logical grid's three u32 (empty without one).
  virtual void take_params(const std::vector<std::string>& maps, const std::vector<std::string>& grid) = 0;
  /// After %tid.x is read: the path's numbering of the threads that hold tile values (tid_), and
  /// the barrier they meet at (EmitContext::cta_barrier).
  virtual void prologue() = 0;
  /// Emits the kernel's body itself, or returns false for the dispatcher to emit it.
  virtual bool body() = 0;
  /// Emits mma `op` on the path's own instruction, or returns false (mma.sync then).
  virtual bool mma(const ir::Op& op) = 0;
  /// Emits store `op` the path's own way, or returns false.
  virtual bool store(const ir::Op& op) = 0;
  /// Sets register `r` to the value of grid op `op` (bid(), num_blocks()) where the path runs
  /// a grid of its own (a persistent grid's logical CTA), or returns false.
  virtual bool grid_op(const ir::Op& op, const std::string& r) = 0;
  /// Pipelined loop `loop` (its pipeline `p`): before the loop, at the top of each iteration
  /// (after the bound check), at its end (before the step) and after the loop.
  virtual void loop_prologue(const ir::Op& loop, const Pipeline& p) = 0;
  virtual void loop_iteration() = 0;
  virtual void loop_advance() = 0;
  virtual void loop_epilogue() = 0;
};

}  // namespace tilec::codegen
