#!/usr/bin/env bash
# Issue 38, on the build machine: the row kernels' headers for bench/configs/run_rows.sh, under
# gpu-run/rows/ (ignored by git; the GPU call carries it): softmax, layernorm and rmsnorm in
# bf16 and f32 with every configuration (default targets: sm_90a and sm_80), and softmax's
# chunked form (-D CHUNK=8192: rows past 8192 walked in chunks) for comparison.
#   bench/configs/make_rows.sh [TILEC]
set -euo pipefail
cd "$(dirname "$0")/../.."
tilec=${1:-build/tilec}
out=gpu-run/rows
mkdir -p "$out"
for k in softmax layernorm rmsnorm; do
  for t in bf16 f32; do
    "$tilec" samples/$k.tile -D T=$t -Werror -o "$out/${k}_$t.h"
  done
done
for t in bf16 f32; do
  "$tilec" samples/softmax.tile -D T=$t -D CHUNK=8192 -Werror -o "$out/softmax_chunked_$t.h"
done
ls -l "$out"
