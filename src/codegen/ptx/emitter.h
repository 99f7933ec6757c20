// The PTX emitter: one lowered kernel variant → one `.entry`. Each tile value lives in the
// registers of the threads that hold its elements (codegen/layout.h); every op is emitted
// per register, unrolled. The op families live in their own files: kernel.cpp (entry,
// parameters, control flow, grid), elementwise.cpp (arithmetic, compare, casts, shape
// changes), math.cpp (transcendental functions), memory.cpp (load and store), gather.cpp
// (gather and scatter), atomic.cpp (atomics), scan.cpp (cumsum, cumprod), histogram.cpp,
// shape.cpp (cat, extract).
#pragma once

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "codegen/integer_facts.h"
#include "codegen/host_assert.h"
#include "codegen/lower.h"
#include "codegen/ptx/builder.h"
#include "codegen/target.h"
#include "basic/diagnostics.h"

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

/// The ld/st type of one element of a global array, shared by load/store (memory.cpp) and
/// gather/scatter (gather.cpp): the element's width in memory, and on load how it widens into
/// its reg_class register (PTX ISA §9.7.9.8: ld of a narrower type extends by the instruction
/// type): 8- and 16-bit integers sign- or zero-extended, f8 and bool bytes zero-extended (the
/// caller turns bool into a predicate).
std::string global_mem_type(DType d, bool store);

class Emitter {
 public:
  Emitter(const LoweredKernel& k, const EmitOptions& o, DiagnosticEngine& diag)
      : k_(k), o_(o), diag_(diag), facts_(k, o.vectorized) {
    for (const auto& [op, condition] : host_checked_asserts(*k.fn)) host_checked_.insert(op);
    ir::walk(k.fn->body, [&](ir::Op& op) {
      for (const ir::Value* v : op.operands) ++use_count_[v];
    });
  }

  /// The `.entry` named `name`, or "" after reporting an error.
  std::string entry(const std::string& name);
  /// The lowest PTX ISA version the emitted code needs (at least the target's).
  int ptx_version() const { return ptx_version_; }
  /// Module-scope declarations this entry needs: string constants, and whether it calls the
  /// device runtime's __assertfail or vprintf (declared once per module by emit_module).
  const std::string& globals() const { return globals_; }
  bool uses_assertfail() const { return uses_assertfail_; }
  bool uses_vprintf() const { return uses_vprintf_; }

  /// Address computation of one load or store (memory.cpp).
  struct Access;

 private:
  // ---- kernel.cpp
  void params();
  void prologue();
  void block(const ir::Block& b);
  void op(const ir::Op& op);
  void emit_for(const ir::Op& op);
  void emit_if(const ir::Op& op);
  void emit_while(const ir::Op& op);
  /// break/continue: the carried registers take the operands, then jump.
  void emit_leave(const ir::Op& op);
  /// Parallel copy of `src` values into the registers of `dst` values.
  void move_values(const std::vector<const ir::Value*>& dst, const std::vector<ir::Value*>& src);
  void grid_op(const ir::Op& op);

  // ---- elementwise.cpp
  void constant(const ir::Op& op);
  void unary(const ir::Op& op);
  void binary(const ir::Op& op);
  void compare(const ir::Op& op);
  /// Run length G > 1 when compare `op` is the same for each aligned run of G elements a
  /// thread holds (`iota + c < s` or `>=`, c and s multiples of G), else 1.
  int64_t uniform_run(const ir::Op& op) const;
  /// For x = an iota (widened or not) plus offsets c1, c2, ..., every value in layout `l`: the
  /// largest power of two known to divide all the offsets (2^30 when there is none); 0 when x
  /// is not of that form.
  int64_t iota_offset_divisor(const ir::Value* x, const Layout& l) const;
  void select(const ir::Op& op);
  void fma(const ir::Op& op);
  void cast(const ir::Op& op);
  void bitcast(const ir::Op& op);
  void iota(const ir::Op& op);
  void convert_layout(const ir::Op& op);  // Splat, Broadcast, Reshape
  /// Converts one register `r` of dtype `from` to dtype `to` (§6.8 semantics).
  std::string cast_reg(const std::string& r, DType from, DType to);
  std::string to_f32(const std::string& r, DType d);
  std::string from_f32(const std::string& r, DType d);
  /// Re-wraps a narrow integer held in 32 bits after arithmetic (i8/i16/u8/u16).
  void wrap_narrow(const std::string& r, DType d);
  std::string binary_reg(ir::OpKind k, DType d, const std::string& a, const std::string& b);
  std::string float_binary_f32(ir::OpKind k, const std::string& a, const std::string& b, bool f64);

