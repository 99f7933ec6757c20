// Register layouts: which thread of the CTA holds which elements of a tile.
//
// A blocked layout (Triton's BlockedEncoding) splits each dimension d into
//   size_per_thread[d] contiguous elements × threads_per_warp[d] lanes × warps_per_cta[d] warps,
// a "CTA tile"; a tile larger than the CTA tile repeats it, a smaller one wraps around (the
// extra threads hold copies). Lanes and warps are numbered with the last dimension fastest.
//
// A slice layout (Triton's SliceEncoding) is what a reduction leaves behind: the blocked
// "parent" of the reduced tile, with the reduced dimensions dropped, so every thread keeps the
// results for the rows it held and the threads along a dropped dimension hold copies. Its tile
// may also have unit dimensions that no parent dimension backs (keepdims, t[:, None]).
// Scalars (rank 0) are replicated: every thread holds the value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilec::codegen {

struct Layout {
  /// Blocked (with slices), or the accumulator layout of mma.sync (PTX ISA §9.7.13.4: the
  /// C/D fragments of m16n8kK and m8n8k4): `warps_m` × `warps_n` warps, each holding a
  /// (shape[0]/warps_m) × (shape[1]/warps_n) block made of inst_m × 8 instruction tiles; in
  /// each tile lane l holds rows l/4 (+8 when inst_m is 16) and columns 2*(l%4) + {0, 1}.
  /// Mma layouts have slices too (a row reduction of an accumulator keeps its rows where the
  /// fragments hold them: lane l keeps rows l/4 and l/4 + 8, and lanes 4i .. 4i+3 hold copies),
  /// described by `parent_shape` and `dims` as for blocked slices.
  enum class Kind { Blocked, Mma };
  Kind kind = Kind::Blocked;
  int inst_m = 16;
  int warps_m = 1, warps_n = 1;
  /// Mma: copies of the accumulator when the CTA has more warps than the tile has blocks of
  /// one instruction (warp w works as warp w % (warps_m * warps_n)).
  int mma_copies = 1;

  std::vector<int64_t> shape;         ///< the tile's shape
  // The blocked distribution, per PARENT dimension:
  std::vector<int> size_per_thread;
  std::vector<int> threads_per_warp;  ///< product 32
  std::vector<int> warps_per_cta;     ///< product num_warps
  /// The parent's shape; empty for a plain blocked layout (the parent is the tile).
  std::vector<int64_t> parent_shape;
  /// Per tile dimension: its parent dimension, or -1 for a unit dimension no parent dimension
  /// backs; empty for a plain blocked layout (identity). Parent dimensions not listed are sliced.
  std::vector<int> dims;

  int rank() const { return int(shape.size()); }
  int parent_rank() const { return kind == Kind::Mma ? 2 : int(size_per_thread.size()); }
  const std::vector<int64_t>& pshape() const { return parent_shape.empty() ? shape : parent_shape; }
  /// The parent dimension of tile dimension `d` (-1 for an unbacked unit dimension).
  int parent_dim(int d) const { return dims.empty() ? d : dims[size_t(d)]; }
  bool is_slice() const { return !dims.empty(); }
  /// Parent dimensions dropped by a reduction (threads along them hold copies).
  std::vector<int> sliced_dims() const;

