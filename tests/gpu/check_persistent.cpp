// The tma_wgmma path's persistent grid on the GPU (issue 15; language.md §7.9): the kernels of
// tests/gpu/persistent.tile, built by tests/gpu/make_headers.sh into persistent.h. For ragged
// and aligned shapes (fewer tiles than SMs, 7 x 13 tiles, one tile, many tiles per CTA), fresh
// bf16 inputs:
//   - mm_grid (persistent) matches a float64 reference on sampled elements;
//   - its C is bit-identical to mm_plain's (the same kernel, one CTA per tile) and to a second
//     launch of itself, and mm_2d's (a 2-D logical grid) too;
//   - T, poisoned first, holds num_blocks() at every logical bid() (each logical CTA ran);
//   - every launch ran the _wgmma entry;
//   - ping-pong consumers (mm_pp, 128x128 tiles, pingpong=True) likewise: against float64, T,
//     bit-identical to mm_pp_ref (cooperative, one CTA per tile), to mm_c1 (one consumer
//     warpgroup of 128 rows, consumers=1), to a second launch and to mm_pp_2d (a 2-D grid).
//   check_persistent [--small]   prints one line per case; exit status 1 on a failure; --small:
//                                the shapes compute-sanitizer runs (no 4096 or 8192 rows)
#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check_util.h"  // before the generated headers: TILEC_TRACE_LAUNCH
#include "persistent.h"

namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Sampled elements of bf16 C against float64 (relative to the sum of |products|, as bf16
// rounding of C dominates: 2^-8).
double worst_error(const std::vector<uint16_t>& c, const std::vector<double>& ra, const std::vector<double>& rb,
                   int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  std::uniform_int_distribution<int64_t> row(0, M - 1), col(0, N - 1);
  double worst = 0;
  for (int s = 0; s < 2000; ++s) {
    int64_t i = row(rng), j = col(rng);
    double ref = 0, mag = 0;
    for (int64_t k = 0; k < K; ++k) {
      ref += ra[size_t(i * K + k)] * rb[size_t(k * N + j)];
      mag += std::fabs(ra[size_t(i * K + k)] * rb[size_t(k * N + j)]);
    }
    double out = from_bf16(c[size_t(i * N + j)]);
    double err = std::isnan(out) ? INFINITY : std::fabs(out - ref) / (mag ? mag : 1);
    worst = std::max(worst, err);
  }
  return worst;
}

// Every logical CTA ran and saw the logical grid: T, poisoned first, holds num_blocks() at each
// logical bid().
void expect_logical_grid(const char* what, const Buffer& T, int64_t tiles) {
  std::vector<int32_t> t = T.get<int32_t>(size_t(tiles));
  size_t bad = 0;
  for (int32_t v : t) bad += v != int32_t(tiles);
  std::printf("%-34s %s  bid()/num_blocks() at %zu of %ld logical CTAs wrong\n", what, bad ? "FAIL" : "ok  ", bad,
              long(tiles));
  failures += bad != 0;
}

void check_pingpong(int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  std::vector<float> a(size_t(M * K)), b(size_t(K * N));
  fill(a, rng, -1, 1);
  fill(b, rng, -1, 1);
  std::vector<uint8_t> ha = pack(a, Ty::BF16), hb = pack(b, Ty::BF16);
  std::vector<double> ra = unpack(ha, Ty::BF16), rb = unpack(hb, Ty::BF16);
  int64_t tiles = cdiv(M, 128) * cdiv(N, 128);
  Buffer A(ha.size()), B(hb.size()), C(size_t(M * N * 2)), C2(size_t(M * N * 2)), T(size_t(tiles * 4));
  A.put(ha);
  B.put(hb);
  char what[96];
  std::snprintf(what, sizeof what, "ping-pong %ldx%ldx%ld (%ld tiles)", long(M), long(N), long(K), long(tiles));
  poison(C);
  poison(T);
  CHECK_CU(mm_pp(nullptr, A.p, B.p, C.p, T.p, M, K, N, tiles));
  CHECK_CU(cuCtxSynchronize());
  expect_path(what, true);
  std::vector<uint16_t> c = C.get<uint16_t>(size_t(M * N));
  report_rel(std::string(what) + " vs float64", worst_error(c, ra, rb, M, N, K, rng), 1e-2);
  expect_logical_grid(what, T, tiles);
  auto same = [&](const char* how) {
    std::vector<uint16_t> o = C2.get<uint16_t>(size_t(M * N));
    bool eq = o == c;
    std::printf("%-34s %s  bit-identical to %s\n", what, eq ? "ok  " : "FAIL", how);
    failures += !eq;
  };
  poison(C2);
  CHECK_CU(mm_pp_ref(nullptr, A.p, B.p, C2.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  expect_path(what, true);
  same("cooperative, one CTA per tile (mm_pp_ref)");
  poison(C2);
  CHECK_CU(mm_c1(nullptr, A.p, B.p, C2.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  expect_path(what, true);
  same("one consumer warpgroup (mm_c1)");
  poison(C2);
  CHECK_CU(mm_pp(nullptr, A.p, B.p, C2.p, T.p, M, K, N, tiles));
  CHECK_CU(cuCtxSynchronize());
  same("a second launch");
  poison(C2);
  CHECK_CU(mm_pp_2d(nullptr, A.p, B.p, C2.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  expect_path(what, true);
  same("the 2-D grid (mm_pp_2d)");
}

void check_shape(int64_t M, int64_t N, int64_t K, std::mt19937_64& rng) {
  std::vector<float> a(size_t(M * K)), b(size_t(K * N));
  fill(a, rng, -1, 1);
  fill(b, rng, -1, 1);
  std::vector<uint8_t> ha = pack(a, Ty::BF16), hb = pack(b, Ty::BF16);
  std::vector<double> ra = unpack(ha, Ty::BF16), rb = unpack(hb, Ty::BF16);
  int64_t tiles = cdiv(M, 128) * cdiv(N, 256);
  Buffer A(ha.size()), B(hb.size()), C(size_t(M * N * 2)), C2(size_t(M * N * 2)), C3(size_t(M * N * 2)),
      T(size_t(tiles * 4));
  A.put(ha);
  B.put(hb);
  char what[96];
  std::snprintf(what, sizeof what, "persistent %ldx%ldx%ld (%ld tiles)", long(M), long(N), long(K), long(tiles));
  poison(C);
  poison(T);
  CHECK_CU(mm_grid(nullptr, A.p, B.p, C.p, T.p, M, K, N, tiles));
  CHECK_CU(cuCtxSynchronize());
  expect_path(what, true);
  std::vector<uint16_t> c = C.get<uint16_t>(size_t(M * N));
  report_rel(std::string(what) + " vs float64", worst_error(c, ra, rb, M, N, K, rng), 1e-2);
  expect_logical_grid(what, T, tiles);
  // Bit-identical: one CTA per tile, a second launch, a 2-D grid.
  auto same = [&](const char* how, const Buffer& other) {
    std::vector<uint16_t> o = other.get<uint16_t>(size_t(M * N));
    bool eq = o == c;
    std::printf("%-34s %s  bit-identical to %s\n", what, eq ? "ok  " : "FAIL", how);
    failures += !eq;
  };
  poison(C2);
  CHECK_CU(mm_plain(nullptr, A.p, B.p, C2.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  expect_path(what, true);
  same("one CTA per tile (mm_plain)", C2);
  poison(C3);
  CHECK_CU(mm_grid(nullptr, A.p, B.p, C3.p, T.p, M, K, N, tiles));
  CHECK_CU(cuCtxSynchronize());
  same("a second launch", C3);
  poison(C3);
  CHECK_CU(mm_2d(nullptr, A.p, B.p, C3.p, M, K, N));
  CHECK_CU(cuCtxSynchronize());
  expect_path(what, true);
  same("the 2-D grid (mm_2d)", C3);
}

}  // namespace

int main(int argc, char** argv) {
  bool small = argc > 1 && std::string(argv[1]) == "--small";
  use_device_0_with_cc();
  if (g_device_cc != 90) {
    std::printf("check_persistent: needs a compute capability 9.0 device (the tma_wgmma path), not %d\n", g_device_cc);
    return 0;
  }
  std::mt19937_64 rng(std::random_device{}());
  // 128 tiles (fewer than the SMs; the hang of branch persistent-wip, 2026-12-01), 7 x 13 ragged
  // tiles, one tile, and 2048 tiles (about 16 per CTA).
  const int64_t shapes[][3] = {{4096, 1000, 2056}, {891, 3320, 1000}, {128, 256, 64}, {8192, 8192, 256}, {1000, 1000, 8}};
  for (const auto& [M, N, K] : shapes)
    if (!small || (M < 4096 && N < 4096)) check_shape(M, N, K, rng);
  // Ping-pong: 7 x 13 ragged tiles (91: an odd count per CTA for some), one tile, two tiles (the
  // second consumer's first), 32 x 32 tiles (about 8 per CTA), K below one step and a ragged K.
  const int64_t pp_shapes[][3] = {{891, 1640, 1000}, {128, 128, 64}, {256, 128, 192},
                                  {4096, 4096, 1024}, {1000, 1000, 8}, {300, 520, 72}};
  for (const auto& [M, N, K] : pp_shapes)
    if (!small || (M < 4096 && N < 4096)) check_pingpong(M, N, K, rng);
  std::printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