  // ---- reduce.cpp
  void reduce(const ir::Op& op);
  /// Combines (a, ia) with (b, ib) into `out`/`iout` (indices only for argmax/argmin).
  void combine(ir::Combine c, DType d, std::string a, std::string ia, std::string b, std::string ib,
               std::string& out, std::string& iout);
  std::string shuffle_xor(const std::string& v, DType d, int64_t mask);
  /// Combines the (value, index) pairs of `level` (at least one, in increasing index order)
  /// pairwise, log2(n) deep; the combine rules do not depend on the order.
  std::pair<std::string, std::string> combine_tree(ir::Combine c, DType d,
                                                   std::vector<std::pair<std::string, std::string>> level);

  // ---- gather.cpp
  /// Per register of an element-index op (gather, scatter, atomic): the u64 global address
  /// base + sum(index_d * stride_bytes_d) computed in 64 bits, and the predicate "every index
  /// is in [0, extent) and the mask holds" ("" when nothing can fail).
  struct ElementAccess {
    std::vector<std::string> addr, valid;
  };
  ElementAccess element_access(const ir::Op& op);
  /// Each element read on its own where valid, the padding elsewhere.
  void gather(const ir::Op& op);
  /// Each valid element written once (by the primary copy of a replicated element).
  void scatter(const ir::Op& op);

  // ---- atomic.cpp
  /// One relaxed GPU-scope read-modify-write per valid element: native atom/red, or a CAS
  /// loop (docs/language.md §7.2.5); diagnoses the dtype/operation pairs that have neither.
  void atomic(const ir::Op& op);
  /// Whether any op uses `v` (an atomic whose old values nobody reads becomes `red`).
  bool is_used(const ir::Value* v);

  // ---- scan.cpp
  /// Inclusive cumsum/cumprod along op.axis in the operand's (blocked or slice) layout.
  void scan(const ir::Op& op);
  /// `shfl.sync.<mode>` of a register of dtype `d` (16- and 64-bit values move as 32-bit
  /// words); `b` is the lane, delta or mask operand, `c` the clamp operand.
  std::string shuffle(const char* mode, const std::string& v, DType d, const std::string& b, const std::string& c);

  // ---- histogram.cpp
  /// The CTA's counts of each index in [0, nbins) (op.shape[0]) through shared memory.
  void histogram(const ir::Op& op);

  // ---- shape.cpp
  /// Both operands through shared memory, in the result's row-major order.
  void cat(const ir::Op& op);
  /// The operand through shared memory; the sub-tile read at its constant offset.
  void extract(const ir::Op& op);
  /// Writes the registers `v` (dtype `d`, layout `l`) to shared memory: the element with
  /// coordinates c goes to slot offset + sum(c[k] * strides[k]) (slots of 8 bytes for 64-bit
  /// dtypes, 4 otherwise). Only the primary copy of a replicated element is written.
  void smem_store(const std::vector<std::string>& v, const Layout& l, DType d, const std::vector<int64_t>& strides,
                  int64_t offset);
  /// Reads registers for layout `l` from the slots smem_store wrote (same slot formula).
  std::vector<std::string> smem_load(const Layout& l, DType d, const std::vector<int64_t>& strides, int64_t offset);

  // ---- debug.cpp
  void emit_assert(const ir::Op& op);
  void emit_print(const ir::Op& op);
  /// A generic address of a NUL-terminated string constant (a module-scope .global).
  std::string string_constant(const std::string& text);

