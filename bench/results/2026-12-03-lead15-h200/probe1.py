"""Lead, session 15, call 1: silu_gate launched with programmatic dependent launch (PDL:
make_pdl.py's PTX variants, pdl_header.py's launch) beside the sample and Triton, timed three
ways (sleep before one launch, L2 flush before one launch, 10 launches back to back: probe6 of
session 14), interleaved; ratios Triton / build per round, bootstrap 95 % intervals.
    probe1.py ROUNDS LABEL=LIB.so ..."""
import ctypes
import random
import statistics
import sys

ROUNDS = int(sys.argv[1])
LIBS = [a.split("=", 1) for a in sys.argv[2:]]
sys.argv = [sys.argv[0], LIBS[0][1], "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402

U64, I64 = ctypes.c_uint64, ctypes.c_int64
rng = random.Random(7)
flush_buf = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
HOWS = ("sleep", "flush", "burst")


def timed(fn, how):
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    if how == "flush":
        flush_buf.zero_()
    else:
        torch.cuda._sleep(B.BUSY_CYCLES)
    s.record()
    for _ in range(10 if how == "burst" else 1):
        fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / (10 if how == "burst" else 1)


def ci(ratios):
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(400))
    return meds[10], meds[389]


def tilec_fn(path):
    f = ctypes.CDLL(path).silu_gate
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_void_p, U64, U64, I64, I64, I64]
    return f


libs = {label: tilec_fn(path) for label, path in LIBS}
for (M, D) in [(8192, 4096), (4096, 14336)]:
    x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16) * 3
    y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
    xf = x.float()
    ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
    nb = triton.cdiv(D, 2048)
    fns = {"triton": lambda: B.silu_gate_flat_kernel[(M * nb,)](x, y, D, nb, BLOCK=2048, num_warps=8)}
    for label, f in libs.items():
        fns[label] = (lambda f: lambda: f(torch.cuda.current_stream().cuda_stream, x.data_ptr(), y.data_ptr(), M,
                                          2 * D, D))(f)
    for k, fn in fns.items():
        y.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        B.check_close(f"{M}x{D} {k}", y, ref, 1e-2)
    for fn in fns.values():
        for _ in range(5):
            fn()
    torch.cuda.synchronize()
    keys = [(k, how) for k in fns for how in HOWS]
    t = {kh: [] for kh in keys}
    order = list(keys)
    for _ in range(ROUNDS):
        rng.shuffle(order)
        for kh in order:
            t[kh].append(timed(fns[kh[0]], kh[1]))
    for how in HOWS:
        line = [f"{M}x{D} {how} (us): " + ", ".join(f"{k} {statistics.median(t[(k, how)]) * 1000:.3f}" for k in fns)]
        for k in fns:
            if k == "triton":
                continue
            r = [a / b for a, b in zip(t[("triton", how)], t[(k, how)])]
            lo, hi = ci(r)
            line.append(f"  triton / {k}: {statistics.median(r):.4f} [{lo:.4f}, {hi:.4f}]")
        print("\n".join(line), flush=True)
    del x, y, xf, ref
