"""One launch of tilec's f16 matmul 4096^3 (after a warm-up), for Nsight Compute:
    ncu --clock-control none -k regex:matmul -c 1 ... python3 bench/profile_matmul.py LIB.so"""
import ctypes
import sys

import torch

lib_path = sys.argv[1]
sys.argv = [sys.argv[0], lib_path, "/dev/null"]
import bench  # noqa: E402  (its main() runs only as a script)

U64, I64 = ctypes.c_uint64, ctypes.c_int64
n = 4096
a = torch.randn(n, n, device="cuda", dtype=torch.float16)
b = torch.randn(n, n, device="cuda", dtype=torch.float16)
c = torch.empty(n, n, device="cuda", dtype=torch.float16)
f = bench.tilec_generic("mm16_matmul", [U64, U64, U64, I64, I64, I64])
f(a, b, c, n, n, n)
torch.cuda.synchronize()
