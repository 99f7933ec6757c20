/* Exports samples/matmul_f8.tile's launch functions (its tile configurations and the promoted
   accumulation) for bench/bench.py's f8 section (BENCH_ONLY=f8), without the other samples'
   headers: tests/gpu/run_f8.sh builds it from tests/gpu/make_f8_headers.sh's headers. */
#include "matmul_f8.h"
#include "matmul_f8_promote.h"
#include "matmul_f8_bn128.h"
#include "matmul_f8_bm256.h"
