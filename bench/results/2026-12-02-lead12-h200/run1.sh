#!/usr/bin/env bash
# Lead's call 1 (2026-12-02, session 12): issue 15's ping-pong kernels under check_persistent
# (full) and compute-sanitizer memcheck/racecheck/synccheck (--small); issue 21's focused
# silu_gate timing (focus.py); lead12a.py (the TMA-store ring's cost, relu vs torch.compile).
set -uo pipefail
H=gpu-build/lead12/h; cuda=/usr/local/cuda; R=bench/results/2026-12-02-lead12-h200
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/gpu.txt; date -u >> $OUT/gpu.txt
g++ -O1 -std=c++17 -I$H -Itests/gpu -I$cuda/include tests/gpu/check_persistent.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cp > $OUT/b1.txt 2>&1 &
( cd $H && for h in *.h; do [ $h = persistent.h ] || echo "#include \"$h\""; done ) | gcc -O1 -shared -fPIC -x c -I$H -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib1.so > $OUT/b2.txt 2>&1 &
wait
echo "build $(( $(date +%s) - t0 )) s"
{
timeout 100 /tmp/cp; echo "check_persistent rc=$? $(( $(date +%s) - t0 )) s"
for tool in memcheck racecheck synccheck; do
  timeout 100 $cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 /tmp/cp --small > /tmp/san_$tool.txt 2>&1
  echo "check_persistent --small $tool rc=$? $(( $(date +%s) - t0 )) s"; grep -c "ok\b\|same\|PASS" /tmp/san_$tool.txt; tail -2 /tmp/san_$tool.txt
done
cp $R/focus.py bench/bench.py /tmp/
PYTHONUNBUFFERED=1 timeout 120 python3 /tmp/focus.py /tmp/lib1.so 3000 2 2>&1; echo "focus rc=$? $(( $(date +%s) - t0 )) s"
PYTHONUNBUFFERED=1 timeout 330 python3 $R/lead12a.py /tmp/lib1.so /tmp/lead12a.md 2>&1 | grep -v "^|" | tail -8; echo "lead12a rc=$? $(( $(date +%s) - t0 )) s"
cat /tmp/lead12a.md
} > $OUT/call1.txt 2>&1
grep -E "FAIL|PASSED|rc=|ERROR SUMMARY|hazard|build|vs |torch.compile" $OUT/call1.txt | cut -c1-220 | head -40
grep -E "^\|" $OUT/call1.txt | cut -c1-200
