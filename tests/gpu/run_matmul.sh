#!/usr/bin/env bash
# On the GPU machine, in order of importance, each step bounded so that a short device budget
# still returns results: matmul/sample correctness, the matmul benchmark (with the tile
# configurations of make_variants.sh), memcheck, then the op checks. Results under $OUT.
#   tests/gpu/run_matmul.sh [HEADERDIR]   (headers from make_headers.sh + make_variants.sh)
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/gpu/common.sh "${1:-gpu-build}" check_samples check_ops
echo "== check_samples"; timeout 120 /tmp/check_samples > "$out/check.txt" 2>&1; echo "rc=$?"
grep -E "FAIL|PASSED|failure" "$out/check.txt" | head -20
echo "== bench (matmul)"
BENCH_ONLY=matmul timeout 200 python3 bench/bench.py /tmp/libtilec_bench.so "$out/bench.md" "$hdr/variants.txt" \
  > "$out/bench.log" 2>&1; echo "rc=$?"; grep -E "tilec|cuBLAS|Triton|Error|error" "$out/bench.log" | cut -c1-150
cuobjdump --dump-sass "$hdr/matmul_f16.cubin" > "$out/matmul_f16.sass" 2>&1
cuobjdump --dump-sass "$hdr/matmul_bf16_sm90a.cubin" > "$out/matmul_bf16_sm90a.sass" 2>&1
grep -oE "HGMMA[.0-9A-Zx]*|UTMALDG[.0-9A-Z]*| LDL| STL" "$out/matmul_bf16_sm90a.sass" | sort | uniq -c
echo "== synccheck check_samples --small"
timeout 150 "$cuda/bin/compute-sanitizer" --tool synccheck --error-exitcode 3 /tmp/check_samples --small \
  > "$out/synccheck_samples.txt" 2>&1; echo "rc=$?"; tail -2 "$out/synccheck_samples.txt"
echo "== memcheck check_samples --small"
timeout 150 "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 3 /tmp/check_samples --small \
  > "$out/memcheck_samples.txt" 2>&1; echo "rc=$?"; tail -2 "$out/memcheck_samples.txt"
echo "== check_ops"; timeout 120 /tmp/check_ops > "$out/check_ops.txt" 2>&1; echo "rc=$?"
grep -v " ok " "$out/check_ops.txt" | tail -8
echo "== memcheck check_ops --small"
timeout 150 "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 3 /tmp/check_ops --small \
  > "$out/memcheck_ops.txt" 2>&1; echo "rc=$?"; tail -2 "$out/memcheck_ops.txt"
echo "== racecheck check_samples --small"
timeout 150 "$cuda/bin/compute-sanitizer" --tool racecheck --error-exitcode 3 /tmp/check_samples --small \
  > "$out/racecheck_samples.txt" 2>&1; echo "rc=$?"; tail -2 "$out/racecheck_samples.txt"
