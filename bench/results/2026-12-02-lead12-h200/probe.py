"""Lead, session 12, final call: is silu_gate's 0.1-0.3 % behind Triton a fixed cost per launch?
tilec's silu_gate and Triton's one-axis kernel (2048/8w, the same launch shape) at shapes from
one CTA up; per shape the median GPU time of each (bench.py's timed_once, interleaved) and the
difference in microseconds.  probe.py LIB ROUNDS"""
import ctypes
import statistics
import sys

LIB, ROUNDS = sys.argv[1], int(sys.argv[2])
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402

U64, I64 = ctypes.c_uint64, ctypes.c_int64
f = B.tilec_generic("silu_gate", [U64, U64, I64, I64, I64])
for (M, D) in [(1, 2048), (132, 2048), (1024, 4096), (8192, 4096)]:
    x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16) * 3
    y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
    xf = x.float()
    ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
    nb = B.triton.cdiv(D, 2048)
    fns = {"triton2048/8w": lambda: B.silu_gate_flat_kernel[(M * nb,)](x, y, D, nb, BLOCK=2048, num_warps=8),
           "tilec": lambda: f(x, y, M, 2 * D, D)}
    for k, fn in fns.items():
        y.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        B.check_close(k, y, ref, 1e-2)
    t = B.interleaved_times(fns, iters=ROUNDS)
    med = {k: statistics.median(v) * 1000 for k, v in t.items()}
    diff = statistics.median(b - a for a, b in zip(t["triton2048/8w"], t["tilec"])) * 1000
    print(f"silu_gate {M}x{D}: triton {med['triton2048/8w']:.3f} us, tilec {med['tilec']:.3f} us, "
          f"paired difference tilec - triton {diff:+.3f} us", flush=True)
