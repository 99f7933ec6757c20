// The emitter's shared context: what every op family reads and writes while one lowered
// kernel variant becomes one `.entry` — the PTX builder, the registers of each value, the
// thread coordinates of each layout, the registers of each array parameter, the target and
// options, and the diagnostics. Each op family keeps its own state in its own class
// (elementwise.h, reduce.h, mma_sync.h, cp_async.h, ...) and holds a reference to this one;
// the dispatcher (emitter.h) is a context that owns one object per family.
//
// Each tile value lives in the registers of the threads that hold its elements
// (codegen/lowering/layout.h); every op is emitted per register, unrolled.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "basic/diagnostics.h"
#include "codegen/lowering/integer_facts.h"
#include "codegen/lowering/lower.h"
#include "codegen/ptx/builder.h"
#include "codegen/target/target.h"

namespace tilec::codegen {

struct EmitOptions {
  Target target;
  /// The vectorized variant: every array base is 16-byte aligned, the innermost stride is 1
  /// and the other strides are multiples of 16 bytes (the launch stub checks this).
  bool vectorized = false;
  bool fast_math = false;   ///< hardware approximations for f32 math
  bool fmad = true;         ///< allow a*b+c to contract into fma
  bool lineinfo = false;    ///< .loc lines
  bool device_asserts = true;
  /// .maxnreg per entry name, where the driver asks for one (occupancy.h register_caps); a
  /// kernel's own max_registers or min_ctas_per_sm option wins.
  std::map<std::string, int> register_caps;
  const SourceManager* sm = nullptr;  ///< file names for device asserts
  /// Threads emit_module may use for its entries (each entry on one; 1: one after another).
  int threads = 1;
};

/// log2 of a power of two (tile extents, strides and element sizes are powers of two).
inline int log2_exact(int64_t v) {
  int s = 0;
  while ((int64_t(1) << s) < v) ++s;
  return s;
}

/// The register class a dtype lives in: bool → predicate, f16/bf16 → 16 bits, 64-bit dtypes →
/// 64 bits, every other dtype (narrow integers sign/zero-extended) → 32 bits.
RegClass reg_class(DType d);

/// The PTX immediate of `s` as dtype `d`: 0fXXXXXXXX for f32 and tf32, 0dXXXXXXXXXXXXXXXX for
/// f64, the 16 bits (0xXXXX) of f16 and bf16, a decimal integer otherwise (unsigned dtypes
/// masked to their 32 or 64 bits).
std::string imm(DType d, Scalar s);
/// The f32 immediate 0fXXXXXXXX of `f` (PTX ISA §4.5.2, hexadecimal floating point constants).
std::string f32_imm(float f);
/// An unsigned 32-bit immediate in decimal.
inline std::string u32(int64_t v) { return std::to_string(v); }
/// Row-major strides, in elements, of a tile of `shape`.
std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape);

class EmitContext {
 public:
  EmitContext(const LoweredKernel& k, const EmitOptions& o, DiagnosticEngine& diag);
  virtual ~EmitContext() = default;

  /// Emits one op, or the ops of a block in order (the dispatcher, emitter.h): what a family
  /// that runs ops of the kernel again, or a body of its own, calls.
  virtual void op(const ir::Op& op) = 0;
  virtual void block(const ir::Block& b) = 0;

  /// The registers of value `v`: one per element a thread holds in the value's layout (one
  /// for a scalar, which every thread holds).
  const std::vector<std::string>& regs(const ir::Value* v) const { return regs_.at(v); }
  /// Fresh registers for `v`, of its dtype's register class, one per element of its layout.
  std::vector<std::string>& define(const ir::Value* v);

