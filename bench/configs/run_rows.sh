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
NS=${NS:-768,1024,2048,4096,5120,8192,16384,32768}
MS=${MS:-4096,16384}
for k in ${KERNELS:-softmax layernorm rmsnorm}; do
  for t in ${DTYPES:-bf16 f32}; do
    gcc -O2 -shared -fPIC -x c gpu-run/rows/${k}_$t.h -I/usr/local/cuda/include -o /tmp/lib${k}_$t.so -lcuda || exit 1
    alt=()
    if [ -f gpu-run/rows/${k}_chunked_$t.h ]; then
      gcc -O2 -shared -fPIC -x c gpu-run/rows/${k}_chunked_$t.h -I/usr/local/cuda/include -o /tmp/lib${k}_chunked_$t.so -lcuda || exit 1
      alt=(--alt /tmp/lib${k}_chunked_$t.so)
    fi
    timeout 170 python3 bench/configs/rows.py --lib /tmp/lib${k}_$t.so --header gpu-run/rows/${k}_$t.h "${alt[@]}" \
      --kernel $k --dtype $t --ns "$NS" --ms "$MS" --reps ${REPS:-5} --out "$out/rows.jsonl" > "$out/${k}_$t.txt" 2>&1
    echo "$k $t: rc=$? ($(grep -c ' auto=' "$out/${k}_$t.txt") shapes)"; grep -iE "error|Traceback" "$out/${k}_$t.txt" | head -5
  done
done
python3 bench/configs/rows.py --table "$out/rows.jsonl" | tee "$out/table.txt"
