#!/usr/bin/env bash
# Compiles the samples the GPU checks and the benchmark use into headers under OUTDIR (default
# gpu-build/), for the device machine, which has no tilec. Run after tools/build.sh.
#   tests/gpu/make_headers.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-gpu-build}
tilec=${TILEC:-build/tilec}
mkdir -p "$out"
# No -arch: tilec's default target, what a plain `tilec k.tile -o k.h` builds (-arch sm_90): SASS
# for sm_90a (the H200 runs it: the tma_wgmma path where a kernel has one, else the portable
# path) and for sm_80, and the PTX of sm_80 (compute_80) for newer GPUs.
arch=()
"$tilec" samples/vector_add.tile "${arch[@]}" -o "$out/vector_add.h"
"$tilec" samples/gelu_bias.tile "${arch[@]}" -o "$out/gelu_bias.h"
for t in 1k:1024 2k:2048 4k:4096; do
  name=${t%%:*}; tile=${t##*:}
  "$tilec" samples/vector_add.tile "${arch[@]}" -D TILE=$tile --prefix "t${name}_" -o "$out/vector_add_t$name.h"
  "$tilec" samples/gelu_bias.tile "${arch[@]}" -D TILE=$tile --prefix "t${name}_" -o "$out/gelu_bias_t$name.h"
done
"$tilec" samples/gelu_bias.tile "${arch[@]}" --fast-math --prefix fast_ -o "$out/gelu_bias_fast.h"
# PTX and SASS resource reports for the results table (--emit=ptx writes the first target's:
# sm_90a's)
for s in vector_add gelu_bias; do
  "$tilec" samples/$s.tile "${arch[@]}" --emit=ptx -o "$out/$s.ptx"
  ${CUDA_PATH:-/usr/local/cuda}/bin/ptxas -arch=sm_90a -v "$out/$s.ptx" -o "$out/$s.cubin" 2> "$out/$s.ptxas.txt"
done
# ops.tile has f8 mma, which sm_80 lacks: SASS for the H200 alone.
"$tilec" tests/gpu/ops.tile -arch sm_90a -o "$out/ops.h"
"$tilec" tests/gpu/ops.tile -arch sm_90a --fast-math --prefix fast_ -o "$out/ops_fast.h"
"$tilec" tests/gpu/debug.tile "${arch[@]}" -o "$out/debug.h"
# Row kernels at the benchmark's sizes (whole rows in registers), and the others.
"$tilec" samples/softmax.tile "${arch[@]}" -D T=f32 -D TILE_N=4096 --prefix sm32_ -o "$out/softmax_f32.h"
"$tilec" samples/softmax.tile "${arch[@]}" -D T=f16 -D TILE_N=4096 --prefix sm16_ -o "$out/softmax_f16.h"
"$tilec" samples/softmax.tile "${arch[@]}" -D T=f16 -D TILE_N=32768 --prefix sm16l_ -o "$out/softmax_f16_32k.h"
"$tilec" samples/layernorm.tile "${arch[@]}" -D T=f16 -D TILE_N=4096 --prefix ln16_ -o "$out/layernorm_f16.h"
"$tilec" samples/layernorm.tile "${arch[@]}" -D T=bf16 -D TILE_N=8192 --prefix lnbf_ -o "$out/layernorm_bf16.h"
"$tilec" samples/layernorm.tile "${arch[@]}" -D T=f16 -D TILE_N=4096 -o "$out/layernorm_f16.cubin"
"$tilec" samples/layernorm.tile "${arch[@]}" -D T=bf16 -D TILE_N=8192 -o "$out/layernorm_bf16.cubin"
"$tilec" samples/rmsnorm.tile "${arch[@]}" -D T=bf16 -D TILE_N=4096 --prefix rmsbf_ -o "$out/rmsnorm_bf16.h"
"$tilec" samples/sum_rows.tile "${arch[@]}" -o "$out/sum_rows.h"
"$tilec" samples/transpose.tile "${arch[@]}" -o "$out/transpose.h"
# The tensor-core samples carry both code paths: tma_wgmma (sm_90a) and the portable one
# (sm_80 code, also the fallback on a 9.0 device for arrays TMA cannot take). That is the
# default target; before issue 16 it had to be asked for with -arch sm_90a -arch sm_80.
hopper=("${arch[@]}")
"$tilec" samples/matmul.tile "${hopper[@]}" -D T=f16 --prefix mm16_ -o "$out/matmul_f16.h"
"$tilec" samples/matmul.tile "${hopper[@]}" -D T=bf16 --prefix mmbf_ -o "$out/matmul_bf16.h"
"$tilec" samples/matmul.tile "${hopper[@]}" -D T=f32 --prefix mm32_ -o "$out/matmul_tf32.h"
"$tilec" samples/matmul_bias_relu.tile "${hopper[@]}" -D T=bf16 --prefix mbrbf_ -o "$out/matmul_bias_relu_bf16.h"
"$tilec" samples/matmul_bias_relu.tile "${hopper[@]}" -D T=f16 --prefix mbr16_ -o "$out/matmul_bias_relu_f16.h"
"$tilec" samples/batched_matmul.tile "${hopper[@]}" -o "$out/batched_matmul.h"
# Epilogues (residual, row and column scales with f32 output, two outputs), bf16 and f16.
"$tilec" samples/matmul_epilogue.tile "${hopper[@]}" --prefix ep_ -o "$out/matmul_epilogue.h"
"$tilec" samples/matmul_epilogue.tile "${hopper[@]}" -D T=f16 --prefix ep16_ -o "$out/matmul_epilogue_f16.h"
"$tilec" samples/matmul.tile "${hopper[@]}" -D T=i8 --prefix mmi8_ -o "$out/matmul_i8.h"
"$tilec" samples/matmul_bt.tile "${hopper[@]}" --prefix mmbt_ -o "$out/matmul_bt.h"
"$tilec" tests/gpu/hopper.tile "${hopper[@]}" -o "$out/hopper.h"
"$tilec" tests/gpu/persistent.tile "${hopper[@]}" -o "$out/persistent.h"
"$tilec" samples/matmul.tile -arch sm_90a -D T=bf16 -o "$out/matmul_bf16_sm90a.cubin"
"$tilec" samples/matmul.tile -arch sm_90a -D T=bf16 -D BN=256 -D WARPS=8 -o "$out/matmul_bf16_bn256_sm90a.cubin"
# samples/attention.tile (kernels attention and attention_lse): check_samples --only=attention,
# check_debug heads. attention.h and attpc128_ are the portable path through the driver's JIT:
# -arch sm_80 headers hold sm_80 SASS, which a 9.0 device cannot run, and compute_80 PTX, which
# the driver compiles for it, as it does on GPUs newer than the header's targets.
portable=(-arch sm_80)
"$tilec" samples/attention.tile "${portable[@]}" -o "$out/attention.h"
{
  "$tilec" samples/attention.tile "${portable[@]}" -D T=bf16 -D D=128 -D CAUSAL=True -D BN=32 --prefix attpc128_ \
    -o "$out/attention_portable_causal_d128.h"
  "$tilec" samples/attention.tile "${hopper[@]}" -D T=bf16 --prefix attbf_ -o "$out/attention_bf16.h"
  "$tilec" samples/attention.tile "${hopper[@]}" -D CAUSAL=True --prefix attc_ -o "$out/attention_causal.h"
  "$tilec" samples/attention.tile "${hopper[@]}" -D T=bf16 -D D=128 -D CAUSAL=True --prefix attc128_ \
    -o "$out/attention_causal_d128.h"
  "$tilec" samples/attention.tile "${hopper[@]}" -D D=128 --prefix att128_ -o "$out/attention_d128.h"
}
printf '#include "attention_portable_causal_d128.h"\n#include "attention_bf16.h"\n#include "attention_causal.h"\n#include "attention_causal_d128.h"\n#include "attention_d128.h"\n' \
  > "$out/attention_variants.h"
"$tilec" samples/cumsum_rows.tile "${arch[@]}" -o "$out/cumsum_rows.h"
"$tilec" samples/cumsum_rows.tile "${arch[@]}" -D BM=16 -D BN=256 --prefix narrow_ -o "$out/cumsum_rows_narrow.h"
"$tilec" samples/histogram.tile "${arch[@]}" -o "$out/histogram.h"
"$tilec" samples/histogram.tile "${arch[@]}" -D NBINS=1024 --prefix h1k_ -o "$out/histogram_1k.h"
"$tilec" samples/embedding_gather.tile "${arch[@]}" -o "$out/embedding_gather.h"
"$tilec" samples/embedding_gather.tile "${arch[@]}" -D T=bf16 --prefix eg16_ -o "$out/embedding_gather_bf16.h"
# Loads and stores at element offsets: the test kernels (window_mm also on sm_90a, where the
# tma_wgmma path must decline it) and the two samples, with the benchmark's tile-size variants.
"$tilec" tests/gpu/offsets.tile "${hopper[@]}" -o "$out/offsets.h"
# ... and on the portable path (compute_80 PTX through the driver), whose cp.async pipelines
# copy tiles at element offsets (check_offsets runs the mma-loop kernels from both).
"$tilec" tests/gpu/offsets.tile "${portable[@]}" --prefix p80_ -o "$out/offsets_portable.h"
# mma loops with operands at run-time offsets of any alignment, per input type, on both paths
# (check_offsets_mm; issue 35's register-A case).
for d in "f16:" "bf16:-D T=bf16" "i8:-D T=i8 -D ACC=i32"; do
  name=${d%%:*}; defs=(${d#*:})
  "$tilec" tests/gpu/offsets_mm.tile "${hopper[@]}" "${defs[@]}" -Wno-wgmma --prefix "${name}_" -o "$out/offsets_mm_$name.h"
  "$tilec" tests/gpu/offsets_mm.tile "${portable[@]}" "${defs[@]}" --prefix "p80_${name}_" -o "$out/offsets_mm_p80_$name.h"
done
"$tilec" samples/stencil2d.tile "${arch[@]}" -o "$out/stencil2d.h"
"$tilec" samples/stencil2d.tile "${arch[@]}" -D WARPS=8 --prefix st8w_ -o "$out/stencil2d_8w.h"
"$tilec" samples/stencil2d.tile "${arch[@]}" -D BM=16 -D BN=128 -D WARPS=8 --prefix st16x128_ -o "$out/stencil2d_16x128.h"
"$tilec" samples/stencil2d.tile "${arch[@]}" -D BM=4 -D BN=512 -D WARPS=8 --prefix st4x512_ -o "$out/stencil2d_4x512.h"
"$tilec" samples/stencil2d.tile "${arch[@]}" -D BM=8 -D BN=128 --prefix st8x128_ -o "$out/stencil2d_8x128.h"
"$tilec" samples/stencil2d.tile "${arch[@]}" -D BM=4 -D BN=256 --prefix st4x256_ -o "$out/stencil2d_4x256.h"
"$tilec" samples/stencil2d.tile "${arch[@]}" -D BM=16 -D WARPS=8 --prefix st16x256_ -o "$out/stencil2d_16x256.h"
"$tilec" samples/stencil2d.tile "${arch[@]}" -D BN=512 -D WARPS=8 --prefix st8x512_ -o "$out/stencil2d_8x512.h"
"$tilec" samples/silu_gate.tile "${arch[@]}" -o "$out/silu_gate.h"
"$tilec" samples/silu_gate.tile "${arch[@]}" -D BN=1024 -D WARPS=4 --prefix sg1k_ -o "$out/silu_gate_1k.h"
"$tilec" samples/silu_gate.tile "${arch[@]}" -D WARPS=4 --prefix sg2k4w_ -o "$out/silu_gate_2k4w.h"
"$tilec" samples/silu_gate.tile "${arch[@]}" -D BN=4096 --prefix sg4k_ -o "$out/silu_gate_4k.h"
"$tilec" samples/silu_gate.tile "${arch[@]}" -D BN=4096 -D WARPS=16 --prefix sg4k16w_ -o "$out/silu_gate_4k16w.h"
# Issue 16's shapes (batched bf16, decode, split-K) and their tile configurations.
TILEC="$tilec" tests/gpu/make_shape_headers.sh "$out"
cp examples/vector_add_main.c "$out/"
echo "headers in $out"
