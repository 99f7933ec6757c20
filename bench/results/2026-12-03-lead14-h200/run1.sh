#!/usr/bin/env bash
# Lead, session 14, call 1: probe5.py (Triton variants of silu_gate's memory traffic) and ncu
# counters of tilec's sample and Triton's kernel at 8192x4096.
set -uo pipefail
hdr=gpu-build/sg14; cuda=/usr/local/cuda; P=bench/results/2026-12-03-lead14-h200
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee $OUT/gpu.txt
echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -I$hdr -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libsg.so || exit 1
PYTHONUNBUFFERED=1 timeout 330 python3 $P/probe5.py /tmp/libsg.so 1500 2 2>&1 | grep -v Warning | tee $OUT/probe5.txt
timeout 150 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__cycles_active.avg,sm__ctas_launched.sum python3 $P/ncu_one.py /tmp/libsg.so > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E "silu_gate|duration|bytes|sectors|warps_active|throughput|ctas" $OUT/ncu.txt | tail -40
