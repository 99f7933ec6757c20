#!/usr/bin/env bash
# On the GPU machine: correctness of every compiled sample (full sizes, then the small ragged
# sizes under compute-sanitizer memcheck), the README's C example, then the benchmark.
# Headers come from tests/gpu/make_headers.sh (carried in gpu-build/).
#   tests/gpu/run_samples.sh [HEADERDIR] [OUTDIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
hdr=${1:-gpu-build}
out=${2:-${OUT:-/tmp/tilec-gpu}}
mkdir -p "$out"
cuda=${CUDA_PATH:-/usr/local/cuda}
status=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$out/gpu.txt"
g++ -O2 -std=c++17 -Wall -Wextra -I"$hdr" -I"$cuda/include" tests/gpu/check_samples.cpp \
  -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/check_samples || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I"$hdr" -I"$cuda/include" tests/gpu/check_ops.cpp \
  -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/check_ops || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I"$hdr" -I"$cuda/include" tests/gpu/check_debug.cpp \
  -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/check_debug || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I"$hdr" -I"$cuda/include" tests/gpu/check_offsets.cpp \
  -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/check_offsets || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I"$hdr" -I"$cuda/include" tests/gpu/check_offsets_mm.cpp \
  -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/check_offsets_mm || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I"$hdr" -I"$cuda/include" tests/gpu/check_persistent.cpp \
  -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/check_persistent || exit 1
echo "== correctness (full sizes)"
/tmp/check_debug pass > "$out/debug.txt" 2>&1 || status=1
/tmp/check_debug fail >> "$out/debug.txt" 2>&1 || status=1
/tmp/check_debug extent >> "$out/debug.txt" 2>&1 || status=1
/tmp/check_debug heads >> "$out/debug.txt" 2>&1 || status=1
cat "$out/debug.txt"
/tmp/check_samples 2>&1 | tee "$out/check.txt" || status=1
# The default target's PTX (compute_80, the portable path) as the driver JIT-compiles it for GPUs
# newer than the header's targets, forced here on the H200.
CUDA_FORCE_PTX_JIT=1 /tmp/check_samples --jit 2>&1 | tee "$out/check_jit.txt" || status=1
/tmp/check_ops 2>&1 | tee "$out/check_ops.txt" | grep -v " ok " || status=1
/tmp/check_offsets 2>&1 | tee "$out/check_offsets.txt" || status=1
/tmp/check_offsets_mm 2>&1 | tee "$out/check_offsets_mm.txt" || status=1
timeout 120 /tmp/check_persistent 2>&1 | tee "$out/check_persistent.txt" || status=1
echo "== compute-sanitizer memcheck (small ragged sizes)"
for t in check_samples check_ops check_offsets check_offsets_mm check_persistent; do
  "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 3 /tmp/$t --small > "$out/memcheck_$t.txt" 2>&1 \
    || status=1
  tail -1 "$out/memcheck_$t.txt"
done
"$cuda/bin/compute-sanitizer" --tool racecheck --error-exitcode 3 /tmp/check_ops --small > "$out/racecheck_ops.txt" 2>&1 \
  || status=1
tail -1 "$out/racecheck_ops.txt"
echo "== README example"
gcc -std=c99 -Wall -Wextra -Wpedantic -I"$hdr" -I"$cuda/include" "$hdr/vector_add_main.c" \
  -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda -o /tmp/vector_add_main && /tmp/vector_add_main | tee "$out/example.txt" \
  || status=1
echo "== benchmark"
gcc -O2 -shared -fPIC -I"$hdr" -I"$cuda/include" bench/tilec_kernels.c -L"$cuda/lib64/stubs" -lcuda \
  -o /tmp/libtilec_bench.so || exit 1
for s in vector_add gelu_bias; do cuobjdump --dump-sass "$hdr/$s.cubin" > "$out/$s.sass.txt" 2>&1; done
PYTHONUNBUFFERED=1 python3 bench/bench.py /tmp/libtilec_bench.so "$out/bench.md" "$hdr/variants.txt" 2>&1 \
  | tee "$out/bench.log" || status=1
if [ -n "${PROFILE:-}" ]; then
  echo "== ncu (layernorm and softmax f16, tilec vs Triton)"
  (cd bench && ncu --clock-control none --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,smsp__inst_executed.sum,smsp__average_warp_latency_issue_stalled_barrier.ratio,launch__block_size \
     -k regex:"layernorm|softmax" -c 8 python3 profile_rows.py /tmp/libtilec_bench.so "$out") > "$out/ncu.txt" 2>&1
  grep -E "layernorm|softmax|duration|throughput|warps_active|registers|inst_executed|stalled|block_size" "$out/ncu.txt" | head -80
fi
exit $status
