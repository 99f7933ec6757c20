#!/usr/bin/env bash
# Build machine: the headers bench/grouped/run.sh needs, into gpu-run/grouped/ (ignored by git:
# carry it to the GPU machine). bf16 (the default T) with its configurations for the default
# target (sm_90a + sm_80), and the f16 build, checked for correctness only (issue 41: no fair peer).
#   bench/grouped/make.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/../.."
tilec=${1:-build}/tilec
mkdir -p gpu-run/grouped
"$tilec" samples/grouped_gemm.tile -o gpu-run/grouped/grouped_gemm.h
"$tilec" samples/grouped_gemm.tile -D T=f16 --prefix f16_ -o gpu-run/grouped/grouped_gemm_f16.h
ls -l gpu-run/grouped
