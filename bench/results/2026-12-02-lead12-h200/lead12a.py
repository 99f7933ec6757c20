"""Lead, session 12, call 1: where the persistent TMA store's ring of two box slots loses its
time (issue 16's batched bar), and relu(A@B+bias) beside torch.compile (issue 15's goal).
Variants (built by make1.sh with experimental compilers that are not committed):
  *0 main default: persistent, whole-tile staging (3 TMA stages)
  *1 main, num_stages=4: ring of 2 slots, 4 stages
  *2 ring forced at 3 stages (ring cost alone, no stage gained)
  *3 ring, 4 stages, no wait_group.read before a slot is rewritten (RACY: timing only)
  *3n as 3 and without that barrier either (RACY: timing only)
  b4 the batched sample as shipped (persistent=False, 4 stages), b5 ping-pong 128x128 persistent
Each checked launch reports its relative error (racy ones are not required to pass).
    python3 lead12a.py LIB.so RESULTS.md"""
import ctypes
import statistics
import sys
import torch

sys.path.insert(0, "bench")
import bench  # noqa: E402
from bench import interleaved_times, paired_ratio, record, tilec_generic  # noqa

U64, I64 = ctypes.c_uint64, ctypes.c_int64
RACY = ("3", "3n")


def err_of(f, args, out, ref):
    out.fill_(float("nan"))
    f(*args)
    torch.cuda.synchronize()
    return ((out.double() - ref.double()).norm() / ref.double().norm()).item()


def table(wl, peer, fns, errs, flops, iters=50):
    times = interleaved_times(fns, iters=iters)
    ms = {k: statistics.median(v) for k, v in times.items()}
    for k in fns:
        note = f"{flops / ms[k] / 1e9:.0f} TFLOP/s"
        if k in errs:
            note += f", {ms[peer] / ms[k]:.3f}x {peer} ({paired_ratio(times, peer, k):.3f}x paired), rel err {errs[k]:.1e}"
        record(wl, k, ms[k], 0, note)


def variants(wl, fname, nargs, labels, args, out, ref):
    fns, errs = {}, {}
    for prefix, label in labels:
        f = tilec_generic(prefix + fname, nargs)
        errs[label] = err_of(f, args, out, ref)
        racy = prefix.rstrip("_")[1:] in RACY
        if not racy and not errs[label] < 1e-2:
            raise SystemExit(f"{wl} {label}: relative error {errs[label]}")
        fns[label] = lambda f=f: f(*args)
    return fns, errs


RING = [("0", "main default (whole-tile staging, 3 stages)"), ("1", "num_stages=4 (ring of 2 slots, 4 stages)"),
        ("2", "ring forced, 3 stages"), ("3", "ring, 4 stages, no slot wait (racy)"),
        ("3n", "ring, 4 stages, no slot wait nor barrier (racy)")]


