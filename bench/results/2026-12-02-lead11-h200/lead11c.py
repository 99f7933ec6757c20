"""Lead, session 11, call 3: the persistent grid's TMA-store staging through a ring of two box
slots (branch lead11: 4 TMA stages at 128x256) against main's whole-tile staging buffer (3
stages), beside cuBLAS: matmul bf16/f16 4096^3 and 8192^3, batched_matmul 32 x 2048^3 bf16
(persistent, and the sample's persistent=False), matmul_f8 4096^3 and 8192^3. Each launch is
checked against a reference first; then all are timed interleaved (medians, paired ratios).
    python3 lead11c.py LIB.so RESULTS.md"""
import ctypes
import statistics
import sys
import torch

sys.path.insert(0, "bench")
import bench  # noqa: E402
from bench import check_tilec_matmul, interleaved_times, paired_ratio, record, tilec_generic  # noqa

U64, I64 = ctypes.c_uint64, ctypes.c_int64


def table(wl, peer, fns, errs, flops, iters=50):
    times = interleaved_times(fns, iters=iters)
    ms = {k: statistics.median(v) for k, v in times.items()}
    for k in fns:
        note = f"{flops / ms[k] / 1e9:.0f} TFLOP/s"
        if k in errs:
            note += f", {ms[peer] / ms[k]:.3f}x {peer} ({paired_ratio(times, peer, k):.3f}x paired), rel err {errs[k]:.1e}"
        record(wl, k, ms[k], 0, note)


def matmul():
    dev = torch.device("cuda")
    for n, dt, p in [(4096, torch.bfloat16, "mmbf_"), (8192, torch.bfloat16, "mmbf_"), (4096, torch.float16, "mm16_"),
                     (8192, torch.float16, "mm16_")]:
        wl = f"matmul {n}^3 {str(dt)[6:]}"
        a = torch.randn(n, n, device=dev, dtype=dt)
        b = torch.randn(n, n, device=dev, dtype=dt)
        c = torch.empty(n, n, device=dev, dtype=dt)
        ref = a.float() @ b.float()
        fns, errs = {"cuBLAS": lambda: torch.matmul(a, b, out=c)}, {}
        for label, prefix in [("tilec ring staging, 4 stages (lead11)", p), ("tilec whole-tile staging, 3 stages (main)", p + "old_")]:
            f = tilec_generic(prefix + "matmul", [U64] * 3 + [I64] * 3)
            errs[label] = check_tilec_matmul(wl + " " + label, f, (a, b, c, n, n, n), c, ref)
            fns[label] = lambda f=f: f(a, b, c, n, n, n)
        del ref
        table(wl, "cuBLAS", fns, errs, 2 * n ** 3)
        del a, b, c


def batched():
    dev = torch.device("cuda")
    batch, n = 32, 2048
    wl = f"batched_matmul {batch} x {n}^3 bf16"
    a = torch.randn(batch, n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(batch, n, n, device=dev, dtype=torch.bfloat16)
    c = torch.empty(batch, n, n, device=dev, dtype=torch.bfloat16)
    ref = torch.bmm(a.float(), b.float())
    fns, errs = {"torch.bmm": lambda: torch.bmm(a, b, out=c)}, {}
    for label, prefix in [("tilec persistent, ring staging, 4 stages (lead11)", "bmm_p_"),
                          ("tilec persistent, whole-tile staging, 3 stages (main)", "bmm_p_old_"),
                          ("tilec persistent=False, 4 stages (main's sample)", "bmm_np_")]:
        f = tilec_generic(prefix + "batched_matmul", [U64] * 3 + [I64] * 4)
        args = (a, b, c, batch, n, n, n)
        errs[label] = check_tilec_matmul(wl + " " + label, f, args, c, ref)
        fns[label] = lambda f=f, args=args: f(*args)
    del ref
    table(wl, "torch.bmm", fns, errs, 2 * batch * n ** 3)
    del a, b, c


def f8():
    dev = torch.device("cuda")
    for n in (8192, 4096):
        wl = f"f8e4m3 GEMM {n}^3, bf16 out, per-tensor scales"
        a = (torch.randn(n, n, device=dev) * 2).to(torch.float8_e4m3fn)
        b = (torch.randn(n, n, device=dev) * 2).to(torch.float8_e4m3fn)
        sa, sb = torch.tensor(0.375, device=dev), torch.tensor(1.75, device=dev)
        c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
        ref = (a.double() @ b.double().t()) * (0.375 * 1.75)
        peer = "torch._scaled_mm (use_fast_accum=True)"
        fns = {peer: lambda: torch._scaled_mm(a, b.t(), sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True)}
        errs = {}
        for label, prefix in [("tilec ring staging, 4 stages (lead11)", "f8_"), ("tilec whole-tile staging, 3 stages (main)", "f8_old_")]:
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
        matmul()
        f8()
    with open(sys.argv[2], "w") as fh:
        fh.write(f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}\n\n")
        fh.write("| workload | implementation | ms (median) | notes |\n|---|---|---|---|\n")
        for wl, impl, ms, _, note in bench.rows:
            fh.write(f"| {wl} | {impl} | {ms:.4f} | {note} |\n")
