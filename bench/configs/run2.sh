#!/usr/bin/env bash
# Session 19, call 2 (GPU machine): issue 38. tilec-tune makes matmul_bt's tuning table on this
# GPU (the carried tilec builds the header it times); the header is built again with the table
# embedded; then gemm.py times the launch's choice against F.linear at the held-out M, for the
# header without a table (heuristic) and with it, in one process each.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/gpu-run/tune/lib
tilec=$PWD/gpu-run/tune/bin/tilec
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
python3 tools/tune/tilec_tune.py samples/matmul_bt.tile -D T=bf16 --tilec $tilec --shapes bench/configs/matmul_bt-tune.shapes \
  --reps ${REPS:-7} -o "$out/matmul_bt.tuning" 2>&1 | tee "$out/tune.txt" | tail -40
$tilec samples/matmul_bt.tile -D T=bf16 --tuning "$out/matmul_bt.tuning" -o /tmp/matmul_bt_tuned.h || exit 1
$tilec samples/matmul_bt.tile -D T=bf16 -o /tmp/matmul_bt.h || exit 1
gcc -O2 -shared -fPIC -x c /tmp/matmul_bt.h -I/usr/local/cuda/include -o /tmp/libh.so -lcuda || exit 1
gcc -O2 -shared -fPIC -x c /tmp/matmul_bt_tuned.h -I/usr/local/cuda/include -o /tmp/libt.so -lcuda || exit 1
echo "== host time of the choice (header with the table, then without)"
for h in /tmp/matmul_bt_tuned.h /tmp/matmul_bt.h; do
  d=$(mktemp -d); cp $h $d/matmul_bt.h
  gcc -O2 -I$d -I/usr/local/cuda/include bench/configs/launch_overhead.c -o /tmp/lo -lcuda && /tmp/lo | tee -a "$out/launch_overhead.txt"
done
NK=${NK:-4096x4096,1024x4096,28672x4096}
for v in t h; do
  label=$([ $v = t ] && echo heldout-table || echo heldout-heuristic)
  python3 bench/configs/gemm.py --lib /tmp/lib$v.so --kernel matmul_bt --nk $NK --ms 77,1000,3000,5555,8191 --reps 5 \
    --label $label --out "$out/matmul_bt.jsonl" 2>&1 | tee "$out/$label.txt"
done
