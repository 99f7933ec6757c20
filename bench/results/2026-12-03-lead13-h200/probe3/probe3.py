"""Lead, session 13: silu_gate's fixed cost per launch — the sample (u32 division by
cdiv(D, BN) on the device) beside the same kernel with the division done as a multiply-high
and two shifts on a magic number from the host (sg_magic.tile), and Triton's one-axis kernel
(2048/8w), interleaved, 3000 rounds; medians and paired differences, two runs.
    probe3.py LIB"""
import ctypes
import statistics
import sys

LIB = sys.argv[1]
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402

U64, I64, U32 = ctypes.c_uint64, ctypes.c_int64, ctypes.c_uint32


def magic(d):
    """Granlund & Montgomery (1994), Fig. 4.1, N = 32: (m', sh1, sh2) for divisor d >= 1."""
    l = (d - 1).bit_length()
    m = (2**32 * (2**l - d)) // d + 1
    return m, min(l, 1), max(l - 1, 0)


for d in list(range(1, 3000)) + [2**31 - 1, 2**31, 2**32 - 1]:
    m, s1, s2 = magic(d)
    for n in [0, 1, d - 1, d, d + 1, 2 * d, 2**32 - 1, 2**31, 12345678]:
        if n >= 2**32:
            continue
        t = (n * m) >> 32
        assert (t + ((n - t) >> s1)) >> s2 == n // d, (n, d)

f = B.tilec_generic("silu_gate", [U64, U64, I64, I64, I64])
fm = B.tilec_generic("mg_silu_gate", [U64, U64, I64, I64, I64, U32, U32, U32, U32])
for rep in range(2):
    for (M, D) in [(1, 2048), (132, 2048), (1024, 4096), (8192, 4096), (4096, 14336)]:
        x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16) * 3
        y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
        xf = x.float()
        ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
        nb = B.triton.cdiv(D, 2048)
        m, s1, s2 = magic(nb)
        fns = {"triton": lambda: B.silu_gate_flat_kernel[(M * nb,)](x, y, D, nb, BLOCK=2048, num_warps=8),
               "tilec": lambda: f(x, y, M, 2 * D, D),
               "tilec magic": lambda: fm(x, y, M, 2 * D, D, nb, m, s1, s2)}
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
