#!/usr/bin/env bash
# Issue 38 (GPU machine): the row kernels, one header each with configurations over TILE_N
# (made on the build machine by bench/configs/make_rows.sh into gpu-run/rows/, carried), against
# the faster of F.* and torch.compile, with a device-to-device copy of the same bytes as the
# bandwidth bar: correctness of the launch's choice and of every configuration that takes N,
# then the protocol's timings (bench/configs/rows.py), then one table.
#   bench/configs/run_rows.sh          (OUT=dir for the results; KERNELS, DTYPES, NS, MS narrow it)
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)" | tee -a "$out/gpu.txt"
: > "$out/rows.jsonl"
runs=()
for k in ${KERNELS:-softmax layernorm rmsnorm}; do
  for t in ${DTYPES:-bf16 f32}; do
    gcc -O2 -shared -fPIC -x c gpu-run/rows/${k}_$t.h -I/usr/local/cuda/include -o /tmp/lib${k}_$t.so -lcuda || exit 1
    run=$k:$t:/tmp/lib${k}_$t.so:gpu-run/rows/${k}_$t.h
    if [ -f gpu-run/rows/${k}_chunked_$t.h ]; then
      gcc -O2 -shared -fPIC -x c gpu-run/rows/${k}_chunked_$t.h -I/usr/local/cuda/include -o /tmp/lib${k}_chunked_$t.so -lcuda || exit 1
      run=$run:/tmp/lib${k}_chunked_$t.so
    fi
    runs+=(--run "$run")
  done
done
# One process: torch.compile starts once. Shapes print as they finish (rows.txt).
timeout "${BENCH_TIMEOUT:-400}" python3 bench/configs/rows.py "${runs[@]}" --ns "${NS:-768,1024,2048,4096,5120,8192,16384,32768}" \
  --ms "${MS:-4096,16384}" --reps "${REPS:-5}" --out "$out/rows.jsonl" > "$out/rows.txt" 2>&1
echo "rows.py: rc=$? ($(grep -c ' auto=' "$out/rows.txt") shapes)"; grep -iE "error|Traceback" "$out/rows.txt" | head -8
python3 bench/configs/rows.py --table "$out/rows.jsonl" | tee "$out/table.txt"