  /// Elements of one CTA tile along parent dimension `p`.
  int64_t parent_cta_tile(int p) const;
  /// Elements of one CTA tile along tile dimension `d` (1 for unbacked unit dimensions).
  int64_t cta_tile(int d) const;
  /// Repetitions of the CTA tile along tile dimension `d` (1 when the tile is smaller and wraps).
  int64_t reps(int d) const;
  /// Contiguous elements per thread along tile dimension `d` (1 for unbacked unit dimensions).
  int spt(int d) const;
  /// Registers each thread holds (product over tile dims of reps × size_per_thread).
  int64_t regs_per_thread() const;
  /// Decomposes register number `r` into per-tile-dimension offsets: the compile-time part of
  /// the element coordinate, rep*cta_tile + e (before wrap-around).
  std::vector<int64_t> reg_offset(int64_t r) const;
  /// The register holding the element with compile-time offsets `off` (inverse of reg_offset).
  int64_t reg_of(const std::vector<int64_t>& off) const;
  /// Along parent dimension `p`: the lanes of a warp that hold different coordinates, the lane
  /// number's stride between them, and the same for the warps of the CTA (a reduction along p
  /// shuffles lanes with xor masks lane_stride * 1, 2, 4, ... and meets the warps in shared
  /// memory; powers of two).
  int lanes_along(int p) const;
  int lane_stride(int p) const;
  int warps_along(int p) const;
  int warp_stride(int p) const;
  /// The thread's coordinate along parent dimension `p` before wrap-around: lane part + warp part.
  int64_t thread_coord(int thread, int p) const;
  /// The coordinates of register `reg` of thread `thread` (wrapped modulo the shape).
  std::vector<int64_t> coords(int thread, int64_t reg) const;
  /// Adds thread `thread`'s part of every coordinate to `c` (one entry per tile dimension):
  /// coords(thread, reg) is reg_offset(reg) plus this.
  void add_thread_base(int thread, std::vector<int64_t>& c) const;
  /// True when some threads hold copies of other threads' elements.
  bool replicated() const;
  bool operator==(const Layout& o) const {
    return kind == o.kind && inst_m == o.inst_m && warps_m == o.warps_m && warps_n == o.warps_n &&
           mma_copies == o.mma_copies && shape == o.shape &&
           size_per_thread == o.size_per_thread && threads_per_warp == o.threads_per_warp &&
           warps_per_cta == o.warps_per_cta && pshape() == o.pshape() && dims_or_identity() == o.dims_or_identity();
  }
  bool operator!=(const Layout& o) const { return !(*this == o); }
  /// "blocked<spt=[1,4] tpw=[1,32] wpc=[4,1]>", or "slice<blocked<...>, dims=[0]>" for slices.
  std::string str() const;

  /// The blocked layout of the parent alone (the tile before it was reduced).
  Layout parent() const;
  /// This layout with tile dimension `d` (a parent dimension) dropped: a reduction's result.
  Layout slice(int d) const;
  /// This layout for a reshape that only inserts or removes unit dimensions, or nullopt-like
  /// empty shape mismatch when the reshape does more than that (returns false).
  bool reshape_units(const std::vector<int64_t>& to, Layout& out) const;

 private:
  std::vector<int> dims_or_identity() const;
  // Mma: per parent dimension, the instruction tile's extent, its repetitions in a warp's
  // block, a thread's elements of one tile, and whether the layout keeps the dimension.
  int64_t mma_tile(int p) const;
  int64_t mma_reps(int p) const;
  int mma_elems(int p) const;
  bool mma_keeps(int p) const;
};

/// The mma.sync accumulator layout for an (m, n) tile with `num_warps` warps, split between
/// rows and columns to keep each warp's block square; `inst_m` 16 (m16n8kK) or 8 (f64 m8n8k4).
Layout mma_layout(const std::vector<int64_t>& shape, int inst_m, int num_warps);

/// True when `a` and `b` place the same element in the same register of every one of the
/// `threads` threads: values in one can be used as values in the other without moving data.
bool equivalent(const Layout& a, const Layout& b, int threads);

/// Whether a value in layout `to` can be read from the registers of the same value in layout
/// `from` without moving data between threads. An element is named by a key, the dot product of
/// its coordinates (coords(thread, reg), one per tile dimension of each layout) with
/// `from_key` or `to_key`, so that the two tiles may differ in shape or order (a broadcast, a
/// permute, a reshape). True when, in each of the `threads` threads, every register of `to`
/// has its key among that thread's registers of `from`. With `sources`, the source register
/// (the lowest numbered when several hold the key) must also be the same in every thread, and
/// `sources[r]` gets it for each register r of `to`; false otherwise.
/// Cost: the registers of both layouts once, then per distinct thread base one hash lookup per
/// register of `to` (a thread's keys are its registers' keys shifted by its base).
bool register_local(const Layout& from, const std::vector<int64_t>& from_key, const Layout& to,
                    const std::vector<int64_t>& to_key, int threads, std::vector<int64_t>* sources);

/// The blocked layout for `shape` with `vec` contiguous elements per thread along the last
/// dimension (16 bytes of the narrowest dtype accessed) and `num_warps` warps: lanes, then
/// warps, fill the last dimension first.
Layout blocked_layout(const std::vector<int64_t>& shape, int vec, int num_warps);

/// Byte offset of byte `byte` of line `line` in a swizzled shared-memory tile with lines of
/// `pitch` bytes (a power of two, at least 16): the 16-byte chunk index is XORed with
/// (line / max(1, 8 / chunks)) % min(chunks, 8), chunks = pitch / 16, so that the same chunk
/// of 8 consecutive lines falls in 8 different groups of 4 banks and ldmatrix reads them
/// without conflicts (the XOR swizzle of CUTLASS's Swizzle<3,4,3>, generalized to short lines).
int64_t swizzled_offset(int64_t line, int64_t byte, int64_t pitch);

}  // namespace tilec::codegen
