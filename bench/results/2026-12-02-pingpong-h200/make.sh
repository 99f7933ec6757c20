#!/usr/bin/env bash
# pp helper, 2026-12-02: headers for the ping-pong call (run here, from /work/wt-pp).
set -euo pipefail
T=/work/wt-pp/build/tilec
cd /work/wt-pp
O=/work/main/gpu-build/pp
mkdir -p $O/variants
$T samples/matmul.tile -D T=f16 -arch sm_90a --prefix mm16_ -o $O/matmul_f16.h &
$T samples/matmul.tile -D T=bf16 -arch sm_90a --prefix mmbf_ -o $O/matmul_bf16.h &
wait
# Variants: ping-pong (pingpong=True) with 128x128 and 64x256 tiles, cooperative 128x128.
sed 's/num_warps=WARPS)/num_warps=WARPS, pingpong=True)/' samples/matmul.tile > /tmp/matmul_pp.tile
grep -q "pingpong=True" /tmp/matmul_pp.tile
: > $O/variants.h
: > $O/matmul_variants.txt
for v in "pp128 -D BN=128|ping-pong 128x128" "pp64 -D BM=64 -D BN=256|ping-pong 64x256" "coop128 -D BN=128|cooperative 128x128"; do
  name=${v%% *}; rest=${v#* }; flags=${rest%%|*}; desc=${rest#*|}
  src=/tmp/matmul_pp.tile; [[ $name == coop* ]] && src=samples/matmul.tile
  $T $src -D T=bf16 $flags -arch sm_90a --prefix mmv_${name}_ -o $O/variants/mm_bf16_$name.h &
  $T $src -D T=f16 $flags -arch sm_90a --prefix mmv16_${name}_ -o $O/variants/mm_f16_$name.h &
  wait
  printf '#include "variants/mm_bf16_%s.h"\n#include "variants/mm_f16_%s.h"\n' $name $name >> $O/variants.h
  echo "$name $desc" >> $O/matmul_variants.txt
done
printf '#include "matmul_f16.h"\n#include "matmul_bf16.h"\n#include "variants.h"\n' > $O/bench_pp.c
$T tests/gpu/persistent.tile -arch sm_90a -o $O/persistent.h
cp tests/gpu/check_persistent.cpp bench/results/2026-12-02-pingpong-h200/bench_pp.py $O/
for f in $O/variants/*.h $O/matmul_*.h $O/persistent.h; do
  grep -q "_wgmma" $f || { echo "no wgmma entry in $f"; exit 1; }
done
ls -la $O
