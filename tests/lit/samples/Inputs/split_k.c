/* Split-K configurations of matmul_bt (samples/matmul_bt.tile: configurations 5 and 6 are 64x128
   tiles in 4 and 8 slices, 7 is 128x128 tiles in 2), run against the fake driver
   (tests/backend/mock_cuda.c: an H100's limits, 132 multiprocessors). For each shape:
   matmul_bt_workspace_bytes against the size computed here (slices x tiles x tile bytes of f32,
   the most over the split-K configurations); a forced launch of each split-K configuration with
   that workspace (two launches: the partials entry on the grid (tiles, slices) -- persistent on
   the wgmma path: at most 132 CTAs -- then the reduce entry on (tiles)), with one byte less
   (refused before any launch) and with a misaligned workspace (refused); the launch's own
   choice with and without a workspace (without: never a split-K configuration). */
#include <stdio.h>
#include <string.h>

#include "matmul_bt.h"
#include "mock_cuda.h"

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Slices, tile rows and columns of configuration c (5, 6, 7), from its label. */
static void split_of(int c, int64_t* s, int64_t* bm, int64_t* bn) {
  const char* label = matmul_bt_metadata.configs[c].label;
  *s = strstr(label, "split_k=4") ? 4 : strstr(label, "split_k=8") ? 8 : 2;
  *bm = strstr(label, "BM=128") ? 128 : 64;
  *bn = 128;
}

static int64_t need(int c, int64_t m, int64_t n) {
  int64_t s, bm, bn;
  split_of(c, &s, &bm, &bn);
  return s * cdiv(m, bm) * cdiv(n, bn) * bm * bn * 4;
}

int main(void) {
  static const int64_t shapes[][3] = {{1, 4096, 4096}, {77, 1024, 4096}, {1000, 4096, 4096}, {5, 130, 70}};
  CUstream st = mock_stream(0);
  CUdeviceptr a = 0x100000000ull, b = 0x200000000ull, out = 0x300000000ull, ws = 0x400000000ull;
  int bad = 0;
  size_t i;
  for (i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    int64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2], most = 0;
    int c;
    for (c = 5; c <= 7; ++c)
      if (need(c, m, n) > most) most = need(c, m, n);
    size_t bytes = matmul_bt_workspace_bytes(m, k, n);
    printf("M=%lld N=%lld K=%lld: workspace %zu bytes (expected %lld)\n", (long long)m, (long long)n, (long long)k,
           bytes, (long long)most);
    bad += (int64_t)bytes != most;
    for (c = 5; c <= 7; ++c) {
      int64_t s, bm, bn;
      CUresult r;
      split_of(c, &s, &bm, &bn);
      mock_reset();
      r = matmul_bt_launch_config(c, st, a, b, out, m, k, n, ws, (size_t)need(c, m, n));
      printf("  config %d: %d, %d launches, last %s grid (%u, %u, %u)\n", c, (int)r, mock.launches, mock.last.entry,
             mock.last.grid[0], mock.last.grid[1], mock.last.grid[2]);
      bad += r != CUDA_SUCCESS || mock.launches != 2 || !strstr(mock.last.entry, "_tilec_reduce") ||
             mock.last.grid[0] != (unsigned)(cdiv(m, bm) * cdiv(n, bn));
      mock_reset();
      r = matmul_bt_launch_config(c, st, a, b, out, m, k, n, ws, (size_t)need(c, m, n) - 1);
      bad += r != CUDA_ERROR_INVALID_VALUE || mock.launches != 0;
      mock_reset();
      r = matmul_bt_launch_config(c, st, a, b, out, m, k, n, ws + 4, (size_t)need(c, m, n) + 4);
      bad += r != CUDA_ERROR_INVALID_VALUE || mock.launches != 0;
    }
    mock_reset();
    c = matmul_bt_config(st, m, k, n);
    bad += matmul_bt(st, a, b, out, m, k, n, ws, bytes) != CUDA_SUCCESS;
    printf("  choice with workspace: config %d, %d launches, last %s\n", c, mock.launches, mock.last.entry);
    mock_reset();
    bad += matmul_bt(st, a, b, out, m, k, n, 0, 0) != CUDA_SUCCESS;
    printf("  choice without: %d launches, last %s\n", mock.launches, mock.last.entry);
    bad += mock.launches != 1 || strstr(mock.last.entry, "_tilec_reduce") != NULL;
  }
  printf("%d failures\n", bad);
  return bad != 0;
}
