"""Lead, session 12: silu_gate's fixed cost per launch — the sample, the sample with the block
count passed from the host (nb_), and a 2-D grid without division (g2_), beside Triton's
one-axis kernel (2048/8w), interleaved, 3000 rounds; medians and paired differences.
    probe2.py LIB"""
import ctypes
import statistics
import sys

LIB = sys.argv[1]
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402

U64, I64, I32 = ctypes.c_uint64, ctypes.c_int64, ctypes.c_int32
f = B.tilec_generic("silu_gate", [U64, U64, I64, I64, I64])
fnb = B.tilec_generic("nb_silu_gate", [U64, U64, I64, I64, I64, I32])
f2 = B.tilec_generic("g2_silu_gate", [U64, U64, I64, I64, I64])
for rep in range(2):
    for (M, D) in [(1, 2048), (132, 2048), (8192, 4096), (4096, 14336)]:
        x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16) * 3
        y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
        xf = x.float()
        ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
        nb = B.triton.cdiv(D, 2048)
        fns = {"triton": lambda: B.silu_gate_flat_kernel[(M * nb,)](x, y, D, nb, BLOCK=2048, num_warps=8),
               "tilec": lambda: f(x, y, M, 2 * D, D),
               "tilec nb from host": lambda: fnb(x, y, M, 2 * D, D, nb),
               "tilec 2-D grid": lambda: f2(x, y, M, 2 * D, D)}
        for k, fn in fns.items():
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            B.check_close(k, y, ref, 1e-2)
        t = B.interleaved_times(fns, iters=3000)
        med = {k: statistics.median(v) * 1000 for k, v in t.items()}
        parts = [f"triton {med['triton']:.3f} us"]
        for k in list(fns)[1:]:
            d = statistics.median(b - a for a, b in zip(t["triton"], t[k])) * 1000
            r = statistics.median(a / b for a, b in zip(t["triton"], t[k]))
            parts.append(f"{k} {med[k]:.3f} us ({d:+.3f} us, {r:.4f}x)")
        print(f"run {rep + 1} silu_gate {M}x{D}: " + "; ".join(parts), flush=True)
        del x, y, xf, ref