def batched():
    dev = torch.device("cuda")
    batch, n = 32, 2048
    wl = f"batched_matmul {batch} x {n}^3 bf16"
    a = torch.randn(batch, n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(batch, n, n, device=dev, dtype=torch.bfloat16)
    c = torch.empty(batch, n, n, device=dev, dtype=torch.bfloat16)
    ref = torch.bmm(a.float(), b.float())
    labels = [(f"b{p}_", l) for p, l in RING] + [("b4_", "sample as shipped (persistent=False, 4 stages)"),
                                                 ("b5_", "ping-pong 128x128 persistent")]
    fns, errs = variants(wl, "batched_matmul", [U64] * 3 + [I64] * 4, labels, (a, b, c, batch, n, n, n), c, ref)
    del ref
    fns["torch.bmm"] = lambda: torch.bmm(a, b, out=c)
    table(wl, "torch.bmm", fns, errs, 2 * batch * n ** 3)
    del a, b, c


def matmul():
    dev = torch.device("cuda")
    for n in (8192, 4096):
        wl = f"matmul {n}^3 bf16"
        a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
        b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
        c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
        ref = a.float() @ b.float()
        fns, errs = variants(wl, "matmul", [U64] * 3 + [I64] * 3, [(f"m{p}_", l) for p, l in RING],
                             (a, b, c, n, n, n), c, ref)
        del ref
        fns["cuBLAS"] = lambda: torch.matmul(a, b, out=c)
        table(wl, "cuBLAS", fns, errs, 2 * n ** 3)
        del a, b, c


def f8():
    dev = torch.device("cuda")
    n = 8192
    wl = f"f8e4m3 GEMM {n}^3, bf16 out, per-tensor scales"
    a = (torch.randn(n, n, device=dev) * 2).to(torch.float8_e4m3fn)
    b = (torch.randn(n, n, device=dev) * 2).to(torch.float8_e4m3fn)
    sa, sb = torch.tensor(0.375, device=dev), torch.tensor(1.75, device=dev)
    c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    ref = (a.double() @ b.double().t()) * (0.375 * 1.75)
    peer = "torch._scaled_mm (use_fast_accum=True)"
    fns, errs = variants(wl, "matmul_f8", [U64] * 5 + [I64] * 3, [(f"f{p}_", l) for p, l in RING[:4]],
                         (a, b, sa, sb, c, n, n, n), c, ref)
    del ref
    fns[peer] = lambda: torch._scaled_mm(a, b.t(), sa, sb, out_dtype=torch.bfloat16, use_fast_accum=True)
    table(wl, peer, fns, errs, 2 * n ** 3)
    del a, b, c


def relu_compile(compiled):
    dev = torch.device("cuda")
    n = 8192
    wl = f"matmul_bias_relu {n}^3 bf16"
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    bias = torch.randn(n, device=dev, dtype=torch.bfloat16)
    c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    ref = torch.relu(a.float() @ b.float() + bias.float())
    f = tilec_generic("mbrbf_matmul_bias_relu", [U64] * 4 + [I64] * 3)
    errs = {"tilec": err_of(f, (a, b, bias, c, n, n, n), c, ref)}
    assert errs["tilec"] < 1e-2, errs
    eager = "torch eager relu(A@B+bias)"
    fns = {eager: lambda: torch.relu(torch.matmul(a, b) + bias), "cuBLAS plain matmul": lambda: torch.matmul(a, b),
           "tilec": lambda: f(a, b, bias, c, n, n, n)}
    for label, fn in compiled.items():
        got = fn(a, b, bias)
        errs[label] = ((got.double() - ref.double()).norm() / ref.double().norm()).item()
        fns[label] = lambda fn=fn: fn(a, b, bias)
    del ref
    table(wl, eager, fns, errs, 2 * n ** 3)
    del a, b, c


def eager_relu(a, b, bias):
    return torch.relu(torch.matmul(a, b) + bias)


def write(path):
    with open(path, "w") as fh:
        fh.write(f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}\n\n")
        fh.write("| workload | implementation | ms (median) | notes |\n|---|---|---|---|\n")
        for wl, impl, ms, _, note in bench.rows:
            fh.write(f"| {wl} | {impl} | {ms:.4f} | {note} |\n")


if __name__ == "__main__":
    import time
    torch.manual_seed(int(time.time()))
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    for rep in range(2):
        batched()
        matmul()
        f8()
        print(f"rep {rep} done", flush=True)
        write(sys.argv[2])
    compiled = {}
    for mode in ("default", "max-autotune-no-cudagraphs"):
        t0 = time.time()
        try:
            fn = torch.compile(eager_relu, mode=mode)
            x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
            fn(x, x, x[0])
            torch.cuda.synchronize()
            compiled[f"torch.compile({mode})"] = fn
            print(f"torch.compile {mode}: {time.time() - t0:.0f} s", flush=True)
        except Exception as e:  # noqa: BLE001
            print(f"torch.compile {mode} failed: {e}", flush=True)
        relu_compile(compiled)
        write(sys.argv[2])
