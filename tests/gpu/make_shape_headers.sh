#!/usr/bin/env bash
# Compiles issue 16's shape samples (batched, decode, split-K) and their tile configurations into
# headers under OUTDIR (default gpu-build/) for tests/gpu/check_shapes.cpp and the benchmark's
# "shapes" section (bench/tilec_shapes.h lists them). tests/gpu/make_headers.sh runs it too.
#   tests/gpu/make_shape_headers.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-gpu-build}
tilec=${TILEC:-build/tilec}
mkdir -p "$out"
# The default target (-arch sm_90: sm_90a SASS with the tma_wgmma path, sm_80 SASS, compute_80 PTX).
"$tilec" samples/batched_matmul.tile -D T=bf16 --prefix bmmbf_ -o "$out/batched_matmul_bf16.h"
"$tilec" samples/batched_matmul.tile -D T=bf16 -D BN=128 --prefix bmmbf128_ -o "$out/batched_matmul_bf16_128.h"
"$tilec" samples/linear_decode.tile --prefix ld_ -o "$out/linear_decode.h"
"$tilec" samples/linear_decode.tile -D BK=64 --prefix ld64k_ -o "$out/linear_decode_bk64.h"
"$tilec" samples/linear_decode.tile -D BK=256 --prefix ld256k_ -o "$out/linear_decode_bk256.h"
"$tilec" samples/linear_decode.tile -D MT=64 --prefix ldm64_ -o "$out/linear_decode_m64.h"
"$tilec" samples/matmul_splitk.tile --prefix sk_ -o "$out/matmul_splitk.h"
"$tilec" samples/matmul_splitk.tile -D SP=8 --prefix sksp8_ -o "$out/matmul_splitk_sp8.h"
"$tilec" samples/matmul_splitk.tile -D BN=256 --prefix sk256_ -o "$out/matmul_splitk_256.h"
"$tilec" samples/matmul_splitk.tile -D BM=64 -D BN=256 --prefix sk64x256_ -o "$out/matmul_splitk_64x256.h"
"$tilec" samples/matmul_splitk.tile -D BM=256 -D BN=128 --prefix sk256x128_ -o "$out/matmul_splitk_256x128.h"
echo "shape headers in $out"
