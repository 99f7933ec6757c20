// Blocked and slice layouts.
#include "codegen/lowering/layout.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

namespace tilec::codegen {

std::vector<int> Layout::dims_or_identity() const {
  if (!dims.empty()) return dims;
  std::vector<int> id(shape.size());
  for (size_t i = 0; i < id.size(); ++i) id[i] = int(i);
  return id;
}

std::vector<int> Layout::sliced_dims() const {
  std::vector<int> out;
  std::vector<int> kept = dims_or_identity();
  for (int p = 0; p < parent_rank(); ++p)
    if (std::find(kept.begin(), kept.end(), p) == kept.end()) out.push_back(p);
  return out;
}

int64_t Layout::parent_cta_tile(int p) const {
  if (kind == Kind::Mma) return mma_tile(p);
  return int64_t(size_per_thread[size_t(p)]) * threads_per_warp[size_t(p)] * warps_per_cta[size_t(p)];
}

// Mma layouts, per parent dimension p (0 = rows, 1 = columns): an instruction tile is
// mma_tile(p) elements (inst_m rows, 8 columns), repeated mma_reps(p) times in each warp's
// block; a thread holds mma_elems(p) elements of each tile (rows l/4 and l/4 + 8 when inst_m is
// 16; columns 2 (l%4) + {0, 1}). A slice keeps the parent dimensions in `dims`.
int64_t Layout::mma_tile(int p) const { return p == 0 ? inst_m : 8; }
int64_t Layout::mma_reps(int p) const {
  return (pshape()[size_t(p)] / (p == 0 ? warps_m : warps_n)) / mma_tile(p);
}
int Layout::mma_elems(int p) const { return p == 0 ? (inst_m == 16 ? 2 : 1) : 2; }
bool Layout::mma_keeps(int p) const {
  // dims_or_identity() without building it: this is asked per register.
  if (dims.empty()) return p >= 0 && p < rank();
  return std::find(dims.begin(), dims.end(), p) != dims.end();
}

int64_t Layout::cta_tile(int d) const {
  int p = parent_dim(d);
  if (kind == Kind::Mma) return p < 0 ? 1 : mma_tile(p);
  return p < 0 ? 1 : parent_cta_tile(p);
}

int64_t Layout::reps(int d) const {
  int p = parent_dim(d);
  if (p < 0) return 1;
  if (kind == Kind::Mma) return mma_reps(p);
  int64_t t = parent_cta_tile(p);
  return pshape()[size_t(p)] > t ? pshape()[size_t(p)] / t : 1;
}

int Layout::spt(int d) const {
  int p = parent_dim(d);
  if (kind == Kind::Mma) return p == 1 ? 2 : 1;
  return p < 0 ? 1 : size_per_thread[size_t(p)];
}

int64_t Layout::regs_per_thread() const {
  if (kind == Kind::Mma) {
    int64_t n = 1;
    for (int p = 0; p < 2; ++p)
      if (mma_keeps(p)) n *= mma_reps(p) * mma_elems(p);
    return n;
  }
  int64_t n = 1;
  for (int d = 0; d < rank(); ++d) n *= reps(d) * spt(d);
  return n;
}

std::vector<int64_t> Layout::reg_offset(int64_t r) const {
  if (kind == Kind::Mma) {
    // Register r: instruction tile (rm, rn) = r / per, element i = r % per of its fragment, i =
    // half * (column elements) + e; dimensions a slice dropped count once.
    bool whole = !is_slice() && rank() == 2;  // the accumulator itself: the common case
    bool k0 = whole || mma_keeps(0), k1 = whole || mma_keeps(1);
    int64_t e0 = k0 ? mma_elems(0) : 1, e1 = k1 ? mma_elems(1) : 1, r1 = k1 ? mma_reps(1) : 1;
    int64_t per = e0 * e1, tile = r / per, i = r % per;
    int64_t rm = tile / r1, rn = tile % r1;
    int64_t row = rm * inst_m + 8 * (i / e1), col = rn * 8 + i % e1;
    if (whole) return {row, col};
    std::vector<int64_t> off(size_t(rank()), 0);
    for (int d = 0; d < rank(); ++d) {
      int p = parent_dim(d);
      if (p >= 0) off[size_t(d)] = p == 0 ? row : col;
    }
    return off;
  }
  // Registers are numbered with the last dimension fastest, and within a dimension the
  // elements of one repetition before the next repetition.
  std::vector<int64_t> off(size_t(rank()), 0);
  for (int d = rank() - 1; d >= 0; --d) {
    int64_t n = spt(d), per = reps(d) * n;
    int64_t k = r % per;
    r /= per;
    off[size_t(d)] = k / n * cta_tile(d) + k % n;
  }
  return off;
}

int64_t Layout::reg_of(const std::vector<int64_t>& off) const {
  if (kind == Kind::Mma) {
    bool k0 = mma_keeps(0), k1 = mma_keeps(1);
    int64_t e0 = k0 ? mma_elems(0) : 1, e1 = k1 ? mma_elems(1) : 1, r1 = k1 ? mma_reps(1) : 1;
    int64_t row = 0, col = 0;
    for (int d = 0; d < rank(); ++d) {
      int p = parent_dim(d);
      if (p == 0) row = off[size_t(d)];
      if (p == 1) col = off[size_t(d)];
    }
    int64_t rm = row / inst_m, half = e0 > 1 ? (row % inst_m) / 8 : 0, rn = col / 8, e = e1 > 1 ? col % 2 : 0;
    return (rm * r1 + rn) * (e0 * e1) + half * e1 + e;
  }
  int64_t r = 0;
  for (int d = 0; d < rank(); ++d) {
    int64_t per = reps(d) * spt(d);
    int64_t rep = off[size_t(d)] / cta_tile(d), e = off[size_t(d)] % cta_tile(d);
    r = r * per + rep * spt(d) + e;
  }
  return r;
}

int Layout::lanes_along(int p) const {
  if (kind == Kind::Mma) return p == 0 ? 8 : 4;
  return threads_per_warp[size_t(p)];
}

int Layout::lane_stride(int p) const {
  if (kind == Kind::Mma) return p == 0 ? 4 : 1;
  int s = 1;
  for (int k = parent_rank() - 1; k > p; --k) s *= threads_per_warp[size_t(k)];
  return s;
}

int Layout::warps_along(int p) const {
  if (kind == Kind::Mma) return p == 0 ? warps_m : warps_n;
  return warps_per_cta[size_t(p)];
}

int Layout::warp_stride(int p) const {
  if (kind == Kind::Mma) return p == 0 ? warps_n : 1;
  int s = 1;
  for (int k = parent_rank() - 1; k > p; --k) s *= warps_per_cta[size_t(k)];
  return s;
}

int64_t Layout::thread_coord(int thread, int p) const {
  int lane = thread % 32, warp = thread / 32;
  int64_t lane_stride = 1, warp_stride = 1;
  for (int k = parent_rank() - 1; k > p; --k) {
    lane_stride *= threads_per_warp[size_t(k)];
    warp_stride *= warps_per_cta[size_t(k)];
  }
  int64_t l = (lane / lane_stride) % threads_per_warp[size_t(p)];
  int64_t w = (warp / warp_stride) % warps_per_cta[size_t(p)];
  return l + w * threads_per_warp[size_t(p)];
}

void Layout::add_thread_base(int thread, std::vector<int64_t>& c) const {
  if (kind == Kind::Mma) {
    int lane = thread % 32, warp = (thread / 32) % (warps_m * warps_n);
    if (!is_slice() && rank() == 2) {  // the accumulator itself: rows, then columns
      c[0] += (warp / warps_n) * (pshape()[0] / warps_m) + lane / 4;
      c[1] += (warp % warps_n) * (pshape()[1] / warps_n) + 2 * (lane % 4);
      return;
    }
    for (int d = 0; d < rank(); ++d) {
      int p = parent_dim(d);
      if (p == 0) c[size_t(d)] += (warp / warps_n) * (pshape()[0] / warps_m) + lane / 4;
      if (p == 1) c[size_t(d)] += (warp % warps_n) * (pshape()[1] / warps_n) + 2 * (lane % 4);
    }
    return;
  }
  for (int d = 0; d < rank(); ++d) {
    int p = parent_dim(d);
    if (p < 0) continue;
    int64_t base = (thread_coord(thread, p) * size_per_thread[size_t(p)]) & (pshape()[size_t(p)] - 1);
    c[size_t(d)] += base;
  }
}

std::vector<int64_t> Layout::coords(int thread, int64_t reg) const {
  std::vector<int64_t> c = reg_offset(reg);
  add_thread_base(thread, c);
  return c;
}

bool Layout::replicated() const {
  if (kind == Kind::Mma) return mma_copies > 1 || !sliced_dims().empty();
  for (int p : sliced_dims())
    if (threads_per_warp[size_t(p)] * warps_per_cta[size_t(p)] > 1) return true;
  for (int p = 0; p < parent_rank(); ++p)
    if (parent_cta_tile(p) > pshape()[size_t(p)]) return true;
  return false;
}

std::string Layout::str() const {
  auto list = [](const auto& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s + "]";
  };
  std::string blocked;
  if (kind == Kind::Mma) {
    blocked = fmt::format("mma<m{}n8, warps=[{},{}]{}>", inst_m, warps_m, warps_n,
                          mma_copies > 1 ? fmt::format(", copies={}", mma_copies) : "");
  } else {
    if (shape.empty() && size_per_thread.empty()) return "scalar";
    blocked = fmt::format("blocked<spt={} tpw={} wpc={}>", list(size_per_thread), list(threads_per_warp),
                          list(warps_per_cta));
  }
  if (!is_slice()) return blocked;
  return fmt::format("slice<{} of {}, dims={}>", blocked, list(pshape()), list(dims));
}

Layout Layout::parent() const {
  Layout p = *this;
  p.shape = pshape();
  p.parent_shape.clear();
  p.dims.clear();
  return p;
}

Layout Layout::slice(int d) const {
  Layout s = *this;
  s.parent_shape = pshape();
  s.dims = dims_or_identity();
  s.dims.erase(s.dims.begin() + d);
  s.shape.erase(s.shape.begin() + d);
  // A slice that keeps every parent dimension in order is the parent itself.
  if (s.shape == s.parent_shape && s.sliced_dims().empty()) return s.parent();
  return s;
}

bool Layout::reshape_units(const std::vector<int64_t>& to, Layout& out) const {
  // The non-unit dimensions must stay the same, in order.
  std::vector<int64_t> a, b;
  for (int64_t x : shape)
    if (x != 1) a.push_back(x);
  for (int64_t x : to)
    if (x != 1) b.push_back(x);
  if (a != b) return false;
  std::vector<int> from_dims = dims_or_identity();
  std::vector<int> new_dims;
  size_t i = 0;
  for (int64_t x : to) {
    if (x != 1) {
      while (shape[i] == 1) ++i;
      new_dims.push_back(from_dims[i++]);
    } else {
      // A unit dimension: reuse the source's parent dimension at this place when it is a unit
      // dimension of the same position, else an unbacked one.
      new_dims.push_back(-1);
    }
  }
  out = *this;
  out.shape = to;
  out.parent_shape = pshape();
  out.dims = new_dims;
  if (out.shape == out.parent_shape) {
    bool identity = true;
    for (size_t k = 0; k < new_dims.size(); ++k) identity = identity && new_dims[k] == int(k);
    if (identity) out = out.parent();
  }
  return true;
}

Layout mma_layout(const std::vector<int64_t>& shape, int inst_m, int num_warps) {
  // Split the warps between rows and columns so that each warp's block stays as square as
  // possible (fewer fragment loads per instruction), keeping whole instruction tiles.
  Layout l;
  l.kind = Layout::Kind::Mma;
  l.shape = shape;
  l.inst_m = inst_m;
  int wm = 1, wn = 1;
  for (int w = num_warps; w > 1; w /= 2) {
    int64_t bm = shape[0] / wm, bn = shape[1] / wn;
    if (bm >= 2 * inst_m && (bm >= bn || bn < 16)) wm *= 2;
    else if (bn >= 16) wn *= 2;
    else break;  // the tile is too small: the other warps hold copies
  }
  l.warps_m = wm;
  l.warps_n = wn;
  l.mma_copies = num_warps / (wm * wn);
  return l;
}

bool equivalent(const Layout& a, const Layout& b, int threads) {
  if (a == b) return true;
  if (a.shape != b.shape || a.regs_per_thread() != b.regs_per_thread()) return false;
  // coords(t, r) is reg_offset(r) plus a per-thread base: the offsets once, the bases per thread.
  int64_t regs = a.regs_per_thread();
  size_t rank = a.shape.size();
  std::vector<std::vector<int64_t>> off_a, off_b;
  for (int64_t r = 0; r < regs; ++r) {
    off_a.push_back(a.reg_offset(r));
    off_b.push_back(b.reg_offset(r));
  }
  std::vector<int64_t> base_a(rank), base_b(rank);
  for (int t = 0; t < threads; ++t) {
    std::fill(base_a.begin(), base_a.end(), 0);
    std::fill(base_b.begin(), base_b.end(), 0);
    a.add_thread_base(t, base_a);
    b.add_thread_base(t, base_b);
    for (int64_t r = 0; r < regs; ++r)
      for (size_t d = 0; d < rank; ++d)
        if (off_a[size_t(r)][d] + base_a[d] != off_b[size_t(r)][d] + base_b[d]) return false;
  }
  return true;
}

bool register_local(const Layout& from, const std::vector<int64_t>& from_key, const Layout& to,
                    const std::vector<int64_t>& to_key, int threads, std::vector<int64_t>* sources) {
  auto key = [](const std::vector<int64_t>& c, const std::vector<int64_t>& k) {
    int64_t lin = 0;
    for (size_t d = 0; d < c.size(); ++d) lin += c[d] * k[d];
    return lin;
  };
  // coords(t, r) = reg_offset(r) + base(t) and the key is linear, so thread t holds the source
  // key key(reg_offset(r')) + key(base_from(t)) and looks for key(reg_offset(r)) +
  // key(base_to(t)): one table of source offsets serves every thread, shifted by
  // key(base_to(t)) - key(base_from(t)); threads with the same shift find the same registers.
  std::unordered_map<int64_t, int64_t> held;  // source key -> its lowest register
  for (int64_t r = 0, n = from.regs_per_thread(); r < n; ++r) held.emplace(key(from.reg_offset(r), from_key), r);
  int64_t regs = to.regs_per_thread();
  std::vector<int64_t> wanted(static_cast<size_t>(regs));
  for (int64_t r = 0; r < regs; ++r) wanted[size_t(r)] = key(to.reg_offset(r), to_key);
  if (sources) sources->assign(size_t(regs), -1);
  std::unordered_set<int64_t> shifts;
  std::vector<int64_t> base_from(from.shape.size()), base_to(to.shape.size());
  for (int t = 0; t < threads; ++t) {
    std::fill(base_from.begin(), base_from.end(), 0);
    std::fill(base_to.begin(), base_to.end(), 0);
    from.add_thread_base(t, base_from);
    to.add_thread_base(t, base_to);
    int64_t shift = key(base_to, to_key) - key(base_from, from_key);
    if (!shifts.insert(shift).second) continue;
    for (int64_t r = 0; r < regs; ++r) {
      auto it = held.find(wanted[size_t(r)] + shift);
      if (it == held.end()) return false;
      if (!sources) continue;
      int64_t& s = (*sources)[size_t(r)];
      if (s >= 0 && s != it->second) return false;
      s = it->second;
    }
  }
  return true;
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
    int64_t room = std::max<int64_t>(
        1, shape[size_t(d)] / (int64_t(l.size_per_thread[size_t(d)]) * l.threads_per_warp[size_t(d)]));
    int w = int(std::min<int64_t>(warps, room));
    l.warps_per_cta[size_t(d)] = w;
    warps /= w;
  }
  l.warps_per_cta[0] *= warps;
  return l;
}

int64_t swizzled_offset(int64_t line, int64_t byte, int64_t pitch) {
  int64_t chunks = pitch / 16;
  int64_t period = std::max<int64_t>(1, 8 / chunks), width = std::min<int64_t>(chunks, 8);
  int64_t chunk = (byte / 16) ^ ((line / period) % width);
  return line * pitch + chunk * 16 + byte % 16;
}

}  // namespace tilec::codegen
