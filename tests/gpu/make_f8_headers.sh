#!/usr/bin/env bash
# Compiles what tests/gpu/run_f8.sh needs into OUTDIR (default gpu-build/): the f8 conversion
# kernels and samples/matmul_f8.tile for sm_90a (f8 needs sm_89 or newer): e4m3 x e4m3, e5m2 x
# e4m3 (prefix e5_), the promoted accumulation (pr_), and for the benchmark the tile
# configurations of 128-wide tiles (bn128_); the f8 and tf32 GEMMs' cubins for their SASS; and
# tf32: matmul_bt.tile -D T=tf32 (prefix tf_; 128x256 tiles: tf256_), matmul.tile -D T=f32 (f32
# inputs cast to tf32 in the loop: the portable path; mm32_) and transpose.tile (f32); the i8
# GEMM tests/gpu/i8.tile (128x128 tiles; 128x256 as i8w_ for the benchmark) and its cubin.
#   tests/gpu/make_f8_headers.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-gpu-build}
tilec=${TILEC:-build/tilec}
mkdir -p "$out"
"$tilec" tests/gpu/f8.tile -arch sm_90a -o "$out/f8.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -o "$out/matmul_f8.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -D TA=f8e5m2 --prefix e5_ -o "$out/matmul_f8_e5m2.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -D PROMOTE=True -D BN=128 --prefix pr_ -o "$out/matmul_f8_promote.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -D BN=128 --prefix bn128_ -o "$out/matmul_f8_bn128.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a --emit=cubin -o "$out/matmul_f8.cubin"
"$tilec" samples/matmul_bt.tile -arch sm_90a -D T=tf32 --prefix tf_ -o "$out/matmul_bt_tf32.h"
"$tilec" samples/matmul_bt.tile -arch sm_90a -D T=tf32 -D BN=256 --prefix tf256_ -o "$out/matmul_bt_tf32_bn256.h"
"$tilec" samples/matmul.tile -arch sm_90a -D T=f32 --prefix mm32_ -o "$out/matmul_tf32_portable.h"
"$tilec" samples/transpose.tile -arch sm_90a -o "$out/transpose_f32.h"
"$tilec" samples/matmul_bt.tile -arch sm_90a -D T=tf32 --emit=cubin -o "$out/matmul_bt_tf32.cubin"
"$tilec" tests/gpu/i8.tile -arch sm_90a -o "$out/i8.h"
"$tilec" tests/gpu/i8.tile -arch sm_90a -D BN=256 --prefix i8w_ -o "$out/i8_bn256.h"
"$tilec" tests/gpu/i8.tile -arch sm_90a --emit=cubin -o "$out/i8.cubin"
