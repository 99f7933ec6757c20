#!/usr/bin/env bash
# Session 20, one device call (GPU machine): matmul_bt's choice with the split-K weight 2/S
# (run_splitk2.sh, gpu-run/cfg) then attention's and every sample's configurations
# (run_attn.sh, gpu-run/attn). Carry ["gpu-run/cfg", "gpu-run/attn"].
set -uo pipefail
cd "$(dirname "$0")/../.."
BENCH_S=100 bash bench/configs/run_splitk2.sh 2>&1 | tail -40
bash bench/configs/run_attn.sh
