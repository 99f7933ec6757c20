#!/usr/bin/env bash
# Issue 38 (GPU machine, one call of ~3 minutes): where the time goes in attention's and
# matmul_bt's configurations at the shapes where they trail the peers most
# (bench/results/2026-12-07-attn-h100.md, 2026-12-07-splitk-h100.md). Nsight Compute on one
# launch each (the 5th of bench/profile/probe.cpp), sections: speed of light, launch, occupancy,
# warp states, scheduler, memory workload. Headers made on the build machine by
#   tests/gpu/make_config_headers.sh build/tilec gpu-run/attn/check    (carry gpu-run/attn)
# Writes $OUT/ncu/<name>.txt and $OUT/ncu/durations.txt (kernel duration per probe).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-/tmp/out}/ncu; mkdir -p "$out"
hdr=gpu-run/attn/check
cuda=${CUDA_PATH:-/usr/local/cuda}
ncu=$(command -v ncu || echo "$cuda/bin/ncu")
cc="g++ -O2 -std=c++17 -I$cuda/include -Itests/gpu bench/profile/probe.cpp -L$cuda/lib64/stubs -lcuda"
$cc -DPROBE_ATTENTION=cfg_a128_attention -DHEAD_DIM=128 -include $hdr/cfg_attention_d128.h -o /tmp/probe_a128 &
$cc -DPROBE_ATTENTION=cfg_a128c_attention -DHEAD_DIM=128 -include $hdr/cfg_attention_d128_causal.h -o /tmp/probe_a128c &
$cc -DPROBE_GEMM=cfg_matmul_bt -include $hdr/cfg_matmul_bt.h -o /tmp/probe_gemm &
wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
sections="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
  --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis"
profile() {  # NAME KERNELS_PER_LAUNCH PROBE ARGS...
  local name=$1 per=$2; shift 2
  timeout 120 "$ncu" --launch-skip $((4 * per)) --launch-count "$per" $sections --print-summary none \
    "$@" > "$out/$name.txt" 2>&1
  echo "$name rc=$? $(grep -E '^\s+Duration' "$out/$name.txt" | tr -s ' ' | tr '\n' ';')" | tee -a "$out/durations.txt"
}
# Attention D=128 full: 128x128 (c0) and 128x32 two CTAs per SM (c1) at S = 512, where the best
# is 0.63x cuDNN; c0 at S = 8192 (0.88x); causal c0 at S = 512 (0.61x).
profile a128_c0_s512 1 /tmp/probe_a128 0 32 32 32 512
profile a128_c1_s512 1 /tmp/probe_a128 1 32 32 32 512
profile a128_c0_s8192 1 /tmp/probe_a128 0 2 32 32 8192
profile a128c_c0_s512 1 /tmp/probe_a128c 0 32 32 32 512
# matmul_bt decode: 64x64 (c4) and 64x128 in 4 slices (c5, partials + reduce) at M = 1,
# N = K = 4096 (16-26 us for 32 MB of weights); 128x256 (c0) at M = 5555 (0.87x F.linear).
profile gemm_c4_m1 1 /tmp/probe_gemm 4 1 4096 4096
profile gemm_c5_m1 2 /tmp/probe_gemm 5 1 4096 4096
profile gemm_c0_m5555 1 /tmp/probe_gemm 0 5555 4096 4096
