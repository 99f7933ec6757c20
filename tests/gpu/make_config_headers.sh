#!/usr/bin/env bash
# Headers for tests/gpu/check_configs.cpp: the GEMM samples with their configurations, bf16.
#   tests/gpu/make_config_headers.sh TILEC OUTDIR
set -euo pipefail
tilec=$1 out=$2
mkdir -p "$out"
"$tilec" samples/matmul_bt.tile -D T=bf16 --prefix cfg_ -o "$out/cfg_matmul_bt.h"
"$tilec" samples/matmul.tile -D T=bf16 --prefix cfg_ -o "$out/cfg_matmul.h"
