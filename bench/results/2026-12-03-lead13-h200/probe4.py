"""Lead, session 13: samples/silu_gate.tile with launch divisors (the header of this session's
tilec, LIB_NEW) beside the same sample from the tilec before them (u32 division on the device,
LIB_OLD), Triton's one-axis kernel in both configurations bench.py runs (1024/4w, 2048/8w) and a
copy of the same bytes; ROUNDS interleaved rounds (bench.py's interleaved_times: shuffled order,
CUDA events), RUNS runs; medians, and the median over rounds of the per-round ratio Triton /
tilec with a bootstrap 95 % interval.
    probe4.py LIB_NEW LIB_OLD ROUNDS RUNS"""
import ctypes
import random
import statistics
import sys

LIB_NEW, LIB_OLD, ROUNDS, RUNS = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.argv = [sys.argv[0], LIB_NEW, "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402

U64, I64 = ctypes.c_uint64, ctypes.c_int64
rng = random.Random(7)


def launcher(path):
    f = ctypes.CDLL(path).silu_gate
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_void_p, U64, U64, I64, I64, I64]

    def call(x, y, M, D):
        r = f(torch.cuda.current_stream().cuda_stream, x.data_ptr(), y.data_ptr(), M, 2 * D, D)
        if r != 0:
            raise RuntimeError(f"silu_gate returned CUresult {r}")
    return call


def ci(ratios):
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(400))
    return meds[10], meds[389]


new, old = launcher(LIB_NEW), launcher(LIB_OLD)
for run in range(RUNS):
    for (M, D) in [(1, 2048), (132, 2048), (1024, 4096), (8192, 4096), (4096, 14336)]:
        x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16) * 3
        y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
        src = torch.empty(M, 3 * D // 2, device="cuda", dtype=torch.bfloat16)  # 1.5 M D read + written: 3 M D, as silu_gate moves
        dst = torch.empty_like(src)
        xf = x.float()
        ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
        fns = {"copy": lambda: dst.copy_(src)}
        for block, nw in [(1024, 4), (2048, 8)]:
            nb = B.triton.cdiv(D, block)
            fns[f"triton {block}/{nw}w"] = (lambda block, nw, nb: lambda: B.silu_gate_flat_kernel[(M * nb,)](
                x, y, D, nb, BLOCK=block, num_warps=nw))(block, nw, nb)
        fns["tilec before"] = lambda: old(x, y, M, D)
        fns["tilec"] = lambda: new(x, y, M, D)
        for k, fn in fns.items():
            if k == "copy":
                continue
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            B.check_close(k, y, ref, 1e-2)
        t = B.interleaved_times(fns, iters=ROUNDS)
        med = {k: statistics.median(v) * 1000 for k, v in t.items()}
        line = [f"run {run + 1} {M}x{D} (us): " + ", ".join(f"{k} {v:.3f}" for k, v in med.items())]
        for mine in ["tilec", "tilec before"]:
            for peer in ["triton 1024/4w", "triton 2048/8w", "copy"]:
                r = [a / b for a, b in zip(t[peer], t[mine])]
                lo, hi = ci(r)
                line.append(f"  {mine} vs {peer}: {statistics.median(r):.4f} [{lo:.4f}, {hi:.4f}]")
        print("\n".join(line), flush=True)
        del x, y, xf, ref, src, dst
