#!/usr/bin/env bash
# Lead, session 13, call 2: the GPU checks on headers of this session's tilec (launch divisors,
# tests/gpu/make_headers.sh gpu-build/final13): every check program full, then --small under
# memcheck (check_ops also racecheck).
set -uo pipefail
hdr=gpu-build/final13; cuda=/usr/local/cuda; out=$OUT/check; mkdir -p $out
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt; date -u >> $out/gpu.txt
for t in check_samples check_ops check_debug check_offsets check_persistent check_shapes; do
  g++ -O1 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/$t.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/$t > $out/build_$t.txt 2>&1 &
done
wait
echo "build $(( $(date +%s) - t0 )) s"; ls /tmp/check_* | wc -l
for m in pass fail extent heads; do timeout 60 /tmp/check_debug $m >> $out/debug.txt 2>&1; echo "check_debug $m rc=$?"; done
for t in check_samples check_ops check_offsets check_persistent check_shapes; do
  timeout 300 /tmp/$t > $out/$t.txt 2>&1; echo "$t rc=$? $(( $(date +%s) - t0 )) s; $(grep -c ' ok' $out/$t.txt) ok; $(grep -ciE 'FAIL|wrong [1-9]|mismatch' $out/$t.txt) fail-lines"
done
grep "launch divisor" $out/check_ops.txt | head -60
for t in check_samples check_ops check_offsets check_persistent check_shapes; do
  timeout 150 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/$t --small > $out/memcheck_$t.txt 2>&1
  echo "memcheck $t rc=$? $(( $(date +%s) - t0 )) s: $(tail -1 $out/memcheck_$t.txt)"
done
timeout 120 $cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/check_ops --small > $out/racecheck_ops.txt 2>&1
echo "racecheck check_ops rc=$?: $(tail -1 $out/racecheck_ops.txt)"
echo "total $(( $(date +%s) - t0 )) s"
