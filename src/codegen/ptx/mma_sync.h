// mma on tensor cores with mma.sync (mma_sync.cpp): operands in shared memory, from a cp.async
// stage (cp_async.h) or staged from registers, fragments by ldmatrix or ld.shared.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "codegen/ptx/context.h"
#include "codegen/ptx/cp_async.h"
#include "codegen/ptx/memory.h"

namespace tilec::codegen {

class MmaSyncEmitter : FamilyEmitter {
 public:
  MmaSyncEmitter(EmitContext& cx, CpAsyncPipeline& pipeline, MemoryEmitter& memory)
      : FamilyEmitter(cx), pipeline_(pipeline), memory_(memory) {}

  /// a @ b + acc with mma.sync: each operand from the stage its async load filled (vectorized
  /// variant) or staged row-major in the conversion buffer, straight from its load where it
  /// has a staged load (find_staged_loads); f8 needs sm_89.
  void mma(const ir::Op& op);
  /// The general variant: finds the mma operands that come straight from a tile load (through
  /// reshapes that drop leading unit dimensions and at most one 2-D transposition, a load with
  /// order=(1, 0)) which nothing else reads and which no op
  /// between the load and the mma can change (no store, scatter, atomic, print, assert or
  /// nested region between them in the same block). The mma loads such an operand itself, a
  /// 16-byte row piece at a time, each piece stored to shared memory before the next is loaded,
  /// so the operand never occupies registers whole: with a 128x256 f32 accumulator, whole 128x64
  /// and 64x256 f16 operands and their 64-bit element addresses took more than 255 registers
  /// and spilled (issue 20). Call once per entry, before the body.
  void find_staged_loads(const ir::Function& f);
  /// Whether `op` is a staged load, or a reshape of one, that the mma reading it emits (the
  /// dispatcher then skips it, after load_packed).
  bool emitted_by_mma(const ir::Op& op) const { return skipped_.count(&op) > 0; }
  /// For a staged load of 16-bit elements outside the block of the mma that reads it (a
  /// loop-invariant operand such as attention's Q): loads it here, packing its elements two to
  /// a 32-bit register, so that it holds half the registers while the loop runs (64 per thread
  /// for a 128x128 tile in 8 warps, one each, spilled); the mma stages it from those words
  /// each time it runs. Emits nothing for any other op.
  void load_packed(const ir::Op& load);
  /// The general variant's store of a tile in an mma accumulator layout that staged_store_bytes
  /// (lowering/staging.h) accepts: written to shared memory, read back 16 bytes of a row per
  /// thread and stored a piece at a time (mma_store.cpp).
  void store_accumulator(const ir::Op& store);
  /// Whether store_accumulator takes `store` (the general variant, plan_staged_stores).
  bool stores_accumulator(const ir::Op& store) const;
  /// Whether `store`, in the general variant, stores a tile in an mma accumulator layout of
  /// 128 or more registers per thread (through shared memory or, too large for it, straight).
  bool large_accumulator(const ir::Op& store) const;

 private:
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
  /// Fragment loads and mma.sync instructions for `op` with its operands in shared memory.
  void mma_compute(const ir::Op& op, const SmemOperand& a, const SmemOperand& b);
  /// One k step of f8 m16n8k32 mma.sync on fragments fa[rm] (4 registers each, type `ta`) and
  /// fb[rn] (2, type `tb`) into the accumulator `acc` (4 f32 per (rm, rn) piece, rn fastest),
  /// issued as f16 m16n8k16 pairs on fragments widened with cvt.rn.f16x2 (for targets without
  /// a native f8 mma.sync: Target::has_native_f8_mma_sync).
  void f8_mmas_as_f16(DType ta, DType tb, const std::vector<std::vector<std::string>>& fa,
                      const std::vector<std::vector<std::string>>& fb, const std::vector<std::string>& acc);
  /// Writes tile `v` (2-D, any layout) row-major into shared memory at `base` (u32 register)
  /// with `pitch` bytes per row.
  void stage_operand(const ir::Value* v, const std::string& base, int64_t pitch);
  /// The same for the tile that staged load `load` reads (its shape is the operand's, after
  /// leading unit dimensions), loaded and stored one piece at a time (load_in_groups).
  void stage_load(const ir::Op& load, const std::string& base, int64_t pitch);
  /// Where this thread's registers of a tile with layout `l` go in the staged operand: the u32
  /// shared address of its first element (row-major, `pitch` bytes per row, the last two
  /// dimensions of `l`), and the registers of each st.shared (16 bytes where its layout holds
  /// them contiguous along the row, else 1).
  struct StagePlan {
    std::string addr;
    std::string guard;  ///< predicate: this thread holds the first copy ("" = always)
    int e = 2;          ///< element bytes
    int64_t pitch = 0;
    int per_store = 1;  ///< registers per st.shared where contiguous
  };
  StagePlan stage_plan(const Layout& l, DType d, const std::string& base, int64_t pitch);
  /// The registers of one st.shared of stage_plan: per_store, halved until it divides the
  /// registers per thread.
  static int64_t store_group(const Layout& l, DType d);
  /// Stores the words of packed load `load` (load_packed) at their places, as stage_load would.
  void stage_packed(const ir::Op& load, const std::string& base, int64_t pitch);
  /// Stores registers `r` (registers first .. of layout `l`) at their places (stage_plan).
  void stage_registers(const Layout& l, const StagePlan& s, int64_t first, const std::vector<std::string>& r);
  /// ldmatrix lane addresses of this warp: line (l%8) + 8*bit + warp_line, chunk bit' +
  /// warp_chunk, with (bit, bit') = ((l/8)%2, l/16), or (l/16, (l/8)%2) when line_bit_high.
  LaneAddress lane_address(const SmemOperand& s, bool line_bit_high, const std::string& warp_line,
                           const std::string& warp_chunk);
  /// The ldmatrix operand `line_off` lines and `chunk_off` chunks from the lane's address.
  std::string lane_at(LaneAddress& a, int64_t line_off, int64_t chunk_off);
  /// `[addr]` of operand element (r + r_off, c + c_off), r and c u32 registers.
  std::string smem_element(const SmemOperand& s, const std::string& r, int64_t r_off, const std::string& c,
                           int64_t c_off);

  CpAsyncPipeline& pipeline_;  ///< whose late sync runs inside the loop's last mma
  MemoryEmitter& memory_;      ///< whose loads the staged operands come from
  /// The general variant's staged loads: operand value of an mma → its load (find_staged_loads),
  /// and the ops the dispatcher skips (the loads and the reshapes after them).
  struct StagedLoad {
    const ir::Op* load = nullptr;
    bool transposed = false;  ///< the operand is the load's tile transposed (a permute between)
    bool packed = false;      ///< loaded where it is, outside the mma's block (load_packed)
  };
  std::map<const ir::Value*, StagedLoad> staged_;
  /// Packed loads: the 32-bit words holding their elements two by two, in register order.
  std::map<const ir::Op*, std::vector<std::string>> packed_;
  std::set<const ir::Op*> skipped_;
};

}  // namespace tilec::codegen
