#!/usr/bin/env bash
# Lead, session 15, call 3: run2.sh (check_offsets with dependent launches, silu_gate with and
# without PDL), then every sample's and test kernel's GPU check with the compiler's PDL build
# (tests/gpu/run_samples.sh's correctness part) and memcheck on the small sizes.
set -uo pipefail
cuda=/usr/local/cuda; hdr=gpu-build/full15
bash bench/results/2026-12-03-lead15-h200/run2.sh
for t in check_samples check_ops check_debug check_persistent; do
  g++ -O2 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/$t.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/$t || exit 1
done
for m in pass fail extent heads; do /tmp/check_debug $m >> $OUT/debug.txt 2>&1; done; echo "debug: $(grep -c ok $OUT/debug.txt) ok lines, $(grep -ci fail $OUT/debug.txt) fail-mentions"
timeout 150 /tmp/check_samples > $OUT/check.txt 2>&1; echo "check_samples rc=$? $(grep -c ' ok' $OUT/check.txt) ok $(grep -c FAIL $OUT/check.txt) FAIL"; grep FAIL $OUT/check.txt | head
timeout 60 /tmp/check_ops > $OUT/check_ops.txt 2>&1; echo "check_ops rc=$? $(grep -c FAIL $OUT/check_ops.txt) FAIL"; tail -1 $OUT/check_ops.txt
timeout 120 /tmp/check_persistent > $OUT/check_persistent.txt 2>&1; echo "check_persistent rc=$? $(grep -c FAIL $OUT/check_persistent.txt) FAIL"; tail -1 $OUT/check_persistent.txt
for t in check_samples check_persistent; do
  timeout 150 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/$t --small > $OUT/memcheck_$t.txt 2>&1; echo "memcheck $t rc=$?"; tail -1 $OUT/memcheck_$t.txt
done
