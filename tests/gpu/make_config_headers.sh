#!/usr/bin/env bash
# Headers for tests/gpu/check_configs.cpp: the samples that declare configurations, each with
# all of them, bf16 (matmul_f8: e4m3, -arch sm_90a, as f8 needs sm_89+): matmul_bt, matmul,
# matmul_bias_relu, batched_matmul, matmul_f8, and attention.tile for D 64 and 128, full and
# causal (both kernels), and D 128 with PERSISTENT=True (the tma_wgmma configurations on a
# persistent grid that reloads Q per tile). JOBS tilec runs at a time (default 2).
#   tests/gpu/make_config_headers.sh TILEC OUTDIR
set -euo pipefail
tilec=$1 out=$2
mkdir -p "$out"
builds=(
  "samples/matmul_bt.tile -D T=bf16 --prefix cfg_ -o $out/cfg_matmul_bt.h"
  "samples/matmul.tile -D T=bf16 --prefix cfg_ -o $out/cfg_matmul.h"
  "samples/matmul_bias_relu.tile -D T=bf16 --prefix cfg_ -o $out/cfg_matmul_bias_relu.h"
  "samples/batched_matmul.tile -D T=bf16 --prefix cfg_ -o $out/cfg_batched_matmul.h"
  "samples/matmul_f8.tile -arch sm_90a --prefix cfg_ -o $out/cfg_matmul_f8.h"
  "samples/attention.tile -D T=bf16 -D D=64 --prefix cfg_a64_ -o $out/cfg_attention_d64.h"
  "samples/attention.tile -D T=bf16 -D D=64 -D CAUSAL=True --prefix cfg_a64c_ -o $out/cfg_attention_d64_causal.h"
  "samples/attention.tile -D T=bf16 -D D=128 --prefix cfg_a128_ -o $out/cfg_attention_d128.h"
  "samples/attention.tile -D T=bf16 -D D=128 -D CAUSAL=True --prefix cfg_a128c_ -o $out/cfg_attention_d128_causal.h"
  "samples/attention.tile -D T=bf16 -D D=128 -D PERSISTENT=True -Wno-persistent --prefix cfg_a128p_ -o $out/cfg_attention_d128_persistent.h"
  "samples/attention.tile -D T=bf16 -D D=128 -D CAUSAL=True -D PERSISTENT=True -Wno-persistent --prefix cfg_a128pc_ -o $out/cfg_attention_d128_causal_persistent.h"
)
pids=()
for b in "${builds[@]}"; do
  read -ra args <<< "$b"
  "$tilec" "${args[@]}" -Werror -j 1 & pids+=($!)
  while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-2}" ]; do sleep 0.2; done
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
