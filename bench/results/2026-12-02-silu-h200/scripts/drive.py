# silu_gate vs Triton (issue 21's last bar): bench.py's offsets section with this branch's
# variants, RUNS times; then the cubins of Triton's silu_gate kernels for their SASS.
#   drive.py LIB ROWS_MD RUNS OUTDIR
import os
import sys

LIB, ROWS, RUNS, OUTDIR = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench as B  # noqa: E402
import torch  # noqa: E402

B.STENCIL_TILEC = [("", "BM=8 BN=256 WARPS=4 (this branch; PTX as main's)"),
                   ("mst_", "main's tilec, same sample")]
B.SILU_TILEC = [("", "u32 sample + vector bounds (this branch) BN=2048 WARPS=8"),
                ("sgi32_", "i32 sample (main's) + vector bounds BN=2048 WARPS=8"),
                ("sgu32b_", "u32 sample, main's tilec BN=2048 WARPS=8"),
                ("msg_", "main (i32 sample, main's tilec) BN=2048 WARPS=8"),
                ("sg1k_", "this branch BN=1024 WARPS=4"),
                ("sg2k4w_", "this branch BN=2048 WARPS=4"),
                ("sg4k_", "this branch BN=4096 WARPS=8")]
print(torch.cuda.get_device_name(), "torch", torch.__version__, "triton", B.triton.__version__, flush=True)
for run in range(RUNS):
    print(f"-- run {run + 1}", flush=True)
    B.bench_offsets()
with open(ROWS, "w") as fh:
    for wl, impl, ms, gbs, note in B.rows:
        fh.write(f"| {wl} | {impl} | {ms:.4f} | {gbs:.0f} | {note} |\n")
try:
    D = 4096
    xs = torch.randn(2, 2 * D, device="cuda", dtype=torch.bfloat16)
    ys = torch.empty(2, D, device="cuda", dtype=torch.bfloat16)
    for (block, nw) in [(2048, 8), (1024, 4)]:
        k = B.silu_gate_flat_kernel[(2 * B.triton.cdiv(D, block),)](xs, ys, D, B.triton.cdiv(D, block), BLOCK=block, num_warps=nw)
        with open(os.path.join(OUTDIR, f"triton_flat_{block}_{nw}w.cubin"), "wb") as fh:
            fh.write(k.asm["cubin"])
        print("triton cubin", block, nw, "regs", getattr(k, "n_regs", "?"), flush=True)
except Exception as e:  # the SASS is a note; the timings stand without it
    print("triton cubin dump failed:", e, flush=True)
