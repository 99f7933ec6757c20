# Compiles bench.py's Triton peers of the offsets section into Triton's cache on small inputs
# with the same specializations (extents divisible by 16; NB = 1 and NB > 1), beside the checks.
import os
import sys

sys.argv = [sys.argv[0], sys.argv[1], "/dev/null"]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench"))
import bench as B  # noqa: E402
import torch  # noqa: E402

x = torch.randn(256, 256, device="cuda")
y = torch.empty_like(x)
for (bm, bn, nw) in [(16, 128, 4), (32, 128, 4), (8, 256, 4), (32, 256, 8), (4, 256, 4)]:
    B.stencil2d_kernel[(1, 1)](x, y, 256, 256, BM=bm, BN=bn, COLS_FIRST=False, num_warps=nw)
    B.stencil2d_kernel[(1, 1)](x, y, 256, 256, BM=bm, BN=bn, COLS_FIRST=True, num_warps=nw)
for D in (4096, 14336):
    xs = torch.randn(2, 2 * D, device="cuda", dtype=torch.bfloat16)
    ys = torch.empty(2, D, device="cuda", dtype=torch.bfloat16)
    for (block, nw) in [(1024, 4), (2048, 8), (4096, 8)]:
        B.silu_gate_kernel[(1, 1)](xs, ys, D, BLOCK=block, num_warps=nw)
        B.silu_gate_flat_kernel[(1,)](xs, ys, D, B.triton.cdiv(D, block), BLOCK=block, num_warps=nw)
torch.cuda.synchronize()
print("warm ok")