  // ---- mma.cpp
  /// An mma operand (a: M x K, b: K x N elements) in shared memory, stored as lines of `pitch`
  /// bytes from `base` (a u32 register): element (r, c) is in line r at position c
  /// (`contiguous_dim` 1) or in line c at position r (0). Swizzled lines follow
  /// swizzled_offset (layout.h); the others are plain (padded) rows.
  struct SmemOperand {
    std::string base;
    int esz = 2;
    int contiguous_dim = 1;
    int64_t pitch = 0;
    bool swizzled = false;
  };
  struct LaneAddress;
  void mma(const ir::Op& op);
  /// Fragment loads and mma.sync instructions for `op` with its operands in shared memory.
  void mma_compute(const ir::Op& op, const SmemOperand& a, const SmemOperand& b);
  /// Writes tile `v` (2-D, any layout) row-major into shared memory at `base` (u32 register)
  /// with `pitch` bytes per row.
  void stage_operand(const ir::Value* v, const std::string& base, int64_t pitch);
  /// The swizzle's XOR for u32 register `line`, as a byte offset (swizzled_offset, layout.h).
  std::string smem_chunk_xor(const std::string& line, const SmemOperand& s);
  /// ldmatrix lane addresses of this warp: line (l%8) + 8*bit + warp_line, chunk bit' +
  /// warp_chunk, with (bit, bit') = ((l/8)%2, l/16), or (l/16, (l/8)%2) when line_bit_high.
  LaneAddress lane_address(const SmemOperand& s, bool line_bit_high, const std::string& warp_line,
                           const std::string& warp_chunk);
  /// The ldmatrix operand `line_off` lines and `chunk_off` chunks from the lane's address.
  std::string lane_at(LaneAddress& a, int64_t line_off, int64_t chunk_off);
  /// `[addr]` of operand element (r + r_off, c + c_off), r and c u32 registers.
  std::string smem_element(const SmemOperand& s, const std::string& r, int64_t r_off, const std::string& c,
                           int64_t c_off);

