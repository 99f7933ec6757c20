// Register layouts: which thread of the CTA holds which elements of a tile.
//
// A blocked layout (Triton's BlockedEncoding) splits each dimension d into
//   size_per_thread[d] contiguous elements × threads_per_warp[d] lanes × warps_per_cta[d] warps,
// a "CTA tile"; a tile larger than the CTA tile repeats it, a smaller one wraps around (the
// extra threads hold copies). Lanes and warps are numbered with the last dimension fastest.
// Scalars (rank 0) are replicated: every thread holds the value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilec::codegen {

struct Layout {
  std::vector<int64_t> shape;
  std::vector<int> size_per_thread;
  std::vector<int> threads_per_warp;  ///< product 32
  std::vector<int> warps_per_cta;     ///< product num_warps

  int rank() const { return int(shape.size()); }
  /// Elements of one CTA tile along `d`.
  int64_t cta_tile(int d) const;
  /// Repetitions of the CTA tile along `d` (1 when the tile is smaller and wraps).
  int64_t reps(int d) const;
  /// Registers each thread holds (product over dims of reps × size_per_thread).
  int64_t regs_per_thread() const;
  /// Decomposes register number `r` into per-dimension (rep, element) offsets: the
  /// compile-time part of the element coordinate, rep*cta_tile + e (before wrap-around).
  std::vector<int64_t> reg_offset(int64_t r) const;
  /// The coordinates of register `reg` of thread `thread` (lanes and warps numbered with the
  /// last dimension fastest; wrapped modulo the shape when the tile is smaller).
  std::vector<int64_t> coords(int thread, int64_t reg) const;
  /// The thread's coordinate along `d` before wrap-around: lane part + warp part.
  int64_t thread_coord(int thread, int d) const;
  /// True when some threads hold copies of other threads' elements (tile < CTA tile).
  bool replicated() const;
  bool operator==(const Layout& o) const {
    return shape == o.shape && size_per_thread == o.size_per_thread && threads_per_warp == o.threads_per_warp &&
           warps_per_cta == o.warps_per_cta;
  }
  /// "blocked<spt=[1,4] tpw=[1,32] wpc=[4,1]>"
  std::string str() const;
};

/// The blocked layout for `shape` with `vec` contiguous elements per thread along the last
/// dimension (16 bytes of the narrowest dtype accessed) and `num_warps` warps: lanes, then
/// warps, fill the last dimension first.
Layout blocked_layout(const std::vector<int64_t>& shape, int vec, int num_warps);

}  // namespace tilec::codegen
