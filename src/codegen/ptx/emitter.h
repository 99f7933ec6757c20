// The PTX emitter: one lowered kernel variant → one `.entry`. The Emitter is the shared
// context (context.h) plus the dispatcher: kernel.cpp writes the entry (parameters, the
// thread-coordinate prologue, structured control flow, grid registers) and hands each op to
// its family, one class and one file pair each:
//   elementwise.h  arithmetic, compare, casts, iota, layout changes   (arith.h, math.h: per register)
//   reduce.h       reductions                    scan.h       cumsum, cumprod
//   memory.h       tile load and store           gather.h     gather, scatter
//   atomic.h       atomics                       histogram.h  histogram
//   shape.h        cat, extract                  debug.h      device assert, printf
//   mma_sync.h     mma.sync                      cp_async.h   the cp.async pipeline of a loop
// An arch-specific code path adds its own families behind one PathEmitter (path_emitter.h),
// which the dispatcher asks at the points where the path differs (paths.h make_emitter; the
// tma_wgmma path's TMA ring, wgmma, TMA stores and clusters: src/codegen/paths/tma_wgmma/).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/lowering/lower.h"
#include "codegen/ptx/arith.h"
#include "codegen/ptx/atomic.h"
#include "codegen/ptx/context.h"
#include "codegen/ptx/cp_async.h"
#include "codegen/ptx/debug.h"
#include "codegen/ptx/elementwise.h"
#include "codegen/ptx/gather.h"
#include "codegen/ptx/histogram.h"
#include "codegen/ptx/math.h"
#include "codegen/ptx/memory.h"
#include "codegen/ptx/mma_sync.h"
#include "codegen/ptx/path_emitter.h"
#include "codegen/ptx/reduce.h"
#include "codegen/ptx/scan.h"
#include "codegen/ptx/shape.h"

namespace tilec::codegen {

class Emitter : public EmitContext {
 public:
  Emitter(const LoweredKernel& k, const EmitOptions& o, DiagnosticEngine& diag);

  /// The `.entry` named `name`, or "" after reporting an error.
  std::string entry(const std::string& name);
  /// Module-scope declarations this entry needs: string constants, and whether it calls the
  /// device runtime's __assertfail or vprintf (declared once per module by emit_module).
  const std::string& globals() const { return debug_.globals(); }
  bool uses_assertfail() const { return debug_.uses_assertfail(); }
  bool uses_vprintf() const { return debug_.uses_vprintf(); }

 private:
  // ---- kernel.cpp
  void params();
  void prologue();
  void block(const ir::Block& b) override;
  /// Emits one op: a switch over every op kind (no default: the library compiles with
  /// -Werror=switch, so a new op kind without a lowering does not build).
  void op(const ir::Op& op) override;
  /// Emits again, before `at`, the ops of `at`'s index operands (operands 2 on) that are cheap
  /// scalars defined before a loop in `at`'s block (constants, grid ids, scalar arithmetic on
  /// kernel arguments): their values get fresh registers, so that none is held across the loop.
  void recompute_scalars(const ir::Op& at);
  void emit_for(const ir::Op& op);
  void emit_if(const ir::Op& op);
  void emit_while(const ir::Op& op);
  /// break/continue: the carried registers take the operands, then jump.
  void emit_leave(const ir::Op& op);
  /// Parallel copy of `src` values into the registers of `dst` values.
  void move_values(const std::vector<const ir::Value*>& dst, const std::vector<ir::Value*>& src);
  void grid_op(const ir::Op& op);

  // ---- the op families, each with its own state; the later ones use the earlier ones
  MathEmitter math_{*this};
  ArithEmitter arith_{*this, math_};
  ElementwiseEmitter elementwise_{*this, arith_, math_};
  ReduceEmitter reduce_{*this, arith_};
  ScanEmitter scan_{*this, arith_};
  MemoryEmitter memory_{*this};
  GatherEmitter gather_{*this};
  ShapeEmitter shape_{*this};
  AtomicEmitter atomic_{*this, arith_, gather_, shape_};
  HistogramEmitter histogram_{*this, shape_};
  DebugEmitter debug_{*this, arith_};
  CpAsyncPipeline cp_async_{*this};
  MmaSyncEmitter mma_sync_{*this, cp_async_, memory_};

  /// The code path's own part (paths.h make_emitter), or null on the portable path.
  std::unique_ptr<PathEmitter> path_;
  std::string param_text_;  ///< the entry's parameter list
  /// The enclosing loops: where break and continue jump, and the carried registers.
  struct Loop {
    std::string break_label, continue_label;
    std::vector<const ir::Value*> carried;  ///< body arguments holding the carried values
  };
  std::vector<Loop> loops_;
};

}  // namespace tilec::codegen
