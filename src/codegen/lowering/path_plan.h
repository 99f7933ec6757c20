// What shared code asks of a kernel's code path after lowering (LoweredKernel::plan): the path
// keeps its decisions in a plan of its own (paths/<name>/plan.h) and answers through this
// interface, so the shared lowering, the launch ABI, --emit=tir-lowered and the emitter need
// not know its types. The portable path has no plan (LoweredKernel::plan is null): these are
// the questions where an arch-specific path differs from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/lowering/layout.h"
#include "ir/ir.h"

namespace tilec::ir {
class Users;
}

namespace tilec::codegen {

struct LoweredKernel;
struct Pipeline;
struct AsyncLoad;
class IntegerFacts;

class PathPlan {
 public:
  virtual ~PathPlan() = default;

  // ---- lowering
  /// While plan_pipelines plans pipeline `p` of `loop`: the path's own loads of the loop (the
  /// tiles loaded once before it), and the ones that miss the copy engine's alignment into
  /// k.unaligned_loads.
  virtual void plan_loop(LoweredKernel& k, const ir::Op& loop, Pipeline& p, const ir::Users& users,
                         const IntegerFacts& facts) = 0;
  /// Whether `mma` runs on the path's own tensor-core instruction.
  virtual bool own_mma(const LoweredKernel& k, const ir::Op& mma) const = 0;
  /// The register layout of the accumulator of an own mma.
  virtual Layout own_accumulator_layout(const LoweredKernel& k, const ir::Op& mma) const = 0;
  /// The layout operand a of `mma` must have in registers, or nullopt (staged or from shared
  /// memory, as on the portable path).
  virtual std::optional<Layout> register_a_layout(const LoweredKernel& k, const ir::Op& mma) const = 0;
  /// Bytes of dynamic shared memory the kernel launches with.
  virtual int64_t shared_bytes(const LoweredKernel& k) const = 0;

  // ---- launch
  /// Threads a CTA launches with, when `threads` hold the kernel's tile values.
  virtual int launch_threads(int threads) const = 0;
  /// Tensor maps the entry's parameters start with (kernel_abi.h AbiTensorMap).
  virtual int tensor_map_params(const LoweredKernel& k) const = 0;
  /// Whether the entry's parameters end with the logical grid (AbiPath::persistent).
  virtual bool persistent_grid() const = 0;
  /// Whether the entry moves registers between its warpgroups (setmaxnreg): ptxas must then
  /// keep the register count it gives one CTA per SM (no .maxnreg cap of the compiler's).
  virtual bool moves_registers() const = 0;

  // ---- --emit=tir-lowered (lowered_text.cpp)
  /// The comment lines that open the kernel's text: launch choices and the pipelines' plans.
  virtual std::string summary(const LoweredKernel& k) const = 0;
  /// The path's copies, waits and barriers printed as ops before and after `op`.
  virtual std::vector<std::string> notes_before(const LoweredKernel& k, const ir::Op& op,
                                                const ir::ValueName& name) const = 0;
  virtual std::vector<std::string> notes_after(const LoweredKernel& k, const ir::Op& op,
                                               const ir::ValueName& name) const = 0;
  /// The annotation of `op` for the path's own part in it (" {wgmma}"), or "".
  virtual std::string annotation(const LoweredKernel& k, const ir::Op& op) const = 0;
  /// The mmas that stay on the portable mma.sync, in program order, each with why (-Wwgmma).
  virtual std::vector<std::pair<const ir::Op*, std::string>> mmas_off_path(const LoweredKernel& k) const = 0;
};

}  // namespace tilec::codegen
