#!/usr/bin/env bash
# Variants of the row kernels with other warp counts (the @kernel num_warps option), for the
# tuning table of bench/bench.py: headers under OUTDIR/variants/, prefixed v<name>_w<warps>_.
#   tests/gpu/make_variants.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-gpu-build}
tilec=${TILEC:-build/tilec}
mkdir -p "$out/variants"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
variant() {  # sample defines warps name [min_ctas_per_sm]
  local sample=$1 defines=$2 warps=$3 name=$4 extra=""
  [ -n "${5:-}" ] && extra=", min_ctas_per_sm=$5"
  sed "s/@kernel(grid=(M,))/@kernel(grid=(M,), num_warps=$warps$extra)/" samples/$sample.tile > "$tmp/$sample.tile"
  # shellcheck disable=SC2086
  "$tilec" "$tmp/$sample.tile" -arch sm_90 $defines --prefix "v${name}_w${warps}_" -o "$out/variants/${name}_w$warps.h"
  echo "#include \"variants/${name}_w$warps.h\"" >> "$out/variants.h"
  echo "${name} ${warps}" >> "$out/variants.txt"
}
: > "$out/variants.h"
: > "$out/variants.txt"
for w in 4 8 16; do variant softmax "-D T=f16 -D TILE_N=4096" $w sm16; done
for w in 16 32; do variant softmax "-D T=f16 -D TILE_N=32768" $w sm16l; done
for w in 4 8 16; do variant layernorm "-D T=f16 -D TILE_N=4096" $w ln16; done
for w in 8 16 32; do variant layernorm "-D T=bf16 -D TILE_N=8192" $w lnbf; done
for w in 4 8; do variant rmsnorm "-D T=bf16 -D TILE_N=4096" $w rmsbf; done
# Occupancy: a register cap through .minnctapersm (6 CTAs of 8 warps: at most 40 registers).
variant layernorm "-D T=f16 -D TILE_N=4096" 8 ln16m 6
variant layernorm "-D T=bf16 -D TILE_N=8192" 8 lnbfm 4
echo "variants in $out/variants"
