// Blocked layouts (codegen/lowering/layout.h): the split blocked_layout() picks for 1-D and 2-D shapes,
// registers per thread and their offsets, and, counted by brute force over every thread and
// register, that a layout covers each element exactly once (or, when replicated, equally often).
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "codegen/lowering/layout.h"
#include "codegen/paths/tma_wgmma/lowering.h"

using tilec::codegen::blocked_layout;
using tilec::codegen::Layout;

namespace {

using Ints = std::vector<int>;
using Coords = std::vector<int64_t>;

// How many (thread, register) pairs hold each element of the tile.
std::map<Coords, int64_t> holders(const Layout& l, int num_warps) {
  std::map<Coords, int64_t> count;
  for (int t = 0; t < 32 * num_warps; ++t)
    for (int64_t r = 0; r < l.regs_per_thread(); ++r) ++count[l.coords(t, r)];
  return count;
}

int64_t numel(const Coords& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

bool inside(const Coords& c, const Coords& shape) {
  if (c.size() != shape.size()) return false;
  for (size_t d = 0; d < c.size(); ++d)
    if (c[d] < 0 || c[d] >= shape[d]) return false;
  return true;
}

int product(const Ints& v) {
  int p = 1;
  for (int x : v) p *= x;
  return p;
}

}  // namespace

TEST_CASE("1-D: vectors of vec elements, lanes then warps, repeated over the tile", "[layout]") {
  Layout l = blocked_layout({1024}, 4, 4);
  CHECK(l.size_per_thread == Ints{4});
  CHECK(l.threads_per_warp == Ints{32});
  CHECK(l.warps_per_cta == Ints{4});
  CHECK(l.cta_tile(0) == 512);
  CHECK(l.reps(0) == 2);
  CHECK(l.regs_per_thread() == 8);
  // Registers: the elements of one vector, then the next repetition of the CTA tile.
  CHECK(l.reg_offset(0) == Coords{0});
  CHECK(l.reg_offset(3) == Coords{3});
  CHECK(l.reg_offset(4) == Coords{512});
  CHECK(l.reg_offset(7) == Coords{515});
  // Thread 33 is lane 1 of warp 1: its vector starts at (32 + 1) * 4.
  CHECK(l.coords(33, 0) == Coords{132});
  CHECK(l.coords(33, 5) == Coords{132 + 512 + 1});
  CHECK_FALSE(l.replicated());
  CHECK(l.str() == "blocked<spt=[4] tpw=[32] wpc=[4]>");
}

TEST_CASE("2-D: lanes fill the last dimension first, warps go down the rows", "[layout]") {
  Layout l = blocked_layout({64, 128}, 8, 4);
  CHECK(l.size_per_thread == Ints{1, 8});
  CHECK(l.threads_per_warp == Ints{2, 16});
  CHECK(l.warps_per_cta == Ints{4, 1});
  CHECK(l.cta_tile(0) == 8);
  CHECK(l.cta_tile(1) == 128);
  CHECK(l.reps(0) == 8);
  CHECK(l.reps(1) == 1);
  CHECK(l.regs_per_thread() == 64);
  CHECK(l.reg_offset(9) == Coords{8, 1});  // second row repetition, element 1 of the vector
  // Thread 49 = warp 1, lane 17 = lane row 1, lane column 1: row 1 + 2 * 1, columns from 8.
  CHECK(l.coords(49, 0) == Coords{3, 8});
  CHECK(l.coords(49, 9) == Coords{11, 9});
  CHECK_FALSE(l.replicated());
  CHECK(l.str() == "blocked<spt=[1,8] tpw=[2,16] wpc=[4,1]>");
}

TEST_CASE("2-D: a narrow last dimension leaves the lanes to the rows", "[layout]") {
  Layout l = blocked_layout({128, 4}, 4, 4);
  CHECK(l.size_per_thread == Ints{1, 4});
  CHECK(l.threads_per_warp == Ints{32, 1});
  CHECK(l.warps_per_cta == Ints{4, 1});
  CHECK(l.regs_per_thread() == 4);
  CHECK(l.coords(37, 2) == Coords{37, 2});
  CHECK_FALSE(l.replicated());
}

TEST_CASE("vec is capped at the last dimension", "[layout]") {
  Layout l = blocked_layout({2}, 8, 1);
  CHECK(l.size_per_thread == Ints{2});
  CHECK(l.regs_per_thread() == 2);
}

TEST_CASE("a tile smaller than the CTA tile wraps around: replicated", "[layout]") {
  SECTION("1-D, 16 elements for 32 lanes of 4") {
    Layout l = blocked_layout({16}, 4, 1);
    CHECK(l.size_per_thread == Ints{4});
    CHECK(l.threads_per_warp == Ints{32});
    CHECK(l.regs_per_thread() == 4);
    CHECK(l.replicated());
    CHECK(l.coords(4, 1) == Coords{1});  // lane 4 holds what lane 0 holds
  }
  SECTION("2-D, leftover warps stack on the rows") {
    Layout l = blocked_layout({16, 16}, 4, 8);
    CHECK(l.size_per_thread == Ints{1, 4});
    CHECK(l.threads_per_warp == Ints{8, 4});
    CHECK(l.warps_per_cta == Ints{8, 1});
    CHECK(l.cta_tile(0) == 64);
    CHECK(l.reps(0) == 1);
    CHECK(l.regs_per_thread() == 4);
    CHECK(l.replicated());
    CHECK(l.coords(2 * 32, 0) == Coords{0, 0});  // warp 2 holds what warp 0 holds
  }
  SECTION("one row for several lane rows") {
    Layout l = blocked_layout({1, 64}, 4, 4);
    CHECK(l.threads_per_warp == Ints{2, 16});
    CHECK(l.warps_per_cta == Ints{4, 1});
    CHECK(l.replicated());
  }
}

TEST_CASE("a scalar has no dimensions and one register in every thread", "[layout]") {
  Layout l = blocked_layout({}, 4, 4);
  CHECK(l.rank() == 0);
  CHECK(l.regs_per_thread() == 1);
  CHECK(l.coords(77, 0).empty());
  CHECK(l.str() == "scalar");
}

TEST_CASE("every element is held exactly once, or equally often when replicated", "[layout]") {
  // Brute force over shapes of rank 1-3, vector widths and warp counts.
  std::vector<Coords> shapes = {{1},      {8},      {32},     {128},     {1024},    {4096},  {1, 64},
                                {64, 1},  {2, 256}, {16, 16}, {64, 64},  {128, 32}, {8, 512}, {256, 8},
                                {2, 4, 8}, {4, 16, 64}, {1, 32, 32}};
  for (const Coords& shape : shapes)
    for (int vec : {1, 2, 4, 8})
      for (int warps : {1, 2, 4, 8}) {
        Layout l = blocked_layout(shape, vec, warps);
        INFO("shape rank " << shape.size() << " first " << shape[0] << " last " << shape.back() << ", vec " << vec
                           << ", " << warps << " warps: " << l.str());
        CHECK(product(l.threads_per_warp) == 32);
        CHECK(product(l.warps_per_cta) == warps);
        std::map<Coords, int64_t> count = holders(l, warps);
        CHECK(int64_t(count.size()) == numel(shape));  // every element, nothing outside
        bool all_inside = true;
        for (const auto& [c, n] : count) all_inside = all_inside && inside(c, shape);
        CHECK(all_inside);
        int64_t copies = 32 * warps * l.regs_per_thread() / numel(shape);
        bool even = true;
        for (const auto& [c, n] : count) even = even && n == copies;
        CHECK(even);
        CHECK((copies == 1) == !l.replicated());
      }
}

TEST_CASE("reg_offset is the compile-time part of coords, and reg_of inverts it", "[layout]") {
  for (const Coords& shape : {Coords{1024}, Coords{64, 128}, Coords{4, 16, 64}}) {
    Layout l = blocked_layout(shape, 4, 4);
    CHECK_FALSE(l.replicated());
    for (int64_t r = 0; r < l.regs_per_thread(); ++r) {
      CHECK(l.coords(0, r) == l.reg_offset(r));  // thread 0 starts at the origin
      CHECK(l.reg_of(l.reg_offset(r)) == r);
    }
  }
}

TEST_CASE("swizzled lines: chunks permuted within a line, 8 lines of one chunk in 8 bank groups", "[layout]") {
  using tilec::codegen::swizzled_offset;
  for (int64_t pitch = 16; pitch <= 1024; pitch *= 2) {
    CAPTURE(pitch);
    int64_t chunks = pitch / 16;
    for (int64_t line = 0; line < 64; ++line) {
      std::set<int64_t> seen;
      for (int64_t c = 0; c < chunks; ++c) {
        int64_t off = swizzled_offset(line, c * 16 + 3, pitch);
        CHECK(off / pitch == line);  // stays in its line
        CHECK(off % 16 == 3);        // bytes keep their place in the chunk
        seen.insert(off / 16);
      }
      CHECK(int64_t(seen.size()) == chunks);
    }
    // ldmatrix reads one chunk of 8 consecutive lines (8 aligned lines apart) per matrix: the 8
    // 16-byte rows must fall in the 8 groups of 4 banks of one 128-byte wavefront.
    for (int64_t first = 0; first < 64; first += 8)
      for (int64_t c = 0; c < chunks; ++c) {
        std::set<int64_t> groups;
        for (int64_t l = first; l < first + 8; ++l) groups.insert(swizzled_offset(l, c * 16, pitch) % 128 / 16);
        CHECK(groups.size() == 8);
      }
  }
  CHECK(swizzled_offset(1, 0, 128) == 128 + 16);  // line 1: chunk 0 ^ 1
  CHECK(swizzled_offset(2, 16, 64) == 128);  // 64-byte lines pair up: line 2 XORs with 1
}

// mma fragment layouts and their slices. The fragment rule, written out independently of
// layout.cpp (PTX ISA §9.7.13.4 m16n8 C/D fragments; §9.7.15.5.1 wgmma m64nNk16 accumulator):
// register 4 j + i of lane l holds row l/4 + 8 (i / 2), column 8 j + 2 (l % 4) + i % 2 of the
// warp's 16-row block.
TEST_CASE("wgmma_layout: warp w holds rows 16 w .., lane l the fragment of m16n8 per 8 columns", "[layout]") {
  for (int warps : {4, 8}) {
    Coords shape = {16 * warps, 64};
    Layout l = tilec::codegen::tma_wgmma::wgmma_layout(shape, warps);
    REQUIRE(l.regs_per_thread() == 32);
    for (int t = 0; t < 32 * warps; ++t)
      for (int64_t r = 0; r < 32; ++r) {
        int lane = t % 32, w = t / 32, j = int(r / 4), i = int(r % 4);
        CHECK(l.coords(t, r) == Coords{16 * w + lane / 4 + 8 * (i / 2), 8 * j + 2 * (lane % 4) + i % 2});
      }
  }
}

TEST_CASE("a slice of an mma layout keeps each row (or column) where the fragments hold it", "[layout]") {
  using tilec::codegen::mma_layout;
  using tilec::codegen::tma_wgmma::wgmma_layout;
  std::vector<std::pair<Layout, int>> cases = {{wgmma_layout({128, 64}, 8), 8},
                                               {wgmma_layout({64, 128}, 4), 4},
                                               {mma_layout({128, 64}, 16, 8), 8},
                                               {mma_layout({64, 64}, 16, 4), 4},
                                               {mma_layout({16, 16}, 16, 4), 4}};
  for (auto& [parent, warps] : cases)
    for (int axis : {0, 1}) {
      Layout s = parent.slice(axis);
      INFO(parent.str() << " sliced along " << axis << ": " << s.str());
      CHECK(s.is_slice());
      CHECK(s.replicated());
      // Every element of the reduced tile is held, equally often.
      std::map<Coords, int64_t> count = holders(s, warps);
      Coords rshape = {parent.shape[size_t(1 - axis)]};
      CHECK(int64_t(count.size()) == rshape[0]);
      std::set<int64_t> copies;
      for (const auto& [c, n] : count) {
        CHECK(inside(c, rshape));
        copies.insert(n);
      }
      CHECK(copies.size() == 1);
      // Broadcasting back is register-local: every thread holds, for each of its parent
      // registers, the slice's element of the same row (column).
      for (int t = 0; t < 32 * warps; ++t) {
        std::set<Coords> held;
        for (int64_t r = 0; r < s.regs_per_thread(); ++r) held.insert(s.coords(t, r));
        for (int64_t r = 0; r < parent.regs_per_thread(); ++r)
          CHECK(held.count(Coords{parent.coords(t, r)[size_t(1 - axis)]}) == 1);
      }
      for (int64_t r = 0; r < s.regs_per_thread(); ++r) CHECK(s.reg_of(s.reg_offset(r)) == r);
      // keepdims: the unit dimension comes back unbacked, and the layout stays equivalent.
      Coords kept = parent.shape;
      kept[size_t(axis)] = 1;
      Layout k;
      REQUIRE(s.reshape_units(kept, k));
      CHECK(k.rank() == 2);
      CHECK(k.regs_per_thread() == s.regs_per_thread());
      for (int t = 0; t < 32 * warps; t += 5)
        for (int64_t r = 0; r < k.regs_per_thread(); ++r) {
          Coords c = k.coords(t, r);
          CHECK(c[size_t(axis)] == 0);
          CHECK(c[size_t(1 - axis)] == s.coords(t, r)[0]);
        }
    }
}

namespace {

// register_local written the slow way: in each thread, a map from key to the lowest source
// register holding it, searched for every destination register. `found`: every key is found
// in every thread; `same`: also in the same source register in every thread.
struct Search {
  bool found = true, same = true;
  std::vector<int64_t> sources;
};
Search search_every_thread(const Layout& from, const Coords& fk, const Layout& to, const Coords& tk, int threads) {
  auto key = [](const Coords& c, const Coords& k) {
    int64_t s = 0;
    for (size_t d = 0; d < c.size(); ++d) s += c[d] * k[d];
    return s;
  };
  Search out;
  out.sources.assign(size_t(to.regs_per_thread()), -1);
  for (int t = 0; t < threads; ++t) {
    std::map<int64_t, int64_t> held;
    for (int64_t r = 0; r < from.regs_per_thread(); ++r) held.emplace(key(from.coords(t, r), fk), r);
    for (int64_t r = 0; r < to.regs_per_thread(); ++r) {
      auto it = held.find(key(to.coords(t, r), tk));
      if (it == held.end()) {
        out.found = out.same = false;
        return out;
      }
      int64_t& s = out.sources[size_t(r)];
      if (s >= 0 && s != it->second) out.same = false;
      s = it->second;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("register_local agrees with a search of every thread's registers", "[layout]") {
  using tilec::codegen::mma_layout;
  using tilec::codegen::register_local;
  using tilec::codegen::tma_wgmma::wgmma_layout;
  struct Case {
    Layout from;
    Coords fk;
    Layout to;
    Coords tk;
    int warps;
  };
  Layout acc = mma_layout({128, 64}, 16, 8), wg = wgmma_layout({128, 64}, 8);
  std::vector<Case> cases = {
      // the same tile in other distributions (vector widths, mma fragments)
      {blocked_layout({64, 64}, 4, 4), {64, 1}, blocked_layout({64, 64}, 8, 4), {64, 1}, 4},
      {blocked_layout({64, 64}, 4, 4), {64, 1}, blocked_layout({64, 64}, 4, 4), {64, 1}, 4},
      {acc, {64, 1}, blocked_layout({128, 64}, 2, 8), {64, 1}, 8},
      {acc, {64, 1}, acc, {64, 1}, 8},
      {wg, {64, 1}, acc, {64, 1}, 8},
      // a transpose: destination (j, i) is source (i, j)
      {blocked_layout({32, 32}, 1, 4), {32, 1}, blocked_layout({32, 32}, 1, 4), {1, 32}, 4},
      // a row (column) of the accumulator broadcast back over it (key 0 along the other axis)
      {acc.slice(1), {1}, acc, {1, 0}, 8},
      {acc.slice(0), {1}, acc, {1, 0}, 8},
      {acc.slice(0), {1}, acc, {0, 1}, 8},
      {wg.slice(1), {1}, wg, {1, 0}, 8},
      // keys that fold a 2-D tile onto fewer values (row + column): the lowest register wins
      {acc, {1, 1}, acc, {1, 1}, 8},
      {blocked_layout({64}, 4, 4), {1}, blocked_layout({64}, 2, 4), {1}, 4},
      {blocked_layout({1024}, 4, 4), {1}, blocked_layout({1024}, 4, 4), {1}, 4},
  };
  int local = 0, not_found = 0;
  for (const Case& c : cases) {
    INFO(c.from.str() << " -> " << c.to.str());
    int threads = 32 * c.warps;
    Search want = search_every_thread(c.from, c.fk, c.to, c.tk, threads);
    std::vector<int64_t> got;
    CHECK(register_local(c.from, c.fk, c.to, c.tk, threads, &got) == want.same);
    if (want.same) CHECK(got == want.sources);
    CHECK(register_local(c.from, c.fk, c.to, c.tk, threads, nullptr) == want.found);
    if (want.same) ++local;
    if (!want.found) ++not_found;
  }
  // Both outcomes occur, so each comparison above can fail.
  CHECK(local >= 3);
  CHECK(not_found >= 3);
}
