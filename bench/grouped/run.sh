#!/usr/bin/env bash
# GPU machine: samples/grouped_gemm.tile against torch._grouped_mm (grouped.py), from the
# headers bench/grouped/make.sh wrote into gpu-run/grouped/. Results in $OUT (default /tmp/out):
# gpu.txt (card, driver, torch), grouped.jsonl (one line per point), grouped.txt (the log).
#   bench/grouped/run.sh            WORKLOADS=big,small ROWS=8192,32768 REPS=9 CONFIGS=1
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())" | tee -a "$out/gpu.txt"
for h in grouped_gemm grouped_gemm_f16; do
  gcc -O2 -shared -fPIC -x c gpu-run/grouped/$h.h -I/usr/local/cuda/include -o /tmp/lib$h.so -lcuda || exit 1
done
status=0
python3 bench/grouped/check.py --lib /tmp/libgrouped_gemm.so 2>&1 | tee "$out/check-bf16.txt" || status=1
python3 bench/grouped/check.py --lib /tmp/libgrouped_gemm_f16.so --prefix f16_ --dtype f16 2>&1 | tee "$out/check-f16.txt" || status=1
python3 bench/grouped/grouped.py --lib /tmp/libgrouped_gemm.so --workloads "${WORKLOADS:-big,small}" \
  --rows "${ROWS:-8192,32768}" --reps "${REPS:-9}" ${CONFIGS:+--configs} --out "$out/grouped.jsonl" \
  2>&1 | tee "$out/grouped.txt" || status=1
exit $status
