"""One launch each of the tilec sample and bench.py's Triton flat kernel (2048/8w) at 8192x4096,
for ncu (after a warm-up launch of each).    ncu_one.py LIBTILEC"""
import ctypes
import sys
LIB = sys.argv[1]
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
U64, I64 = ctypes.c_uint64, ctypes.c_int64
f = ctypes.CDLL(LIB).silu_gate
f.argtypes = [ctypes.c_void_p, U64, U64, I64, I64, I64]
M, D = 8192, 4096
x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16)
y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
nb = triton.cdiv(D, 2048)
for _ in range(3):
    B.silu_gate_flat_kernel[(M * nb,)](x, y, D, nb, BLOCK=2048, num_warps=8)
    f(torch.cuda.current_stream().cuda_stream, x.data_ptr(), y.data_ptr(), M, 2 * D, D)
torch.cuda.synchronize()
