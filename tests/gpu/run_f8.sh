#!/usr/bin/env bash
# On the GPU machine: the f8 and tf32 checks (check_f8.cpp: conversions, samples/matmul_f8.tile,
# matmul_bt.tile -D T=tf32), memcheck of their small shapes, the SASS of the f8 wgmma entry,
# then the f8 GEMM benchmark beside torch._scaled_mm and the tf32 one beside cuBLAS. Headers from tests/gpu/make_f8_headers.sh; results under $OUT.
#   tests/gpu/run_f8.sh [HEADERDIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
cuda=${CUDA_PATH:-/usr/local/cuda}; hdr=${1:-gpu-build}; out=${OUT:-/tmp/tilec-gpu}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt"
g++ -O2 -std=c++17 -I"$hdr" -I"$cuda/include" tests/gpu/check_f8.cpp -L"$cuda/lib64/stubs" -L"$cuda/lib64" -lcuda \
  -o /tmp/check_f8 &
gcc -O2 -shared -fPIC -I"$hdr" -I"$cuda/include" bench/tilec_dtypes.c -L"$cuda/lib64/stubs" -lcuda -o /tmp/libtilec_dtypes.so &
wait
echo "== check_f8"; timeout 100 /tmp/check_f8 > "$out/check_f8.txt" 2>&1; echo "rc=$?"; cat "$out/check_f8.txt"
echo "== memcheck check_f8 --small"
timeout 90 "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 3 /tmp/check_f8 --small \
  > "$out/memcheck_f8.txt" 2>&1; echo "rc=$?"; tail -2 "$out/memcheck_f8.txt"
echo "== SASS of the _wgmma entries"
for c in matmul_f8 matmul_bt_tf32 i8; do
  cuobjdump --dump-sass "$hdr/$c.cubin" 2>&1 | awk '/Function :/ { f = /_wgmma/ } f' \
    | grep -oE "[QHI]GMMA[.0-9A-Za-z]*|UTMALDG[.0-9A-Z]*|UTMASTG[.0-9A-Z]*| LDL| STL" | sort | uniq -c \
    > "$out/$c.wgmma-sass-counts.txt"
  echo "$c:"; cat "$out/$c.wgmma-sass-counts.txt"
done
echo "== bench (f8, tf32, i8)"
BENCH_ONLY=f8,tf32,i8 timeout 200 python3 bench/bench.py /tmp/libtilec_dtypes.so "$out/bench_f8.md" \
  > "$out/bench_f8.log" 2>&1; echo "rc=$?"; tail -5 "$out/bench_f8.log"; cat "$out/bench_f8.md"