  /// Thread coordinates of layout `l` (computed in the prologue).
  struct ThreadCoords {
    std::vector<std::string> base;  ///< per dim: (thread coord * size_per_thread) mod shape, u32
    std::string primary;            ///< predicate: this thread holds the first copy ("" = always)
  };
  /// The thread coordinates of layout `l`, emitted once per layout (the first call emits them,
  /// so the prologue calls this for every layout in program order).
  const ThreadCoords& coords(const Layout& l);
  /// Predicate: this thread holds the first copy of its elements of tile `v` (thread 0 for a
  /// scalar, which every thread holds); "" when no other thread holds them.
  std::string primary_copy(const ir::Value* v);
  /// While one is alive, coords() computes the coordinates of each layout again, where it is
  /// first asked for them, instead of reusing the prologue's registers: after a loop that
  /// needs every register, recomputing a few from %tid is cheaper than holding them across it
  /// (the general variant's epilogue, issue 20). The code in its scope must ask for the
  /// coordinates it uses before any branch.
  class FreshCoords;

  /// Reports `msg` at `r`, or at the op being lowered when `r` is unknown; only the first
  /// error of an entry is reported, and the entry then fails.
  void error(const SourceRange& r, const std::string& msg);
  /// Reports that `what` ("mma on f8", "astype to or from f8") needs sm_89 or newer,
  /// naming this code's arch and the -arch that gives it.
  void error_needs_sm89(const SourceRange& r, const std::string& what);
  bool failed() const { return failed_; }
  /// The code needs PTX ISA `version` (times 10: 80 is 8.0) or newer.
  void need_ptx(int version) { ptx_version_ = std::max(ptx_version_, version); }
  /// The lowest PTX ISA version the emitted code needs (at least the target's).
  int ptx_version() const { return ptx_version_; }
  /// Whether any op of the kernel reads `v` (an atomic whose old values nobody reads becomes
  /// `red`).
  bool is_used(const ir::Value* v) const {
    auto it = use_count_.find(v);
    return it != use_count_.end() && it->second > 0;
  }

  /// What a pipeline's producer counts with (cp_async.cpp and the tma_wgmma path's TmaRing): the loop's
  /// induction-variable dtype, its constant step and bound, and the induction variable of the
  /// next tile to issue (a register that starts at the loop's lower bound).
  struct LoopCounter {
    DType idx = DType::I32;
    int64_t step = 1;
    std::string upper, iv_issue;
    /// "s32", "u64", ...: the PTX type of comparisons and additions of the induction variable.
    std::string type() const { return ptx_arith_type(idx); }
  };
  /// The counter of pipelined `for` loop `loop` (its step is a constant), with iv_issue set to
  /// the lower bound.
  LoopCounter loop_counter(const ir::Op& loop);

