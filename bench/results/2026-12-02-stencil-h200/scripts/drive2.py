# Issue 21, call 2: bench.py's offsets section (BENCH_ONLY=offsets) with comparison builds added
# to its tilec lists (main's samples and codegen; variants), run RUNS times.
#   drive2.py LIB ROWS_MD RUNS
import os
import sys

LIB, ROWS, RUNS = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench"))
import bench as B  # noqa: E402
import torch  # noqa: E402

B.STENCIL_TILEC += [("mst_", "main (rows first) BM=8 BN=256 WARPS=4"),
                    ("stnomc_", "BM=8 BN=256 WARPS=4, no min_ctas_per_sm")]
B.SILU_TILEC += [("msg_", "main (rows first) BN=2048 WARPS=8"),
                 ("sgswap_", "grid (cdiv(D, BN), M) BN=2048 WARPS=8"),
                 ("sgnoftz_", "BN=2048 WARPS=8, rcp without .ftz")]
print(torch.cuda.get_device_name(), "torch", torch.__version__, "triton", B.triton.__version__, flush=True)
for run in range(RUNS):
    print(f"-- run {run + 1}", flush=True)
    B.bench_offsets()
with open(ROWS, "w") as fh:
    for wl, impl, ms, gbs, note in B.rows:
        fh.write(f"| {wl} | {impl} | {ms:.4f} | {gbs:.0f} | {note} |\n")
