#!/usr/bin/env bash
# Lead's call 2: ncu of the clustered and the cluster=1 matmul (4096^3 bf16), where the time goes.
set -uo pipefail
C=gpu-build/lead/c; cuda=/usr/local/cuda
gcc -O2 -shared -fPIC -I$C -I$cuda/include $C/bench_lead.c -L$cuda/lib64/stubs -lcuda -o /tmp/libm.so
timeout 200 ncu --clock-control none -k regex:matmul_wgmma -s 2 -c 4 --section LaunchStats --section SpeedOfLight --section WarpStateStats --section Occupancy \
  python3 $C/prof.py /tmp/libm.so > $OUT/ncu.txt 2>&1
echo "ncu rc=$?"
grep -E "matmul_wgmma|Duration|Grid Size|Cluster|SM Busy|Compute \(SM\) Throughput|Memory Throughput|Stall|Warp Cycles Per Issued|Block Limit|Theoretical Occ|Achieved Occ" $OUT/ncu.txt | head -80
