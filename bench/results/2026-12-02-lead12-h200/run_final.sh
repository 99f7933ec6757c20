#!/usr/bin/env bash
# Lead's final call (2026-12-02, session 12): main after merging lead12, fresh12 and spill12 —
# the GPU script's correctness half (tests/gpu/run_samples.sh without its benchmark) on headers
# of tests/gpu/make_headers.sh, plus check_shapes and check_persistent, each --small under
# memcheck (check_ops also racecheck), then the silu_gate fixed-cost probe.
set -uo pipefail
hdr=gpu-build/final12; cuda=/usr/local/cuda; out=$OUT/final; mkdir -p $out
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $out/gpu.txt; date -u >> $out/gpu.txt
for t in check_samples check_ops check_debug check_offsets check_persistent check_shapes; do
  g++ -O1 -std=c++17 -Wall -Wextra -I$hdr -Itests/gpu -I$cuda/include tests/gpu/$t.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/$t > $out/build_$t.txt 2>&1 &
done
wait
echo "build $(( $(date +%s) - t0 )) s"; ls /tmp/check_* | wc -l
for m in pass fail extent heads; do timeout 60 /tmp/check_debug $m >> $out/debug.txt 2>&1; echo "check_debug $m rc=$?"; done
tail -3 $out/debug.txt
for t in check_samples check_ops check_offsets check_persistent check_shapes; do
  timeout 300 /tmp/$t > $out/$t.txt 2>&1; echo "$t rc=$? $(( $(date +%s) - t0 )) s; $(grep -c ' ok' $out/$t.txt) ok; $(grep -ciE 'FAIL|wrong|mismatch' $out/$t.txt) fail-lines"
done
CUDA_FORCE_PTX_JIT=1 timeout 200 /tmp/check_samples --jit > $out/check_jit.txt 2>&1; echo "check_samples --jit rc=$? $(( $(date +%s) - t0 )) s"
for t in check_samples check_ops check_offsets check_persistent check_shapes; do
  timeout 120 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/$t --small > $out/memcheck_$t.txt 2>&1
  echo "memcheck $t rc=$? $(( $(date +%s) - t0 )) s: $(tail -1 $out/memcheck_$t.txt)"
done
timeout 120 $cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 3 /tmp/check_ops --small > $out/racecheck_ops.txt 2>&1
echo "racecheck check_ops rc=$?: $(tail -1 $out/racecheck_ops.txt)"
echo '#include "silu_gate.h"' | gcc -O1 -shared -fPIC -x c -I$hdr -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libsg.so
PYTHONUNBUFFERED=1 timeout 90 python3 $hdr/probe.py /tmp/libsg.so 2000 2>&1 | tee $out/probe.txt | grep -v Warning
echo "total $(( $(date +%s) - t0 )) s"
cd $OUT && tar czf final.tgz final && rm -rf final
