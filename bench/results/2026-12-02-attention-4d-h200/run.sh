#!/usr/bin/env bash
# One device call for attention-4d (issue 17): unpack the headers and the branch's harness
# sources, build, then in parallel check_samples --attention + check_debug heads and the
# sanitizers (memcheck --small, racecheck/synccheck --tiny); then the benchmark alone.
set -u
A=gpu-build/att4d
W=/tmp/w
cuda=${CUDA_PATH:-/usr/local/cuda}
mkdir -p $W && tar -xf $A/payload.tar.xz -C $W || exit 9
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee $OUT/run.log
echo "== build $(date -u +%T)" >> $OUT/run.log
g++ -O2 -std=c++17 -I$W/hdr -I$cuda/include $W/src/check_samples.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_samples &
g++ -O2 -std=c++17 -I$W/hdr -I$cuda/include $W/src/check_debug.cpp -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/check_debug &
wait
ls -la /tmp/check_samples /tmp/check_debug >> $OUT/run.log 2>&1
if [ -f $W/ab/ab.c ]; then
  gcc -O2 -std=c99 -I$W/ab -I$cuda/include $W/ab/ab.c -L$cuda/lib64/stubs -L$cuda/lib64 -lcuda -o /tmp/ab && \
    timeout 30 /tmp/ab 2>&1 | tee -a $OUT/run.log
fi
echo "== checks and sanitizers $(date -u +%T)" >> $OUT/run.log
( timeout 70 /tmp/check_samples --attention > $W/check.txt 2>&1; echo "check_samples rc=$?" >> $W/check.txt
  timeout 20 /tmp/check_debug heads >> $W/check.txt 2>&1; echo "check_debug heads rc=$?" >> $W/check.txt ) &
( S=$cuda/bin/compute-sanitizer
  timeout 40 $S --tool memcheck --error-exitcode 3 /tmp/check_samples --attention --small > $W/memcheck.txt 2>&1; echo "memcheck rc=$?" >> $W/memcheck.txt
  timeout 20 $S --tool racecheck --error-exitcode 3 /tmp/check_samples --tiny > $W/racecheck.txt 2>&1; echo "racecheck rc=$?" >> $W/racecheck.txt
  timeout 15 $S --tool synccheck --error-exitcode 3 /tmp/check_samples --tiny > $W/synccheck.txt 2>&1; echo "synccheck rc=$?" >> $W/synccheck.txt ) &
wait
cat $W/check.txt $W/memcheck.txt $W/racecheck.txt $W/synccheck.txt > $OUT/check.txt
grep -E "FAIL|rc=|PASSED|FAILED|ERROR SUMMARY|check_debug" $OUT/check.txt | tail -40
echo "== bench $(date -u +%T)" >> $OUT/run.log
[ -n "${SKIP_BENCH:-}" ] || (cd $W && ATTBENCH_SECONDS=1.5 PYTHONUNBUFFERED=1 timeout 110 python3 bench/attention.py $W/attbench $OUT/attention.md > $OUT/attention.log 2>&1)
echo "attention rc=$?" >> $OUT/run.log
echo "== end $(date -u +%T)" >> $OUT/run.log
tail -25 $OUT/attention.log
cat $OUT/run.log
