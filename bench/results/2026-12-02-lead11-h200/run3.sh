#!/usr/bin/env bash
# Lead's call 3 (2026-12-02, session 11): the staging ring. Correctness first (check_persistent:
# persistent ring-staged kernels bit-identical to one CTA per tile, ragged grids; check_f8 with
# the ring-staged matmul_f8; compute-sanitizer memcheck/racecheck/synccheck on the small
# shapes), then lead11c.py.
set -uo pipefail
H=gpu-build/lead11/h3; cuda=/usr/local/cuda; R=bench/results/2026-12-02-lead11-h200
t0=$(date +%s)
g++ -O1 -std=c++17 -I$H -I$cuda/include $H/check_persistent.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cp > $OUT/b1.txt 2>&1 &
g++ -O1 -std=c++17 -I$H/f8 -I$H -I$cuda/include $H/check_f8.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cf8 > $OUT/b2.txt 2>&1 &
echo '#include "all.h"' | gcc -O2 -shared -fPIC -x c -I$H -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lib3.so > $OUT/b3.txt 2>&1 &
wait
echo "build $(( $(date +%s) - t0 )) s"
{
timeout 100 /tmp/cp; echo "check_persistent rc=$?"
timeout 100 /tmp/cf8; echo "check_f8 rc=$?"
for tool in memcheck racecheck synccheck; do
  timeout 120 $cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 /tmp/cp --small > /tmp/san_$tool.txt 2>&1
  echo "check_persistent --small $tool rc=$?"; tail -1 /tmp/san_$tool.txt
done
echo "sanitizers done $(( $(date +%s) - t0 )) s"
timeout 250 python3 $R/lead11c.py /tmp/lib3.so /tmp/lead11c.md 2>&1 | tail -3; echo "bench rc=$? $(( $(date +%s) - t0 )) s"
cat /tmp/lead11c.md
} > $OUT/call3.txt 2>&1
grep -E "FAIL|PASSED|rc=|ERROR SUMMARY|hazard|build|done" $OUT/call3.txt | head -30
grep -E "^\|" $OUT/call3.txt
