#!/usr/bin/env bash
# Compiles what tests/gpu/run_f8.sh needs into OUTDIR (default gpu-build/): the f8 conversion
# kernels and samples/matmul_f8.tile for sm_90a (f8 needs sm_89 or newer): e4m3 x e4m3, e5m2 x
# e4m3 (prefix e5_), the promoted accumulation (pr_), and for the benchmark the tile
# configurations 128x128 (bn128_) and 256x128 (bm256_); and the f8 GEMM's cubin for its SASS.
#   tests/gpu/make_f8_headers.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-gpu-build}
tilec=${TILEC:-build/tilec}
mkdir -p "$out"
"$tilec" tests/gpu/f8.tile -arch sm_90a -o "$out/f8.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -Wno-spills -o "$out/matmul_f8.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -Wno-spills -D TA=f8e5m2 --prefix e5_ -o "$out/matmul_f8_e5m2.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -D PROMOTE=True -D BN=128 --prefix pr_ -o "$out/matmul_f8_promote.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -D BN=128 --prefix bn128_ -o "$out/matmul_f8_bn128.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -D BM=256 -D BN=128 --prefix bm256_ -o "$out/matmul_f8_bm256.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -Wno-spills --emit=cubin -o "$out/matmul_f8.cubin"
