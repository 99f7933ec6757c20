/* The launch's choice among the row kernels' configurations (softmax, layernorm, rmsnorm), run
   against the fake driver (tests/backend/mock_cuda.c: an H100's limits): for every row length N
   up to 32768 in steps that cross each configuration's TILE_N, several row counts M and two
   devices (132 and 66 multiprocessors), the
   configuration k_config picks must be the one of the smallest TILE_N >= N (read from the
   configuration's label in the metadata, not from the chooser), and the launch must run its
   entry; N = 32769 must be refused (k_config -1, the launch CUDA_ERROR_INVALID_VALUE).
   Prints the named points for FileCheck and one line per kernel with the count of mismatches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layernorm.h"
#include "mock_cuda.h"
#include "rmsnorm.h"
#include "softmax.h"

typedef int (*config_fn)(CUstream, int64_t, int64_t);

/* The TILE_N a configuration's label sets ("TILE_N=1024, num_warps=4"), -1 without one. */
static long tile_n(const tilec_kernel_metadata* m, int c) {
  const char* at;
  if (c < 0 || c >= m->num_configs) return -1;
  at = strstr(m->configs[c].label, "TILE_N=");
  return at ? strtol(at + 7, NULL, 10) : -1;
}

/* The configuration of the smallest TILE_N >= n, the first declared among equals; -1 if none. */
static int expected(const tilec_kernel_metadata* m, int64_t n) {
  int c, best = -1;
  for (c = 0; c < m->num_configs; ++c)
    if (tile_n(m, c) >= n && (best < 0 || tile_n(m, c) < tile_n(m, best))) best = c;
  return best;
}

/* Launches kernel `name` on an M x N problem through its public launch function. */
static CUresult launch(const char* name, CUstream s, int64_t m, int64_t n) {
  CUdeviceptr x = 0x100000, w = 0x200000000ull, b = 0x300000000ull, y = 0x400000000ull;
  CUdeviceptr mean = 0x500000000ull, rstd = 0x600000000ull;
  if (strcmp(name, "softmax") == 0) return softmax(s, x, y, m, n);
  if (strcmp(name, "layernorm") == 0) return layernorm(s, x, w, b, y, mean, rstd, m, n);
  return rmsnorm(s, x, w, y, m, n);
}

static int check(const char* name, const tilec_kernel_metadata* meta, config_fn config) {
  static const int64_t ms[] = {1, 7, 1000, 4096, 16384};
  static const int64_t named[] = {768, 1024, 5120, 32768, 32769};
  CUstream s = mock_stream(0);
  int bad = 0, i, points = 0, dev;
  size_t k;
  int64_t n;
  for (dev = 0; dev < 2; ++dev)
    for (k = 0; k < sizeof ms / sizeof ms[0]; ++k)
      for (n = 1; n <= 32769; n += n < 64 ? 1 : n / 64 + 1) {
        int want = expected(meta, n), got = config(mock_stream(dev), ms[k], n);
        ++points;
        if (got != want) {
          printf("%s device %d M=%lld N=%lld: config %d (TILE_N %ld), expected %d (TILE_N %ld)\n", name, dev,
                 (long long)ms[k], (long long)n, got, tile_n(meta, got), want, tile_n(meta, want));
          ++bad;
        }
      }
  for (k = 0; k < sizeof ms / sizeof ms[0]; ++k) {
    for (i = 0; i < (int)(sizeof named / sizeof named[0]); ++i) {
      int c = config(s, ms[k], named[i]), want = expected(meta, named[i]);
      CUresult r;
      char entry[80] = "-";
      mock.launches = 0;
      r = launch(name, s, ms[k], named[i]);
      if (mock.launches == 1) snprintf(entry, sizeof entry, "%s", mock.last.entry);
      if (ms[k] == 4096)
        printf("%s N=%lld: config %d TILE_N %ld, launch %d entry %s\n", name, (long long)named[i], c, tile_n(meta, c),
               (int)r, entry);
      /* The launch ran the chosen configuration's entry (k_config<c>, or its _v16 variant). */
      if (c != want || (c >= 0 && (r != CUDA_SUCCESS || strncmp(entry, name, strlen(name)) != 0 ||
                                   atoi(entry + strlen(name) + strlen("_config")) != c)) ||
          (c < 0 && (r != CUDA_ERROR_INVALID_VALUE || mock.launches != 0))) {
        printf("%s M=%lld N=%lld: config %d, launch %d entry %s\n", name, (long long)ms[k], (long long)named[i], c,
               (int)r, entry);
        ++bad;
      }
    }
  }
  printf("%s: %d configurations, %d points, %d mismatches\n", name, meta->num_configs, points, bad);
  return bad;
}

int main(void) {
  int bad = 0;
  mock_reset();
  bad += check("softmax", &softmax_metadata, softmax_config);
  bad += check("layernorm", &layernorm_metadata, layernorm_config);
  bad += check("rmsnorm", &rmsnorm_metadata, rmsnorm_config);
  return bad != 0;
}
