#!/usr/bin/env bash
# Session 17, call 1 (GPU machine): issue 35 item 1, the register-A wgmma race. check_offsets_mm
# against headers from the compiler before the fix (gpu-run/old: only offsets_mm_*.h) and after
# it (gpu-run/new), compute-sanitizer memcheck and initcheck on both, then check_offsets (the
# existing offset kernels) after the fix. Headers are made on the build machine
# (tests/gpu/make_headers.sh; the old ones by the parent commit's tilec) and carried.
set -uo pipefail
cd "$(dirname "$0")/../../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
cuda=/usr/local/cuda
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
for v in old new; do
  g++ -O2 -std=c++17 -Wall -Wextra -Igpu-run/$v -I$cuda/include tests/gpu/check_offsets_mm.cpp \
    -L$cuda/lib64/stubs -lcuda -o /tmp/check_offsets_mm_$v || exit 1
done
g++ -O2 -std=c++17 -Wall -Wextra -Igpu-run/new -I$cuda/include tests/gpu/check_offsets.cpp \
  -L$cuda/lib64/stubs -lcuda -o /tmp/check_offsets || exit 1
echo "== before the fix"
/tmp/check_offsets_mm_old > "$out/offsets_mm_old.txt" 2>&1; echo "exit $?" >> "$out/offsets_mm_old.txt"
grep -c " ok$" "$out/offsets_mm_old.txt"; grep FAIL "$out/offsets_mm_old.txt" | head -20; tail -1 "$out/offsets_mm_old.txt"
echo "== after the fix"
/tmp/check_offsets_mm_new > "$out/offsets_mm_new.txt" 2>&1; echo "exit $?" >> "$out/offsets_mm_new.txt"
grep -c " ok$" "$out/offsets_mm_new.txt"; grep FAIL "$out/offsets_mm_new.txt" | head -20; tail -2 "$out/offsets_mm_new.txt"
echo "== sanitizers (--small)"
for v in old new; do
  for tool in memcheck initcheck; do
    $cuda/bin/compute-sanitizer --tool $tool --error-exitcode 3 /tmp/check_offsets_mm_$v --small \
      > "$out/${tool}_$v.txt" 2>&1; echo "$tool $v exit $?: $(tail -1 "$out/${tool}_$v.txt")"
  done
done
echo "== check_offsets"
/tmp/check_offsets > "$out/check_offsets.txt" 2>&1; echo "exit $?"; grep -c " ok" "$out/check_offsets.txt"; grep FAIL "$out/check_offsets.txt" | head; tail -1 "$out/check_offsets.txt"
echo "== speed of the register-A kernel before and after (f16, A at column offset 1)"
for v in old new; do /tmp/check_offsets_mm_$v --time 2>&1 | sed "s/^/$v: /"; done | tee "$out/time.txt"
echo "== contract pass: acc += a @ b on bf16, contracted vs --fmad=false"
g++ -O2 -std=c++17 -Wall -Wextra -Igpu-run/new -Itests/gpu -I$cuda/include bench/results/2026-12-07-lead17/mm_plus.cpp \
  -L$cuda/lib64/stubs -lcuda -o /tmp/mm_plus && /tmp/mm_plus 2>&1 | tee "$out/mm_plus.txt"
