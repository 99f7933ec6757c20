#!/usr/bin/env bash
# Lead's call 2 (2026-12-02, session 12): branch lead12 (by_target; batched_matmul persistent
# with num_stages=by_target(sm_90=4)). check_samples (full, then --small under memcheck),
# tests/gpu/run_shapes.sh (check_shapes, the shapes benchmark, sanitizers), the shapes
# benchmark a second time.
set -uo pipefail
H=gpu-build/lead12b; cuda=/usr/local/cuda
t0=$(date +%s)
g++ -O1 -std=c++17 -I$H -I$cuda/include tests/gpu/check_samples.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/check_samples > $OUT/b1.txt 2>&1
echo "build $(( $(date +%s) - t0 )) s"
{
timeout 150 /tmp/check_samples; echo "check_samples rc=$? $(( $(date +%s) - t0 )) s"
timeout 120 $cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 3 /tmp/check_samples --small > /tmp/mc.txt 2>&1
echo "check_samples --small memcheck rc=$? $(( $(date +%s) - t0 )) s"; tail -1 /tmp/mc.txt
} > $OUT/samples.txt 2>&1
grep -E "batched|FAIL|rc=|ERROR SUMMARY|PASSED|failure" $OUT/samples.txt | head -20
mkdir -p $OUT/shapes; OUT=$OUT/shapes bash tests/gpu/run_shapes.sh $H 2>&1 | tee $OUT/shapes.txt | grep -E "rc=|FAIL|PASSED|ERROR SUMMARY|hazards|batched" | head -30
echo "shapes $(( $(date +%s) - t0 )) s"
BENCH_ONLY=shapes timeout 150 python3 bench/bench.py /tmp/libtilec_shapes.so $OUT/bench2.md > $OUT/bench2.log 2>&1; echo "bench2 rc=$?"
grep batched $OUT/shapes/bench.md $OUT/bench2.md | cut -c1-220
echo "total $(( $(date +%s) - t0 )) s"
cd $OUT && tar czf shapes.tgz shapes && rm -rf shapes