  // ---- pipeline.cpp
  /// One async load's copies, per thread: chunk j is line `line` + line_const[j], chunk
  /// `chunk` + chunk_const[j] of the tile (lines along load dim line_dim; positions along the
  /// last, contiguous dim).
  struct AsyncCopy {
    const AsyncLoad* al = nullptr;
    int line_dim = 0, last_dim = 0;
    std::string line, chunk;                  ///< u32
    std::vector<int64_t> line_const, chunk_const;
    std::string in_tile;                      ///< predicate for the last copy ("" = always)
    std::vector<std::pair<std::string, int64_t>> dst;  ///< per copy: swizzled offset register + immediate
    std::string tile;                         ///< u32: shared address of the tile in stage 0
    std::string ptr, delta;                   ///< u64: first chunk's address in the next tile; step per tile
    std::string fixed_ok;                     ///< predicate: the fixed dims' origins are in range ("" = always)
    std::string fixed_inside;                 ///< predicate: the fixed dims hold the whole tile ("" = always)
    std::vector<bool> moves;                  ///< per dim: the index is the induction variable
    std::vector<std::string> rem;             ///< per dim, s64: extent - origin of the next tile
    std::map<int64_t, std::string> line_step; ///< line difference → its byte offset (u64)
    std::string chunk_elems;                  ///< u32: elements of the line before `chunk`
  };
  /// What a pipeline's producer counts with: the loop's induction-variable dtype, its constant
  /// step and bound, and the induction variable of the next tile to issue (a register that
  /// starts at the loop's lower bound).
  struct LoopCounter {
    DType idx = DType::I32;
    int64_t step = 1;
    std::string upper, iv_issue;
    /// "s32", "u64", ...: the PTX type of comparisons and additions of the induction variable.
    const char* type() const;
  };
  LoopCounter loop_counter(const ir::Op& loop);
  struct PipelineState : LoopCounter {
    const Pipeline* p = nullptr;
    std::string base;             ///< u32: shared address of stage 0
    std::string read, write;      ///< u32: byte offsets of the stage read now and the next written
    std::vector<AsyncCopy> copies;
    /// The mma that ends the stage's reads (late_sync_mma), or null: the barrier then sits at
    /// the top of each iteration.
    const ir::Op* sync_mma = nullptr;
  };
  /// The last mma of a pipelined loop's body when it is the body's last reader of the stage
  /// and sits at the top level of the body (so every thread reaches it once per iteration);
  /// null otherwise.
  static const ir::Op* late_sync_mma(const ir::Op& loop, const LoweredKernel& k);
  /// Before the loop: the per-thread copy plan, and the first stages issued: `stages` of them
  /// with a late sync (then stage 0 waited for), else `stages - 1`.
  void pipeline_prologue(const ir::Op& loop, const Pipeline& p, PipelineState& st);
  /// At the top of an iteration: the shared addresses of the stage read now. Without a late
  /// sync, first waits for this stage and issues the copies of the iteration `stages - 1`
  /// ahead into the stage the previous iteration read.
  void pipeline_iteration(PipelineState& st);
  /// The late sync, inside sync_mma once it has read all its fragments (before its last k
  /// step's instructions): waits for the next iteration's stage, bar.sync (it is visible, and
  /// every warp is done with the stage read now), then issues the copies of the iteration
  /// `stages` ahead into the stage just read. The barrier thus overlaps the last k step's
  /// tensor-core work instead of draining the pipe at the top of each iteration.
  void pipeline_late_sync(PipelineState& st);
  /// At the end of an iteration: the next stage to read.
  void pipeline_advance(PipelineState& st);
  /// After the loop: no copy in flight, the stages free for other uses.
  void pipeline_epilogue(PipelineState& st);
  /// The cp.async copies of one stage, when the issue predicate holds.
  void pipeline_issue(PipelineState& st);
  /// pipeline_issue, then the write offset moves to the next buffer round the ring.
  void pipeline_issue_next(PipelineState& st);
  /// Copy j's source operand (`src` steps from the previous copy's) and destination operand.
  std::string copy_source(const AsyncCopy& c, size_t j, const std::string& src);
  std::string copy_dest(const AsyncCopy& c, size_t j, const std::string& wbase, std::map<std::string, std::string>& dst_for);
  /// The copies of an edge tile: bounds per chunk, zero fill, partial chunks element-wise.
  void edge_copies(PipelineState& st, AsyncCopy& c, const std::string& nonneg);

