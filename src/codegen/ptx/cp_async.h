// The cp.async pipeline of a loop on the portable path (cp_async.cpp): the tiles of its async
// loads go from global to shared memory ahead of the mma.sync that reads them (mma_sync.h),
// in a ring of swizzled stages.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "codegen/ptx/context.h"

namespace tilec::codegen {

/// The swizzle of the 16-byte chunks of line `line` (a u32 register) of a stage whose lines
/// are `pitch` bytes: the XOR applied to the chunk's byte offset (layout.h swizzled_offset).
std::string smem_chunk_xor(PtxBuilder& b, const std::string& line, int64_t pitch);

class CpAsyncPipeline : FamilyEmitter {
 public:
  explicit CpAsyncPipeline(EmitContext& cx) : FamilyEmitter(cx) {}

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
    std::vector<bool> moves;                  ///< per dim: the index moves with the loop (affine_index)
    std::vector<int64_t> advance;             ///< per dim: elements the origin moves per iteration
    std::vector<std::string> rem;             ///< per dim, s64: extent - origin of the next tile
    /// load(offset=) (language.md §7.2.1): the origins are element offsets, and a tile may
    /// start below 0 along its line and last dims (those lines and chunks read zeros: the
    /// innermost offset is a multiple of 16 bytes, so a chunk is wholly below 0 or not).
    bool at_offsets = false;
    std::vector<std::string> extent;          ///< per dim, s64: the array's extent
    std::map<int64_t, std::string> line_step; ///< line difference → its byte offset (u64)
    std::string chunk_elems;                  ///< u32: elements of the line before `chunk`
  };
  /// One pipelined loop being emitted.
  struct State : EmitContext::LoopCounter {
    const Pipeline* p = nullptr;
    std::string base;             ///< u32: shared address of stage 0
    std::string read, write;      ///< u32: byte offsets of the stage read now and the next written
    std::vector<AsyncCopy> copies;
    State* outer_sync = nullptr;  ///< the late sync of the enclosing loop, while this body is emitted
  };

  /// Before the loop: the per-thread copy plan, and the first stages issued: `stages` of them
  /// with a late sync (then stage 0 waited for), else `stages - 1`.
  void prologue(const ir::Op& loop, const Pipeline& p, State& st);
  /// At the top of an iteration: the shared addresses of the stage read now (the context's
  /// async_base_). Without a late sync, first waits for this stage and issues the copies of the
  /// iteration `stages - 1` ahead into the stage the previous iteration read.
  void iteration(State& st);
  /// At the end of an iteration: the next stage to read.
  void advance(State& st);
  /// After the loop: no copy in flight, the stages free for other uses.
  void epilogue(State& st);
  /// Around the emission of the loop's body: while it is emitted, its Pipeline::sync_mma (if
  /// any) runs the late sync (late_sync_at); end_body restores the enclosing loop's.
  void begin_body(State& st);
  void end_body(State& st);
  /// Called by mma.sync `mma` once it has read all its fragments, before its last k step's
  /// instructions: the late sync when `mma` is the sync_mma of the loop being emitted, else
  /// nothing. The late sync waits for the next iteration's stage, bar.sync (it is visible,
  /// and every warp is done with the stage read now), then issues the copies of the iteration
  /// `stages` ahead into the stage just read. The barrier thus overlaps the last k step's
  /// tensor-core work instead of draining the pipe at the top of each iteration.
  void late_sync_at(const ir::Op& mma);

 private:
  void late_sync(State& st);
  /// The cp.async copies of one stage, when the issue predicate holds.
  void issue(State& st);
  /// issue, then the write offset moves to the next buffer round the ring.
  void issue_next(State& st);
  /// Copy j's source operand (`src` steps from the previous copy's) and destination operand.
  std::string copy_source(const AsyncCopy& c, size_t j, const std::string& src);
  std::string copy_dest(const AsyncCopy& c, size_t j, const std::string& wbase,
                        std::map<std::string, std::string>& dst_for);
  /// The copies of an edge tile: bounds per chunk, zero fill, partial chunks element-wise.
  void edge_copies(State& st, AsyncCopy& c);

  State* late_sync_ = nullptr;  ///< the pipeline whose sync_mma is being emitted, or null
};

}  // namespace tilec::codegen
