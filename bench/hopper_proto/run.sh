#!/bin/bash
# Build and run the Hopper GEMM prototype on the GPU machine in one go.
#   bash run.sh            (from bench/hopper_proto, or its copy .hopper_proto in the checkout)
# Writes $OUT/results.jsonl, $OUT/log.txt, $OUT/check.log and prints a table last.
# PTX is generated and assembled here if ptxas is found (else the carried cubins/ are used);
# libhp.so is built with gcc here if possible (else the carried one is used).
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT" build
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
if command -v ptxas >/dev/null && python3 gen.py build >/dev/null; then
  for f in build/*.ptx; do
    ptxas -arch=sm_90a -v "$f" -o "${f%.ptx}.cubin" 2>"${f%.ptx}.ptxas.txt" || { echo "ptxas failed: $f"; cat "${f%.ptx}.ptxas.txt"; }
  done
else
  cp cubins/*.cubin cubins/manifest.json build/
fi
[ -f build/manifest.json ] || cp cubins/manifest.json build/
gcc -std=c11 -O2 -shared -fPIC harness.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda \
    -o build/libhp.so 2>"$OUT/gcc.txt" || cp cubins/libhp.so build/
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee "$OUT/log.txt"
J="$OUT/results.jsonl"; L="$OUT/check.log"; rm -f "$J" "$L"
VARIANTS=${VARIANTS:-"L2 L3 L4"}
for v in $VARIANTS; do
  for d in bf16 f16; do
    timeout 60 python3 bench.py --dir build --variant $v --dtypes $d --check --json "$J" --log "$L" 2>&1 | tee -a "$OUT/log.txt"
    echo "[$v $d check] exit ${PIPESTATUS[0]}" | tee -a "$OUT/log.txt"
  done
done
for v in $VARIANTS; do
  timeout 60 python3 bench.py --dir build --variant $v --time ${SIZES:-4096,8192} --json "$J" --log "$L" 2>&1 | tee -a "$OUT/log.txt"
  echo "[$v time] exit ${PIPESTATUS[0]}" | tee -a "$OUT/log.txt"
done
python3 table.py "$J" | tee "$OUT/table.txt"
