#!/usr/bin/env bash
# Lead's call 5: compute-sanitizer memcheck, racecheck, synccheck on check_persistent --small.
set -uo pipefail
P=gpu-build/lead/p; cuda=/usr/local/cuda
g++ -O1 -std=c++17 -I$P -Itests/gpu -I$cuda/include $P/check_persistent.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/cp > $OUT/b1.txt 2>&1
timeout 30 /tmp/cp --small > $OUT/check_small.txt 2>&1; echo "check rc=$?"; tail -1 $OUT/check_small.txt
for tool in memcheck racecheck synccheck; do
  timeout 120 $cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 /tmp/cp --small > $OUT/$tool.txt 2>&1
  echo "$tool rc=$?"; tail -1 $OUT/$tool.txt
done
