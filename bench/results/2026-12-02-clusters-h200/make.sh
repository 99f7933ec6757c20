#!/usr/bin/env bash
# Lead, 2026-12-02 (session 10): headers for the cluster call (run here, from /work/wt-lead).
set -euo pipefail
T=/work/wt-lead/build/tilec
cd /work/wt-lead
O=/work/main/gpu-build/lead/c
mkdir -p $O/variants
$T samples/matmul.tile -D T=f16 -arch sm_90a --prefix mm16_ -o $O/matmul_f16.h &
$T samples/matmul.tile -D T=bf16 -arch sm_90a --prefix mmbf_ -o $O/matmul_bf16.h &
wait
$T samples/matmul_bias_relu.tile -D T=bf16 -arch sm_90a --prefix mbrbf_ -o $O/matmul_bias_relu_bf16.h &
$T samples/matmul_bt.tile -arch sm_90a --prefix mmbt_ -o $O/matmul_bt.h &
wait
# Isolation variants: the same sample without clusters (cluster=1).
sed 's/num_warps=WARPS)/num_warps=WARPS, cluster=1)/' samples/matmul.tile > /tmp/matmul_c1.tile
grep -q "cluster=1" /tmp/matmul_c1.tile
$T /tmp/matmul_c1.tile -D T=bf16 -arch sm_90a --prefix mmv_c1_ -o $O/variants/mm_bf16_c1.h &
$T /tmp/matmul_c1.tile -D T=f16 -arch sm_90a --prefix mmv16_c1_ -o $O/variants/mm_f16_c1.h &
wait
$T tests/gpu/persistent.tile -arch sm_90a -o $O/persistent.h
cp tests/gpu/check_persistent.cpp $O/
printf '#include "variants/mm_bf16_c1.h"\n#include "variants/mm_f16_c1.h"\n' > $O/variants.h
mkdir -p $O/lead
echo "c1 the same sample with cluster=1 (persistent, no clusters)" > $O/lead/matmul_variants.txt
touch $O/lead/variants.txt
cp /work/main/gpu-build/lead/p/bench_lead.c $O/
ls -la $O
