"""One launch each of tilec's and Triton's layernorm (f16 16384x4096, bf16 16384x8192), then f16
softmax after a warm-up, for Nsight Compute; also writes Triton's PTX, cubin and register
counts of the layernorms to OUTDIR (to set beside tilec's):
    ncu --clock-control none ... python3 bench/profile_rows.py LIB.so OUTDIR"""
import ctypes
import os
import sys

import torch

lib_path, outdir = sys.argv[1], sys.argv[2]
sys.argv = [sys.argv[0], lib_path, "/dev/null"]
import bench  # noqa: E402  (defines the kernels; its main() runs only as a script)

dev = torch.device("cuda")
U64, I64 = ctypes.c_uint64, ctypes.c_int64
os.makedirs(outdir, exist_ok=True)
for prefix, M, N, dt in [("ln16_", 16384, 4096, torch.float16), ("lnbf_", 16384, 8192, torch.bfloat16)]:
    x = torch.randn(M, N, device=dev, dtype=dt)
    w = torch.randn(N, device=dev, dtype=dt)
    b = torch.randn(N, device=dev, dtype=dt)
    y = torch.empty_like(x)
    mean = torch.empty(M, device=dev)
    rstd = torch.empty(M, device=dev)
    ln = bench.tilec_generic(prefix + "layernorm", [U64] * 6 + [I64, I64])
    for _ in range(1):  # one launch each: `ncu -c 4` sees tilec, Triton, tilec, Triton
        ln(x, w, b, y, mean, rstd, M, N)
        k = bench.layernorm_kernel[(M,)](x, y, w, b, mean, rstd, N, N, 1e-5, BLOCK=N, num_warps=8)
    with open(f"{outdir}/triton_{prefix}layernorm.ptx", "w") as fh:
        fh.write(k.asm["ptx"])
    with open(f"{outdir}/triton_{prefix}layernorm.cubin", "wb") as fh:
        fh.write(k.asm["cubin"])
    print(f"triton {prefix}layernorm: {k.n_regs} registers, {k.n_spills} spills", flush=True)
M, N = 16384, 4096
x = torch.randn(M, N, device=dev, dtype=torch.float16)
y = torch.empty_like(x)
sm = bench.tilec_generic("sm16_softmax", [U64, U64, I64, I64])
for _ in range(3):
    sm(x, y, M, N)
    bench.softmax_kernel[(M,)](y, x, N, N, BLOCK=N, num_warps=8)
torch.cuda.synchronize()
