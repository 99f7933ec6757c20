#!/usr/bin/env bash
# Variants of the row kernels with other warp counts (the @kernel num_warps option), for the
# tuning table of bench/bench.py: headers under OUTDIR/variants/, prefixed v<name>_.
#   tests/gpu/make_variants.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-gpu-build}
tilec=${TILEC:-build/tilec}
mkdir -p "$out/variants"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The row and histogram variants are SASS for the H200 alone (-arch sm_90a; without mma loops
# the default target's sm_90a code is the same). Each row variant is listed in variants.txt as "<prefix> <shape> <kernel> <label>"; bench.py
# picks the input shape and the launch signature from <shape> and <kernel>.
variant() {  # sample defines warps shape name [min_ctas_per_sm] [label]
  local sample=$1 defines=$2 warps=$3 shape=$4 name=$5 extra="" label="tilec num_warps=$3"
  [ -n "${6:-}" ] && extra=", min_ctas_per_sm=$6" && label="$label, min_ctas_per_sm=$6"
  [ -n "${7:-}" ] && label="$label, $7"
  sed -E "s/^(@kernel\(grid=.*), num_warps=[0-9]+\)$/\1)/; s/^@kernel\(grid=(.*)\)$/@kernel(grid=\1, num_warps=$warps$extra)/" "$sample" > "$tmp/k.tile"
  grep -q "num_warps=$warps" "$tmp/k.tile" || { echo "make_variants: no @kernel(grid=...) in $sample" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$tilec" "$tmp/k.tile" -arch sm_90a $defines --prefix "v${name}_" -o "$out/variants/$name.h"
  echo "#include \"variants/$name.h\"" >> "$out/variants.h"
  echo "v${name}_ $shape $(basename "$sample" .tile) $label" >> "$out/variants.txt"
}
: > "$out/variants.h"
: > "$out/variants.txt"
sm16="-D T=f16 -D TILE_N=4096"
for w in 4 8 16; do variant samples/softmax.tile "$sm16" $w sm16 sm16_w$w; done
for w in 16 32; do variant samples/softmax.tile "-D T=f16 -D TILE_N=32768" $w sm16l sm16l_w$w; done
for w in 4 8 16; do variant samples/layernorm.tile "-D T=f16 -D TILE_N=4096" $w ln16 ln16_w$w; done
for w in 8 16; do variant samples/layernorm.tile "-D T=bf16 -D TILE_N=8192" $w lnbf lnbf_w$w; done
for flag in --fast-math --no-device-asserts; do
  name=${flag#--}
  variant samples/layernorm.tile "-D T=bf16 -D TILE_N=8192 $flag" 8 lnbf "lnbf_${name//-/_}" "" "$flag"
done
for w in 4 8 16; do variant samples/rmsnorm.tile "-D T=bf16 -D TILE_N=4096" $w rmsbf rmsbf_w$w; done

# Matmul tile configurations (bf16 and f16, the sizes in bench.py): prefixes mmv_<name>_ (bf16)
# and mmv16_<name>_ (f16), listed in matmul_variants.txt with a description. The portable path
# alone is -arch sm_80 (on the H200 the driver JIT-compiles its compute_80 PTX, stages planned
# for 99 KB); -arch sm_90 built it as sm_90 SASS until issue 16 made sm_90 mean sm_90a + sm_80.
: > "$out/matmul_variants.txt"
mm_variant() {  # name defines num_warps num_stages(0 = compiler's choice) description [arch]
  local name=$1 defines=$2 warps=$3 stages=$4 desc=$5 arch=${6:-sm_80} opts="num_warps=$3"
  [ "$stages" != 0 ] && opts="$opts, num_stages=$stages"
  sed "s/num_warps=WARPS)/$opts)/" samples/matmul.tile > "$tmp/matmul.tile"
  grep -q "$opts" "$tmp/matmul.tile" || { echo "make_variants: no num_warps=WARPS in matmul.tile" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$tilec" "$tmp/matmul.tile" -arch $arch -D T=bf16 $defines --prefix "mmv_${name}_" -o "$out/variants/mm_$name.h"
  # shellcheck disable=SC2086
  "$tilec" "$tmp/matmul.tile" -arch $arch -D T=f16 $defines --prefix "mmv16_${name}_" -o "$out/variants/mm16_$name.h"
  echo "#include \"variants/mm_$name.h\"" >> "$out/variants.h"
  echo "#include \"variants/mm16_$name.h\"" >> "$out/variants.h"
  echo "$name $desc" >> "$out/matmul_variants.txt"
}
mm_variant portable128 "-D BN=128" 4 3 "128x128x64, portable path alone (-arch sm_80, JIT on the H200: mma.sync, cp.async), 4 warps, 3 stages (the default until 2026-12-01)"
mm_variant portable256 "" 8 0 "128x256x64, portable path alone (-arch sm_80, JIT on the H200), 8 warps, stages as fit"
mm_variant tma128 "-D BN=128" 8 0 "128x128x64, tma_wgmma path (-arch sm_90a), 2 warpgroups, TMA stages as fit" sm_90a
mm_variant tma_bm64 "-D BM=64" 4 0 "64x256x64, tma_wgmma path (-arch sm_90a), 1 warpgroup, TMA stages as fit" sm_90a
# Histogram configurations (TILE values per tile, CTAS_PER_SM, @kernel options of `histogram`):
# prefixes vh_<name>_, listed in hist_variants.txt with a description.
: > "$out/hist_variants.txt"
hist_variant() {  # name defines kernel-options("" = none) description
  local name=$1 defines=$2 opts=$3 desc=$4
  if [ -n "$opts" ]; then
    sed -E "s/^(@kernel\(grid=\(min\(.*CTAS_PER_SM\),\)), num_warps=8\)$/\1, $opts)/" samples/histogram.tile > "$tmp/h.tile"
    grep -q "$opts" "$tmp/h.tile" || { echo "make_variants: no histogram @kernel line" >&2; exit 1; }
  else
    cp samples/histogram.tile "$tmp/h.tile"
  fi
  # shellcheck disable=SC2086
  "$tilec" "$tmp/h.tile" -arch sm_90a $defines --prefix "vh_${name}_" -o "$out/variants/hist_$name.h"
  echo "#include \"variants/hist_$name.h\"" >> "$out/variants.h"
  echo "$name $desc" >> "$out/hist_variants.txt"
}
hist_variant w4_c4 "-D CTAS_PER_SM=4" "num_warps=4" "TILE=4096, 4 CTAs per SM, 4 warps"
hist_variant w4_c6 "-D CTAS_PER_SM=6" "num_warps=4" "TILE=4096, 6 CTAs per SM, 4 warps"
hist_variant c4 "-D CTAS_PER_SM=4" "" "TILE=4096, 4 CTAs per SM, 8 warps"
hist_variant c5 "-D CTAS_PER_SM=5" "" "TILE=4096, 5 CTAs per SM, 8 warps"
hist_variant w16_c2 "-D CTAS_PER_SM=2" "num_warps=16" "TILE=4096, 2 CTAs per SM, 16 warps"
hist_variant t8k "-D TILE=8192 -D CTAS_PER_SM=4" "" "TILE=8192, 4 CTAs per SM, 8 warps"
hist_variant t2k_w4_c8 "-D TILE=2048 -D CTAS_PER_SM=8" "num_warps=4" "TILE=2048, 8 CTAs per SM, 4 warps"
echo "variants in $out/variants"