  // ---- tma.cpp: the TmaWgmma path's pipeline (lower.h CodePath; bench/hopper_proto/NOTES.md)
  /// One TMA pipeline: a ring of `stages` buffers, each with a full mbarrier (the TMA bytes
  /// landed) and an empty one (every warpgroup's wgmma read it). Thread 0 produces; the slot
  /// and phase registers count round the ring (a phase flips at each wrap).
  struct TmaState : LoopCounter {
    const Pipeline* p = nullptr;
    std::string base;              ///< u32: shared address of stage 0
    std::string full, empty;       ///< u32: shared addresses of full[0] and empty[0]
    std::string rslot, rphase;     ///< u32: the stage read now and its parity
    std::string wslot, wphase;     ///< u32: the stage written next and its parity
    std::string prev;              ///< u32: the stage the previous iteration read (stages: none)
    std::string leader;            ///< pred: thread 0, which issues the copies
    std::string wg_leader;         ///< pred: thread 0 of each warpgroup, which releases a stage
    /// Per TMA load, per array dimension: the u32 tile origin (index * extent) of the fixed
    /// dimensions ("" for the one that moves with the induction variable).
    std::vector<std::vector<std::string>> origin;
  };
  /// The stages' and mbarriers' shared addresses (st.base, full, empty) of pipeline `p`.
  void tma_setup(const Pipeline& p, TmaState& st);
  /// The calling thread initializes the mbarriers (full: 1 arrival, empty: one per compute
  /// warpgroup), fences them for the other threads and the copy engine, and prefetches the
  /// tensor maps; a CTA barrier must follow before any thread uses them.
  void tma_init_barriers(const TmaState& st);
  /// The tile origins of the TMA loads' fixed dimensions (st.origin), from their indices.
  void tma_origins(const ir::Op& loop, TmaState& st);
  /// Before the loop. Inline: the barriers, then the first stages issued. Specialized (a
  /// consumer): only the read counters; the producer set up everything else.
  void tma_prologue(const ir::Op& loop, const Pipeline& p, TmaState& st);
  /// A Specialized kernel's body (lower.h TmaSchedule): mbarriers, then the role branch. The
  /// producer warpgroup gives registers back, its thread 0 runs the producer ops and
  /// tma_produce, the others exit; the consumer warpgroups take registers and run the body.
  void specialized_body();
  /// The producer thread: every iteration of `loop`, each stage issued when the consumers
  /// have emptied it.
  void tma_produce(const ir::Op& loop, TmaState& st);
  /// Top of an iteration: wait until this stage's bytes landed; the operands' shared addresses.
  void tma_iteration(TmaState& st);
  /// End of an iteration: release the stage the previous one read (its wgmma group finished at
  /// this iteration's wait_group 1); thread 0 refills it with the tile `stages - 1` ahead.
  void tma_advance(TmaState& st);
  /// After the loop: every wgmma group finished, so the accumulators can be read.
  void tma_epilogue(TmaState& st);
  /// Thread 0 (the caller branches): wait for stage wslot to be empty, expect its bytes, issue
  /// the copies of iteration iv_issue into it, then move wslot and iv_issue on.
  void tma_issue(TmaState& st);
  /// Spins on mbarrier.try_wait.parity of the mbarrier at u32 shared address `bar`; with device
  /// asserts, traps after 2^22 failed tries (a deadlock becomes a launch error, not a hang).
  void mbarrier_wait(const std::string& bar, const std::string& parity);
  /// slot += 1 round a ring of `n`, flipping `phase` at the wrap.
  void ring_next(const std::string& slot, const std::string& phase, int n);

  // ---- wgmma.cpp
  /// An mma whose operands came by TMA (LoweredKernel::is_wgmma): wgmma.mma_async m64nNk16 per
  /// 16-deep k step with shared-memory descriptors, this warpgroup's 64 rows of the
  /// accumulator, then commit_group and wait_group 1.
  void wgmma(const ir::Op& op);
  /// `wgmma.wait_group n`, then, when n is 0 and the accumulators are read next, a fence that
  /// keeps ptxas from scheduling those reads above the wait: ptxas 13.0 hoisted the reads of a
  /// 128-register accumulator in the same basic block above WARPGROUP.DEPBAR (it tracked only
  /// the first register), and the last k steps went missing on the H200; tools/
  /// check_wgmma_sass.py checks the SASS for it.
  void wgmma_wait(int n);
  /// The 64-bit shared-memory matrix descriptor (PTX ISA §9.7.15.5.1.2) of a 128-byte-swizzled
  /// operand that starts at u32 shared address `addr`, with leading byte offset `lbo`.
  std::string wgmma_descriptor(const std::string& addr, int64_t lbo);

  // ---- math.cpp
  /// `k` (exp, log, tanh, ...) of f32 register `x`; accurate unless approximations are allowed.
  std::string math_f32(ir::OpKind k, const std::string& x, bool approx, const SourceRange& loc);
  std::string exp2_f32(const std::string& x, bool approx);
  std::string exp_f32(const std::string& x, bool approx);
  std::string log2_f32(const std::string& x, bool approx);
  std::string tanh_f32(const std::string& x, bool approx);
  std::string sincos_f32(const std::string& x, bool cosine, bool approx);
  std::string pow_f32(const std::string& x, const std::string& y, bool approx);
  std::string poly(const std::string& x, const std::vector<double>& coeffs);

