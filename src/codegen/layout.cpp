// Blocked layouts.
#include "codegen/layout.h"

#include <algorithm>

#include <fmt/format.h>

namespace tilec::codegen {

int64_t Layout::cta_tile(int d) const {
  return int64_t(size_per_thread[size_t(d)]) * threads_per_warp[size_t(d)] * warps_per_cta[size_t(d)];
}

int64_t Layout::reps(int d) const {
  int64_t t = cta_tile(d);
  return shape[size_t(d)] > t ? shape[size_t(d)] / t : 1;
}

int64_t Layout::regs_per_thread() const {
  int64_t n = 1;
  for (int d = 0; d < rank(); ++d) n *= reps(d) * size_per_thread[size_t(d)];
  return n;
}

std::vector<int64_t> Layout::reg_offset(int64_t r) const {
  // Registers are numbered with the last dimension fastest, and within a dimension the
  // elements of one repetition before the next repetition.
  std::vector<int64_t> off(size_t(rank()), 0);
  for (int d = rank() - 1; d >= 0; --d) {
    int64_t per = reps(d) * size_per_thread[size_t(d)];
    int64_t k = r % per;
    r /= per;
    int64_t rep = k / size_per_thread[size_t(d)], e = k % size_per_thread[size_t(d)];
    off[size_t(d)] = rep * cta_tile(d) + e;
  }
  return off;
}

int64_t Layout::thread_coord(int thread, int d) const {
  int lane = thread % 32, warp = thread / 32;
  int64_t lane_stride = 1, warp_stride = 1;
  for (int k = rank() - 1; k > d; --k) {
    lane_stride *= threads_per_warp[size_t(k)];
    warp_stride *= warps_per_cta[size_t(k)];
  }
  int64_t l = (lane / lane_stride) % threads_per_warp[size_t(d)];
  int64_t w = (warp / warp_stride) % warps_per_cta[size_t(d)];
  return l + w * threads_per_warp[size_t(d)];
}

std::vector<int64_t> Layout::coords(int thread, int64_t reg) const {
  std::vector<int64_t> c = reg_offset(reg);
  for (int d = 0; d < rank(); ++d) {
    int64_t base = (thread_coord(thread, d) * size_per_thread[size_t(d)]) & (shape[size_t(d)] - 1);
    c[size_t(d)] += base;
  }
  return c;
}

bool Layout::replicated() const {
  for (int d = 0; d < rank(); ++d)
    if (cta_tile(d) > shape[size_t(d)]) return true;
  return false;
}

std::string Layout::str() const {
  if (shape.empty()) return "scalar";
  auto list = [](const std::vector<int>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
  };
  return fmt::format("blocked<spt={} tpw={} wpc={}>", list(size_per_thread), list(threads_per_warp), list(warps_per_cta));
}

Layout blocked_layout(const std::vector<int64_t>& shape, int vec, int num_warps) {
  Layout l;
  l.shape = shape;
  int rank = int(shape.size());
  l.size_per_thread.assign(size_t(rank), 1);
  l.threads_per_warp.assign(size_t(rank), 1);
  l.warps_per_cta.assign(size_t(rank), 1);
  if (rank == 0) return l;
  l.size_per_thread[size_t(rank - 1)] = int(std::min<int64_t>(vec, shape[size_t(rank - 1)]));
  // Lanes: last dimension first, as many as the dimension has vectors; leftovers go to dim 0.
  int lanes = 32;
  for (int d = rank - 1; d >= 0 && lanes > 1; --d) {
    int64_t room = std::max<int64_t>(1, shape[size_t(d)] / l.size_per_thread[size_t(d)]);
    int t = int(std::min<int64_t>(lanes, room));
    l.threads_per_warp[size_t(d)] = t;
    lanes /= t;
  }
  l.threads_per_warp[0] *= lanes;
  int warps = num_warps;
  for (int d = rank - 1; d >= 0 && warps > 1; --d) {
    int64_t room = std::max<int64_t>(1, shape[size_t(d)] / (int64_t(l.size_per_thread[size_t(d)]) * l.threads_per_warp[size_t(d)]));
    int w = int(std::min<int64_t>(warps, room));
    l.warps_per_cta[size_t(d)] = w;
    warps /= w;
  }
  l.warps_per_cta[0] *= warps;
  return l;
}

}  // namespace tilec::codegen
