/* Exports the launch functions of bench/bench.py's f8 and tf32 sections (BENCH_ONLY=f8,tf32):
   samples/matmul_f8.tile (its tile configurations and the promoted accumulation), matmul_bt.tile
   for tf32, matmul.tile for f32 inputs on the portable path, transpose.tile and the i8 GEMM
   tests/gpu/i8.tile (two tile configurations), without the
   other samples' headers: tests/gpu/run_f8.sh builds it from tests/gpu/make_f8_headers.sh's. */
#include "matmul_f8.h"
#include "matmul_f8_promote.h"
#include "matmul_f8_bn128.h"
#include "matmul_bt_tf32.h"
#include "matmul_bt_tf32_bn256.h"
#include "matmul_tf32_portable.h"
#include "transpose_f32.h"
#include "i8.h"
#include "i8_bn256.h"
