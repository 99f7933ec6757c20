"""One launch each of tilec's and Triton's f16 layernorm (16384x4096) and f16 softmax, after a
warm-up, for Nsight Compute:  ncu --clock-control none ... python3 bench/profile_rows.py LIB.so"""
import ctypes
import sys

import torch

sys.argv = [sys.argv[0], sys.argv[1], "/dev/null"]
import bench  # noqa: E402  (defines the kernels; its main() runs only as a script)

lib = ctypes.CDLL(sys.argv[1])
dev = torch.device("cuda")
M, N = 16384, 4096
x = torch.randn(M, N, device=dev, dtype=torch.float16)
w = torch.ones(N, device=dev, dtype=torch.float16)
b = torch.zeros(N, device=dev, dtype=torch.float16)
y = torch.empty_like(x)
mean = torch.empty(M, device=dev)
rstd = torch.empty(M, device=dev)
U64, I64 = ctypes.c_uint64, ctypes.c_int64
ln = bench.tilec_generic("ln16_layernorm", [U64] * 6 + [I64, I64])
sm = bench.tilec_generic("sm16_softmax", [U64, U64, I64, I64])
for _ in range(3):
    ln(x, w, b, y, mean, rstd, M, N)
    bench.layernorm_kernel[(M,)](x, y, w, b, mean, rstd, N, N, 1e-5, BLOCK=N, num_warps=8)
    sm(x, y, M, N)
    bench.softmax_kernel[(M,)](y, x, N, N, BLOCK=N, num_warps=8)
torch.cuda.synchronize()
