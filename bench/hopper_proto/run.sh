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
T0=$SECONDS; BUDGET=${BUDGET:-200}   # stop starting new steps past this many seconds
step() {  # step NAME ARGS...: one bench.py process under a 60 s hang guard
  local name=$1; shift
  if (( SECONDS - T0 > BUDGET )); then echo "[$name] skipped (budget)" | tee -a "$OUT/log.txt"; return; fi
  timeout 60 python3 bench.py --dir build --json "$J" --log "$L" "$@" 2>&1 | tee -a "$OUT/log.txt"
  echo "[$name] exit ${PIPESTATUS[0]} at ${SECONDS}s" | tee -a "$OUT/log.txt"
}
if [ "${MODE:-full}" = rr ]; then   # second pass: ablation check + one round-robin timing of all bf16 kernels
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
      --format=csv -lms 500 > "$OUT/smi.csv" 2>&1 &
  SMI=$!
  step "s2 check" --variant all --names _s2 --dtypes bf16 --check
  step "rr bf16" --variant all --dtypes bf16 --rr ${SIZES:-4096,8192} --reps ${REPS:-20}
  kill $SMI
  python3 table.py "$J" | tee "$OUT/table.txt"
  exit 0
fi
VARIANTS=${VARIANTS:-"L3 L2 L4"}
for v in $VARIANTS; do
  step "$v bf16 check" --variant $v --dtypes bf16 --check
  step "$v time" --variant $v --time ${SIZES:-4096,8192}
done
for v in $VARIANTS; do
  step "$v f16 check" --variant $v --dtypes f16 --check
done
python3 table.py "$J" | tee "$OUT/table.txt"
