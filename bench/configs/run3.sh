#!/usr/bin/env bash
# Session 19, call 3 (GPU machine): issue 38. The heuristic with the tile-efficiency term
# (driver/configs.h cta_work) and a denser table: tilec-tune appends M = 256..2048 to call 2's
# table (carried in gpu-run/tune), then the held-out M against F.linear for the header without a
# table and with the new one.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/gpu-run/tune/lib
tilec=$PWD/gpu-run/tune/bin/tilec
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
cp gpu-run/tune/matmul_bt.tuning "$out/matmul_bt.tuning"
python3 tools/tune/tilec_tune.py samples/matmul_bt.tile -D T=bf16 --tilec $tilec --shapes bench/configs/matmul_bt-tune2.shapes \
  --reps ${REPS:-7} --append -o "$out/matmul_bt.tuning" 2>&1 | tee "$out/tune2.txt" | tail -3
$tilec samples/matmul_bt.tile -D T=bf16 --tuning "$out/matmul_bt.tuning" -o /tmp/matmul_bt_tuned.h || exit 1
$tilec samples/matmul_bt.tile -D T=bf16 -o /tmp/matmul_bt.h || exit 1
gcc -O2 -shared -fPIC -x c /tmp/matmul_bt.h -I/usr/local/cuda/include -o /tmp/libh.so -lcuda || exit 1
gcc -O2 -shared -fPIC -x c /tmp/matmul_bt_tuned.h -I/usr/local/cuda/include -o /tmp/libt.so -lcuda || exit 1
NK=${NK:-4096x4096,1024x4096,28672x4096,4096x14336}
for v in h t; do
  label=$([ $v = t ] && echo heldout-table || echo heldout-heuristic)
  python3 bench/configs/gemm.py --lib /tmp/lib$v.so --kernel matmul_bt --nk $NK --ms 77,1000,3000,5555,8191 --reps 5 \
    --label $label --out "$out/matmul_bt.jsonl" 2>&1 | tee "$out/$label.txt"
done
