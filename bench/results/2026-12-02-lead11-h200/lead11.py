"""Lead, session 11 (2026-12-02), call 1: issue 16's batched, tf32 and f8 rows with the
persistent grid re-measured after the 64-bit division change (bench/bench.py's helpers:
every launch checked against a float64/float32 reference on NaN-poisoned outputs first, then
all timed interleaved, medians and paired ratios).
    python3 lead11.py LIB.so RESULTS.md"""
import ctypes
import statistics
import sys
import torch

sys.path.insert(0, "bench")
import bench  # noqa: E402  (loads LIB.so from sys.argv[1])
from bench import check_close, check_tilec_matmul, interleaved_times, paired_ratio, record, tilec_generic  # noqa

U64, I64 = ctypes.c_uint64, ctypes.c_int64


def table(wl, peer, fns, errs, flops, iters=50):
    times = interleaved_times(fns, iters=iters)
    ms = {k: statistics.median(v) for k, v in times.items()}
    for k in fns:
        note = f"{flops / ms[k] / 1e9:.0f} TFLOP/s"
        if k != peer and not k.startswith("cuBLAS"):
            note += f", {ms[peer] / ms[k]:.3f}x {peer} ({paired_ratio(times, peer, k):.3f}x paired), rel err {errs[k]:.1e}"
        record(wl, k, ms[k], 0, note)


def batched():
    dev = torch.device("cuda")
    batch, n = 32, 2048
    wl = f"batched_matmul {batch} x {n}^3 bf16"
    a = torch.randn(batch, n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(batch, n, n, device=dev, dtype=torch.bfloat16)
    c = torch.empty(batch, n, n, device=dev, dtype=torch.bfloat16)
    ref = torch.bmm(a.float(), b.float())
    fns, errs = {"torch.bmm": lambda: torch.bmm(a, b, out=c)}, {}
    for label, prefix in [("tilec 128x256 persistent=False (sample)", "bmm_np_"),
                          ("tilec 128x256 persistent", "bmm_p_"),
                          ("tilec 128x256 persistent cluster=2", "bmm_pc2_"),
                          ("tilec 128x128 persistent", "bmm_p128_")]:
        f = tilec_generic(prefix + "batched_matmul", [U64] * 3 + [I64] * 4)
        args = (a, b, c, batch, n, n, n)
        errs[label] = check_tilec_matmul(wl + " " + label, f, args, c, ref)
        fns[label] = lambda f=f, args=args: f(*args)
    table(wl, "torch.bmm", fns, errs, 2 * batch * n ** 3)
    del a, b, c, ref


def tf32():
    dev = torch.device("cuda")
    torch.backends.cuda.matmul.allow_tf32 = True
    n = 4096
    wl = f"tf32 matmul {n}^3 (f32 inputs)"
    a = torch.randn(n, n, device=dev)
    b = torch.randn(n, n, device=dev)
    bt = torch.empty(n, n, device=dev)
    c = torch.empty(n, n, device=dev)
    ref = a.double() @ b.double()
    transpose = tilec_generic("tr_transpose", [U64, U64, I64, I64])
    peer = "cuBLAS TF32 (torch.matmul(a, b))"
    fns = {peer: lambda: torch.matmul(a, b, out=c),
           "cuBLAS TF32 on [N, K] B": lambda: torch.matmul(a, bt.t(), out=c)}
    errs = {}
    for label, prefix in [("128x128 persistent (sample)", "tf_p128_"), ("128x128 persistent=False", "tf_np128_"),
                          ("128x256 persistent=False", "tf_np256_")]:
        g = tilec_generic(prefix + "matmul_bt", [U64] * 3 + [I64] * 3)

        def both(g=g):
            transpose(b, bt, n, n)
            g(a, bt, c, n, n, n)
        bt.fill_(float("nan"))
        c.fill_(float("nan"))
        both()
        torch.cuda.synchronize()
        err = check_close(wl + " " + label, c, ref, 1e-2)
        errs["tilec transpose + " + label] = err
        fns["tilec transpose + " + label] = both
        errs["tilec " + label + " alone"] = err
        fns["tilec " + label + " alone"] = lambda g=g: g(a, bt, c, n, n, n)
    table(wl, peer, fns, errs, 2 * n ** 3)
    torch.backends.cuda.matmul.allow_tf32 = False
    del a, b, bt, c, ref


def f8():
    dev = torch.device("cuda")
    for n in (8192, 4096):
        wl = f"f8e4m3 GEMM {n}^3, bf16 out, per-tensor scales"
        a = (torch.randn(n, n, device=dev) * 2).to(torch.float8_e4m3fn)
        b = (torch.randn(n, n, device=dev) * 2).to(torch.float8_e4m3fn)
        sa = torch.tensor(0.375, device=dev)
        sb = torch.tensor(1.75, device=dev)
        c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
        ref = (a.double() @ b.double().t()) * (0.375 * 1.75)
        peer = "torch._scaled_mm (use_fast_accum=True)"
        fns = {peer: lambda: torch._scaled_mm(a, b.t(), sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True)}
        errs = {}
        for label, prefix in [("tilec 128x256 persistent (sample)", "f8_p_"), ("tilec 128x256 persistent=False", "f8_np_")]:
            f = tilec_generic(prefix + "matmul_f8", [U64] * 5 + [I64] * 3)
            args = (a, b, sa, sb, c, n, n, n)
            errs[label] = check_tilec_matmul(wl + " " + label, f, args, c, ref)
            fns[label] = lambda f=f, args=args: f(*args)
        del ref
        table(wl, peer, fns, errs, 2 * n ** 3)
        del a, b, c


if __name__ == "__main__":
    torch.manual_seed(int(__import__("time").time()))
    print(torch.cuda.get_device_name(), "torch", torch.__version__)
    for rep in range(2):
        batched()
        tf32()
        f8()
    with open(sys.argv[2], "w") as fh:
        fh.write(f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}\n\n")
        fh.write("| workload | implementation | ms (median) | notes |\n|---|---|---|---|\n")
        for wl, impl, ms, _, note in bench.rows:
            fh.write(f"| {wl} | {impl} | {ms:.4f} | {note} |\n")
