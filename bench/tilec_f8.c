/* Exports samples/matmul_f8.tile's launch function for bench/bench.py's f8 section
   (BENCH_ONLY=f8), without the other samples' headers: tests/gpu/run_f8.sh builds it. */
#include "matmul_f8.h"
