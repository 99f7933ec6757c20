#!/usr/bin/env bash
# Issue 38 (GPU machine, one call of < 8 minutes): the configurations of attention.tile and of the
# GEMM samples, correctness then benchmark. Headers made on the build machine by
#   tests/gpu/make_config_headers.sh build/tilec gpu-run/attn/check
# (git-ignored; the call carries gpu-run/attn). Writes under $OUT:
#   check_configs.txt  every configuration of matmul_bt, matmul, matmul_bias_relu, batched_matmul,
#                      matmul_f8 and attention/attention_lse (bf16, D 64/128, full/causal) forced,
#                      and each launch's choice, against CPU references (tests/gpu/check_configs.cpp)
#   memcheck.txt       the same on the small shapes under compute-sanitizer memcheck
#   attn.jsonl, attn.txt  bench/configs/attn.py: attention's choice and every configuration
#                      against the best SDPA backend, tuning S (powers of two) and held-out S
#   table.txt          the summary, with the held-out shapes through a table of the tuning shapes
#   attn_persistent.jsonl, table_persistent.txt   the same for the D=128 builds with
#                      -D PERSISTENT=True (when make_config_headers.sh made them), to set beside
#                      table.txt's D=128 rows configuration by configuration
#   tuning/            tuning tables of the four builds (both kernels) from the tuning shapes
#   bench/configs/run_attn.sh        (OUT=dir; TUNE_S, HELDOUT_S, REPS narrow or widen the sweep)
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
hdr=gpu-run/attn/check
cuda=${CUDA_PATH:-/usr/local/cuda}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/gpu.txt"
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())" \
  | tee -a "$out/gpu.txt"
g++ -O2 -std=c++17 -Wall -Wextra -I"$hdr" -Itests/gpu -I"$cuda/include" tests/gpu/check_configs.cpp \
  -L"$cuda/lib64/stubs" -lcuda -o /tmp/check_configs &
runs=()
for b in 64:0:d64 64:1:d64_causal 128:0:d128 128:1:d128_causal; do
  name=${b##*:}
  gcc -O2 -shared -fPIC -x c "$hdr/cfg_attention_$name.h" -I"$cuda/include" -o "/tmp/libatt_$name.so" -lcuda &
  runs+=(--run "${b%:*}:/tmp/libatt_$name.so:$hdr/cfg_attention_$name.h")
done
wait
[ -x /tmp/check_configs ] || { echo "check_configs did not build"; exit 1; }

echo "== check_configs"
timeout 120 /tmp/check_configs > "$out/check_configs.txt" 2>&1
echo "rc=$?: $(tail -1 "$out/check_configs.txt")"; grep FAIL "$out/check_configs.txt" | head -20
echo "== memcheck (--small)"
timeout 90 "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 3 /tmp/check_configs --small \
  > "$out/memcheck.txt" 2>&1
echo "rc=$?: $(tail -2 "$out/memcheck.txt" | tr '\n' ' ')"

echo "== attention against SDPA (bench/configs/attn.py)"
timeout 210 python3 bench/configs/attn.py "${runs[@]}" ${TUNE_S:+--tune "$TUNE_S"} ${HELDOUT_S:+--heldout "$HELDOUT_S"} \
  --reps "${REPS:-5}" --out "$out/attn.jsonl" > "$out/attn.txt" 2>&1
echo "rc=$? ($(grep -c ' auto=' "$out/attn.txt") shapes)"; grep -iE "error|Traceback" "$out/attn.txt" | head -8
python3 bench/configs/attn.py --table "$out/attn.jsonl" --tuning-dir "$out/tuning" "${runs[@]}" > "$out/table.txt" 2>&1
tail -12 "$out/table.txt"
if [ -f "$hdr/cfg_attention_d128_persistent.h" ]; then
  echo "== attention D=128 with PERSISTENT=True"
  pruns=()
  for b in 128:0:d128_persistent 128:1:d128_causal_persistent; do
    name=${b##*:}
    gcc -O2 -shared -fPIC -x c "$hdr/cfg_attention_$name.h" -I"$cuda/include" -o "/tmp/libatt_$name.so" -lcuda &
    pruns+=(--run "${b%:*}:/tmp/libatt_$name.so:$hdr/cfg_attention_$name.h")
  done
  wait
  timeout 150 python3 bench/configs/attn.py "${pruns[@]}" ${TUNE_S:+--tune "$TUNE_S"} ${HELDOUT_S:+--heldout "$HELDOUT_S"} \
    --reps "${REPS:-5}" --out "$out/attn_persistent.jsonl" > "$out/attn_persistent.txt" 2>&1
  echo "rc=$?"
  python3 bench/configs/attn.py --table "$out/attn_persistent.jsonl" > "$out/table_persistent.txt" 2>&1
  grep "geomean" "$out/table_persistent.txt"
fi
