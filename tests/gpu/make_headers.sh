#!/usr/bin/env bash
# Compiles the samples the GPU checks and the benchmark use into headers under OUTDIR (default
# gpu-build/), for the device machine, which has no tilec. Run after tools/build.sh.
#   tests/gpu/make_headers.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-gpu-build}
tilec=${TILEC:-build/tilec}
mkdir -p "$out"
arch=(-arch sm_90)
"$tilec" samples/vector_add.tile "${arch[@]}" -o "$out/vector_add.h"
"$tilec" samples/gelu_bias.tile "${arch[@]}" -o "$out/gelu_bias.h"
for t in 1k:1024 2k:2048 4k:4096; do
  name=${t%%:*}; tile=${t##*:}
  "$tilec" samples/vector_add.tile "${arch[@]}" -D TILE=$tile --prefix "t${name}_" -o "$out/vector_add_t$name.h"
  "$tilec" samples/gelu_bias.tile "${arch[@]}" -D TILE=$tile --prefix "t${name}_" -o "$out/gelu_bias_t$name.h"
done
"$tilec" samples/gelu_bias.tile "${arch[@]}" --fast-math --prefix fast_ -o "$out/gelu_bias_fast.h"
# PTX and SASS resource reports for the results table
for s in vector_add gelu_bias; do
  "$tilec" samples/$s.tile "${arch[@]}" --emit=ptx -o "$out/$s.ptx"
  ${CUDA_PATH:-/usr/local/cuda}/bin/ptxas -arch=sm_90 -v "$out/$s.ptx" -o "$out/$s.cubin" 2> "$out/$s.ptxas.txt"
done
"$tilec" tests/gpu/ops.tile "${arch[@]}" -o "$out/ops.h"
"$tilec" tests/gpu/ops.tile "${arch[@]}" --fast-math --prefix fast_ -o "$out/ops_fast.h"
cp examples/vector_add_main.c "$out/"
echo "headers in $out"