  const LoweredKernel& k_;
  EmitOptions o_;
  PtxBuilder b_;
  IntegerFacts facts_;
  /// The vectorized variant: each tile load's and store's vector bytes (the lowering's,
  /// LoweredKernel::vector_bytes); empty in the general variant.
  const std::map<const ir::Op*, int>& vector_bytes_;
  static inline const std::map<const ir::Op*, int> kNoVectors;
  /// The loads whose tiles are windows of earlier loads' tiles (LoweredKernel::windows).
  const std::map<const ir::Op*, WindowLoad>& windows_;
  std::string entry_name_;  ///< the `.entry` being emitted
  SourceRange op_loc_;      ///< the op being lowered: where element-level errors point
  std::map<const ir::Value*, std::vector<std::string>> regs_;
  /// An array parameter's registers, loaded at entry.
  struct ArrayRegs {
    std::string base;                  ///< u64 address
    std::vector<std::string> stride_bytes;  ///< s64, in bytes, computed once at entry
    std::vector<int64_t> const_stride_bytes;  ///< the stride in bytes when known (vectorized innermost), else 0
    std::vector<std::string> extents;  ///< s64
  };
  std::map<const ir::ArrayParam*, ArrayRegs> arrays_;
  /// A launch divisor's registers (LoweredKernel::launch_divisors), loaded at entry: the
  /// divisor (of its dtype) and its magic number and shifts (u32, tilec_divisor_magic).
  struct DivisorRegs {
    std::string value, magic, shift1, shift2;
  };
  std::vector<DivisorRegs> launch_divisors_;
  std::string tid_;        ///< u32: the thread's index among the compute threads (%tid.x, less
                           ///< the producer warpgroup's 128 on a Specialized kernel)
  std::string raw_tid_;    ///< u32 %tid.x
  /// bar.sync of the threads that hold tile values: the CTA (barrier 0), or as the path's
  /// prologue sets tile_barrier_ (a warp-specialized kernel's consumers, whose producer
  /// warpgroup has left: a named barrier with their count).
  void cta_barrier() { b_.ins("bar.sync", tile_barrier_); }
  std::vector<std::string> tile_barrier_{"0"};
  std::string exit_label_;  ///< the label before the entry's ret
  std::string smem_ = "tilec_smem";  ///< shared buffer for layout conversions
  /// Shared address (u32 register) of each async load's tile in the stage being read.
  std::map<const AsyncLoad*, std::string> async_base_;
  /// How many operands read each value (wgmma accumulates in place when it is the only reader).
  std::map<const ir::Value*, int> use_count_;
  /// acc = acc && p for predicate registers, "" meaning true (no instruction when either is "").
  void and_into(std::string& acc, const std::string& p);
  /// q = a / b (PTX div: truncating) of 64-bit integers `a`, `b` (registers or immediates;
  /// `is_signed`: s64, else u64) into register `q`. A 64-bit division is a subroutine of about 70
  /// instructions in SASS (ptxas 13.0), a 32-bit one about 20 inline: when both operands are
  /// below 2^31 (2^32 unsigned), which tile indices, extents and grid sizes nearly always are,
  /// one div.u32 gives the same quotient (LLVM's "bypass slow division" for NVPTX does the
  /// same). A branch per thread picks the path.
  void divide64(const std::string& q, const std::string& a, const std::string& b, bool is_signed);
  /// Whether integer // and % take divide64 and a - q b for the remainder (fast_division), or
  /// PTX div and rem as written: not in the portable path's kernels with mma, whose general
  /// variants sit at 255 registers (the other form tipped attention_lse D=128 and matmul_splitk
  /// BN=256 into spills on sm_90a).
  bool fast_division() const { return k_.path != CodePath::Portable || !has_mma_; }
  /// Whether the kernel has an mma op (its entries then sit near the register limit).
  bool has_mma() const { return has_mma_; }

 protected:
  bool failed_ = false;

 private:
  DiagnosticEngine& diag_;
  int ptx_version_ = 70;
  std::deque<std::pair<Layout, ThreadCoords>> coords_;  ///< a deque: references stay valid
  /// Thread coordinates per parent (blocked) layout, shared by its slices.
  struct ParentCoords {
    Layout layout;
    std::vector<std::string> base;       ///< per dim: (thread coord * spt) mod extent
    std::vector<std::string> unwrapped;  ///< per dim: the coordinate did not wrap ("" = always)
    std::vector<std::string> first;      ///< per dim: the thread coordinate is 0 ("" = always)
  };
  std::deque<ParentCoords> parents_;
  std::string zero_;  ///< a u32 register holding 0
  bool has_mma_ = false;
  /// zero_, emitted at the first call.
  const std::string& zero();
  /// The conjunction of `preds` (and_into, in order); "" when empty.
  std::string all_of(const std::vector<std::string>& preds);
};

class EmitContext::FreshCoords {
 public:
  explicit FreshCoords(EmitContext& cx) : cx_(cx) { swap(); }
  ~FreshCoords() { swap(); }
  FreshCoords(const FreshCoords&) = delete;
  FreshCoords& operator=(const FreshCoords&) = delete;

 private:
  void swap() {
    std::swap(coords_, cx_.coords_);  // deques: references into either stay valid
    std::swap(parents_, cx_.parents_);
  }
  EmitContext& cx_;
  std::deque<std::pair<Layout, ThreadCoords>> coords_;
  std::deque<ParentCoords> parents_;
};

/// The start of each op family's emitter: the shared context, and its PTX builder under the
/// name every family writes PTX with.
class FamilyEmitter {
 protected:
  using ThreadCoords = EmitContext::ThreadCoords;
  using ArrayRegs = EmitContext::ArrayRegs;

  explicit FamilyEmitter(EmitContext& cx) : cx_(cx), b_(cx.b_) {}
  EmitContext& cx_;
  PtxBuilder& b_;
};

}  // namespace tilec::codegen
