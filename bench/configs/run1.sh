#!/usr/bin/env bash
# Session 19, call 1 (GPU machine): issue 38. The matmul_bt and matmul samples with their
# configurations (headers made on the build machine, carried in gpu-run/cfg), no tuning table:
# correctness of every configuration at every shape, per-configuration times at the tuning M
# (powers of two) and the launch's own choice (heuristic) against the peer at the held-out M.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cublas', torch.backends.cudnn.version())" | tee -a "$out/gpu.txt"
for k in ${KERNELS:-matmul_bt}; do
  gcc -O2 -shared -fPIC -x c gpu-run/cfg/$k.h -I/usr/local/cuda/include -o /tmp/lib$k.so -lcuda || exit 1
  NK=${NK:-4096x4096,1024x4096,28672x4096,4096x14336}
  python3 bench/configs/gemm.py --lib /tmp/lib$k.so --kernel $k --nk $NK --ms 1,8,128,4096 --configs --reps 5 \
    --label tune --out "$out/$k.jsonl" 2>&1 | tee "$out/$k-tune.txt"
  python3 bench/configs/gemm.py --lib /tmp/lib$k.so --kernel $k --nk $NK --ms 77,1000,3000,5555,8191 --reps 5 \
    --label heldout-heuristic --out "$out/$k.jsonl" 2>&1 | tee "$out/$k-heldout.txt"
done
