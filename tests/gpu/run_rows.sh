#!/usr/bin/env bash
# On the GPU machine, each step bounded so that a short device budget still returns results:
# sample correctness, the row and misc benchmarks with the tuning variants, an Nsight Compute
# profile of the layernorms (tilec beside Triton, whose PTX and SASS are kept; NO_NCU=1 skips
# it), memcheck.
#   tests/gpu/run_rows.sh [HEADERDIR]   (headers from make_headers.sh + make_variants.sh)
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/gpu/common.sh "${1:-gpu-build}" check_samples
echo "== check_samples"; timeout 120 /tmp/check_samples > "$out/check.txt" 2>&1; echo "rc=$?"
grep -E "FAIL|PASSED|failure" "$out/check.txt" | head -20
echo "== bench (${BENCH_ONLY:=rows,misc,variants})"
BENCH_ONLY=$BENCH_ONLY timeout "${BENCH_TIMEOUT:-240}" python3 bench/bench.py /tmp/libtilec_bench.so "$out/bench.md" "$hdr/variants.txt" \
  > "$out/bench.log" 2>&1; echo "rc=$?"; grep -vE "^\s*$" "$out/bench.log" | cut -c1-150 | tail -60
if [ -z "${NO_NCU:-}" ]; then
echo "== ncu (layernorm f16 and bf16, tilec and Triton)"
(cd bench && timeout 180 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
   --section WarpStateStats --section InstructionStats --section SchedulerStats --section MemoryWorkloadAnalysis \
   -k regex:layernorm -c 4 python3 profile_rows.py /tmp/libtilec_bench.so "$out") > "$out/ncu_layernorm.txt" 2>&1
echo "rc=$?"; grep -E "layernorm|Duration|Registers Per|Achieved Occupancy|Executed Instructions |Memory Throughput|Warp Cycles Per Issued" "$out/ncu_layernorm.txt" | head -60
for f in "$out"/triton_*.cubin "$hdr"/layernorm_*.cubin; do
  [ -f "$f" ] && cuobjdump --dump-sass "$f" > "$out/$(basename "$f" .cubin).sass" 2>&1
done
# One archive for the PTX and SASS (the device tool returns a limited number of files).
(cd "$out" && tar czf listings.tar.gz ./*.ptx ./*.sass 2>/dev/null && rm -f ./*.ptx ./*.sass ./*.cubin)
fi
echo "== memcheck check_samples --small"
timeout 150 "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 3 /tmp/check_samples --small \
  > "$out/memcheck_samples.txt" 2>&1; echo "rc=$?"; tail -2 "$out/memcheck_samples.txt"
