#!/usr/bin/env bash
# Compiles what tests/gpu/run_f8.sh needs into OUTDIR (default gpu-build/): the f8 conversion
# kernels and samples/matmul_f8.tile (e4m3 x e4m3, and e5m2 x e4m3 with the prefix e5_), for
# sm_90a (f8 needs sm_89 or newer), and the f8 GEMM's cubin for its SASS.
#   tests/gpu/make_f8_headers.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-gpu-build}
tilec=${TILEC:-build/tilec}
mkdir -p "$out"
"$tilec" tests/gpu/f8.tile -arch sm_90a -o "$out/f8.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -o "$out/matmul_f8.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a -D TA=f8e5m2 --prefix e5_ -o "$out/matmul_f8_e5m2.h"
"$tilec" samples/matmul_f8.tile -arch sm_90a --emit=cubin -o "$out/matmul_f8.cubin"