  // ---- memory.cpp
  void load(const ir::Op& op);
  void store(const ir::Op& op);
  Access plan_access(const ir::Op& op, const ir::Value* array, const Layout& l, size_t first_index);

  // ---- helpers
  const std::vector<std::string>& regs(const ir::Value* v) const { return regs_.at(v); }
  std::vector<std::string>& define(const ir::Value* v);
  std::string imm(DType d, Scalar s) const;
  std::string f32_imm(float f) const;
  std::string u32(int64_t v) const { return std::to_string(v); }
  /// Thread coordinates of layout `l` (computed in the prologue).
  struct ThreadCoords {
    std::vector<std::string> base;  ///< per dim: (thread coord * size_per_thread) mod shape, u32
    std::string primary;            ///< predicate: this thread holds the first copy ("" = always)
  };
  const ThreadCoords& coords(const Layout& l);
  /// Predicate: this thread holds the first copy of its elements of tile `v` (thread 0 for a
  /// scalar, which every thread holds); "" when no other thread holds them.
  std::string primary_copy(const ir::Value* v);
  void error(const SourceRange& r, const std::string& msg);
  /// bar.sync of the threads that hold tile values: the CTA (barrier 0), or on a Specialized
  /// kernel, whose producer warpgroup has left, the consumers (barrier 1 with their count).
  void cta_barrier();
  void need_ptx(int version) { ptx_version_ = std::max(ptx_version_, version); }

  const LoweredKernel& k_;
  EmitOptions o_;
  DiagnosticEngine& diag_;
  IntegerFacts facts_;
  std::set<const ir::Op*> host_checked_;  ///< asserts the launch stub checks (host_assert.h)
  PtxBuilder b_;
  int ptx_version_ = 70;
  bool failed_ = false;
  SourceRange op_loc_;  ///< the op being lowered: where element-level errors point

  std::map<const ir::Value*, std::vector<std::string>> regs_;
  struct ArrayRegs {
    std::string base;                  ///< u64 address
    std::vector<std::string> stride_bytes;  ///< s64, in bytes, computed once at entry
    std::vector<int64_t> const_stride_bytes;  ///< the stride in bytes when known (vectorized innermost), else 0
    std::vector<std::string> extents;  ///< s64
  };
  std::map<const ir::ArrayParam*, ArrayRegs> arrays_;
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
  std::string tid_;        ///< u32: the thread's index among the compute threads (%tid.x, less
                           ///< the producer warpgroup's 128 on a Specialized kernel)
  std::string raw_tid_;    ///< u32 %tid.x
  /// Specialized: the ring's addresses, set up before the role branch.
  TmaState specialized_tma_;
  std::string param_text_;  ///< the entry's parameter list
  std::string smem_ = "tilec_smem";  ///< shared buffer for layout conversions
  /// Shared address (u32 register) of each async load's tile in the stage being read.
  std::map<const AsyncLoad*, std::string> async_base_;
  /// TmaWgmma: the generic address (u64 register) of each TMA load's tensor-map parameter.
  std::map<const AsyncLoad*, std::string> tensor_maps_;
  /// How many operands read each value (wgmma accumulates in place when it is the only reader).
  std::map<const ir::Value*, int> use_count_;
  PipelineState* late_sync_ = nullptr;  ///< the pipeline whose sync_mma is being emitted, or null
  std::string entry_name_;
  /// The enclosing loops: where break and continue jump, and the carried registers.
  struct Loop {
    std::string break_label, continue_label;
    std::vector<const ir::Value*> carried;  ///< body arguments holding the carried values
  };
  std::vector<Loop> loops_;
  std::string exit_label_;
  std::string globals_;       ///< module-scope declarations (string constants)
  std::string entry_decls_;   ///< entry-scope declarations (.local printf buffers)
  int strings_ = 0;
  std::set<const ir::Value*> used_;  ///< every operand of the kernel (is_used), filled on demand
  bool used_known_ = false;
  bool uses_assertfail_ = false, uses_vprintf_ = false;
};

}  // namespace tilec::codegen
