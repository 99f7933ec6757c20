"""Times tilec's compiled samples beside PyTorch eager and Triton kernels of the same
computation, in one process on one GPU (METHOD: correct first, fresh random inputs, outputs
poisoned, median of CUDA-event timings after warm-up). Writes a markdown table.

    python3 bench/bench.py LIBTILEC.so RESULTS.md
LIBTILEC.so exports the headers' launch functions (bench/tilec_kernels.c).
"""
import ctypes
import os
import random
import statistics
import sys
import time

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

lib = ctypes.CDLL(sys.argv[1])
results_path = sys.argv[2] if len(sys.argv) > 2 else "/dev/null"
rows = []


def tilec(name, narrays):
    f = getattr(lib, name)
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_void_p] + [ctypes.c_uint64] * narrays + [ctypes.c_int64]

    def call(*tensors, n):
        stream = torch.cuda.current_stream().cuda_stream
        r = f(stream, *[t.data_ptr() for t in tensors], n)
        if r != 0:
            raise RuntimeError(f"{name} returned CUresult {r}")
    return call


# Cycles of torch.cuda._sleep queued before each timed launch (about 100 us on an H200): the
# GPU is still busy with it when the start event and the launch reach the stream, so the host's
# launch overhead (Python, ctypes, the driver; several microseconds) does not land between the
# events and in the kernel's time. Triton's do_bench gets the same effect from its cache flush.
BUSY_CYCLES = 200_000


def timed_once(fn):
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(BUSY_CYCLES)
    s.record()
    fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e)


def median_ms(fn, iters=200, warmup=20):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    return statistics.median(timed_once(fn) for _ in range(iters))


# Rounds of the interleaved row benchmarks (each round: one launch of each implementation).
ROW_ITERS = 400


def interleaved_times(fns, iters=50, warmup=5):
    """Event timings (ms) of several implementations timed in turn, one launch of each per round,
    so that clock drift under sustained load (seen on the H200 with tensor-core kernels) weighs
    on all of them alike instead of on whichever is timed last. The order is shuffled every round
    (fixed seed): what a launch finds in the L2 depends on the launch before it, and a fixed
    order gave one implementation the same predecessor every time (a 2-3 % bias in session 4).
    fns: {label: callable}; returns {label: [ms per round]}."""
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    torch.cuda.synchronize()
    times = {k: [] for k in fns}
    order = list(fns)
    rng = random.Random(12345)
    for _ in range(iters):
        rng.shuffle(order)
        for k in order:
            times[k].append(timed_once(fns[k]))
    return times


def interleaved_median_ms(fns, iters=50, warmup=5):
    """Medians (ms) of interleaved_times."""
    return {k: statistics.median(v) for k, v in interleaved_times(fns, iters, warmup).items()}


def paired_ratio(times, peer, mine):
    """Median over rounds of peer time / my time, each pair from the same round of
    interleaved_times: the speed-up with the drift between rounds divided out."""
    return statistics.median(p / m for p, m in zip(times[peer], times[mine]))


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.jit
def gelu_kernel(x, w, b, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m) * tl.load(w + offs, mask=m) + tl.load(b + offs, mask=m)
    inner = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    tl.store(out + offs, 0.5 * v * (1.0 + libdevice.tanh(inner)), mask=m)


@triton.jit
def softmax_kernel(out, inp, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(inp + row * stride + offs, mask=offs < n, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(out + row * stride + offs, y.to(out.dtype.element_ty), mask=offs < n)


@triton.jit
def layernorm_kernel(X, Y, W, B, Mean, Rstd, stride, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n
    x = tl.load(X + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n
    xc = tl.where(m, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(xc * xc, axis=0) / n + eps)
    w = tl.load(W + cols, mask=m).to(tl.float32)
    b = tl.load(B + cols, mask=m).to(tl.float32)
    tl.store(Y + row * stride + cols, (xc * rstd * w + b).to(Y.dtype.element_ty), mask=m)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)


@triton.jit
def rmsnorm_kernel(X, Y, W, stride, n, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n
    x = tl.load(X + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    r = 1 / tl.sqrt(tl.sum(x * x, axis=0) / n + eps)
    w = tl.load(W + cols, mask=m).to(tl.float32)
    tl.store(Y + row * stride + cols, (x * r * w).to(Y.dtype.element_ty), mask=m)


def tilec_generic(name, argtypes):
    f = getattr(lib, name)
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_void_p] + argtypes

    def call(*args):
        stream = torch.cuda.current_stream().cuda_stream
        conv = [a.data_ptr() if isinstance(a, torch.Tensor) else a for a in args]
        r = f(stream, *conv)
        if r != 0:
            raise RuntimeError(f"{name} returned CUresult {r}")
    return call


def record_paired(wl, times, triton_label, nbytes, err):
    """Rows for torch eager, Triton and tilec from interleaved_times keys eager, triton, tilec."""
    med = {k: statistics.median(v) for k, v in times.items()}
    record(wl, "torch eager", med["eager"], nbytes)
    record(wl, triton_label, med["triton"], nbytes)
    record(wl, "tilec", med["tilec"], nbytes,
           f"{paired_ratio(times, 'triton', 'tilec'):.3f}x Triton (paired), rel err {err:.1e}")


def check_close(label, got, ref, tol):
    err = ((got.double() - ref.double()).norm() / ref.double().norm()).item()
    if not err < tol:
        raise SystemExit(f"{label}: relative error {err}")
    return err


def bench_rows():
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    # softmax
    for (M, N, dt, prefix, warps) in [(16384, 4096, torch.float32, "sm32_", 8), (16384, 4096, torch.float16, "sm16_", 8),
                                      (4096, 32768, torch.float16, "sm16l_", 16)]:
        wl = f"softmax {M}x{N} {str(dt)[6:]}"
        x = torch.randn(M, N, device=dev, dtype=dt) * 4
        y = torch.empty_like(x)
        ref = torch.softmax(x.float(), dim=1)
        nbytes = 2 * x.numel() * x.element_size()
        y.fill_(float("nan"))
        softmax_kernel[(M,)](y, x, N, N, BLOCK=N, num_warps=warps)
        check_close(wl + " triton", y, ref, 1e-2)
        f = tilec_generic(prefix + "softmax", [U64, U64, I64, I64])
        y.fill_(float("nan"))
        f(x, y, M, N)
        torch.cuda.synchronize()
        err = check_close(wl, y, ref, 2e-3 if dt != torch.float32 else 1e-5)
        triton_label = f"Triton (row per program, {warps} warps)"
        times = interleaved_times({
            "copy": lambda: y.copy_(x),
            "eager": lambda: torch.softmax(x, dim=1),
            "triton": lambda: softmax_kernel[(M,)](y, x, N, N, BLOCK=N, num_warps=warps),
            "tilec": lambda: f(x, y, M, N)}, iters=ROW_ITERS)
        copy, eager, tri, ms = (statistics.median(times[k]) for k in ("copy", "eager", "triton", "tilec"))
        record(wl, "copy (same bytes)", copy, nbytes)
        record(wl, "torch eager", eager, nbytes)
        record(wl, triton_label, tri, nbytes, f"{copy / tri:.0%} of copy")
        record(wl, "tilec", ms, nbytes, f"{paired_ratio(times, 'triton', 'tilec'):.3f}x Triton (paired), "
               f"{min(tri, eager) / ms:.2f}x best peer, {paired_ratio(times, 'copy', 'tilec'):.0%} of copy, "
               f"rel err {err:.1e}")
        del x, y, ref
    # layernorm
    for (M, N, dt, prefix) in [(16384, 4096, torch.float16, "ln16_"), (16384, 8192, torch.bfloat16, "lnbf_")]:
        wl = f"layernorm {M}x{N} {str(dt)[6:]}"
        x = torch.randn(M, N, device=dev, dtype=dt) + 1
        w = torch.rand(N, device=dev, dtype=dt) + 0.5
        b = torch.randn(N, device=dev, dtype=dt)
        y = torch.empty_like(x)
        mean = torch.empty(M, device=dev)
        rstd = torch.empty(M, device=dev)
        ref = torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5)
        nbytes = 2 * x.numel() * x.element_size()
        y.fill_(float("nan"))
        layernorm_kernel[(M,)](x, y, w, b, mean, rstd, N, N, 1e-5, BLOCK=N, num_warps=8)
        check_close(wl + " triton", y, ref, 1e-2)
        f = tilec_generic(prefix + "layernorm", [U64] * 6 + [I64, I64])
        y.fill_(float("nan"))
        f(x, w, b, y, mean, rstd, M, N)
        torch.cuda.synchronize()
        err = check_close(wl, y, ref, 1e-2)
        times = interleaved_times({
            "eager": lambda: torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5),
            "triton": lambda: layernorm_kernel[(M,)](x, y, w, b, mean, rstd, N, N, 1e-5, BLOCK=N, num_warps=8),
            "tilec": lambda: f(x, w, b, y, mean, rstd, M, N)}, iters=ROW_ITERS)
        record_paired(wl, times, "Triton (row per program, 8 warps)", nbytes, err)
        del x, y
    # rmsnorm
    M, N = 16384, 4096
    wl = f"rmsnorm {M}x{N} bf16"
    x = torch.randn(M, N, device=dev, dtype=torch.bfloat16)
    w = torch.rand(N, device=dev, dtype=torch.bfloat16) + 0.5
    y = torch.empty_like(x)
    ref = torch.nn.functional.rms_norm(x.float(), (N,), w.float(), 1e-6)
    nbytes = 2 * x.numel() * 2
    y.fill_(float("nan"))
    rmsnorm_kernel[(M,)](x, y, w, N, N, 1e-6, BLOCK=N, num_warps=8)
    check_close(wl + " triton", y, ref, 1e-2)
    f = tilec_generic("rmsbf_rmsnorm", [U64] * 3 + [I64, I64])
    y.fill_(float("nan"))
    f(x, w, y, M, N)
    torch.cuda.synchronize()
    err = check_close(wl, y, ref, 1e-2)
    times = interleaved_times({
        "eager": lambda: torch.nn.functional.rms_norm(x, (N,), w, 1e-6),
        "triton": lambda: rmsnorm_kernel[(M,)](x, y, w, N, N, 1e-6, BLOCK=N, num_warps=8),
        "tilec": lambda: f(x, w, y, M, N)}, iters=ROW_ITERS)
    record_paired(wl, times, "Triton (row per program, 8 warps)", nbytes, err)
    del x, y
    # sum_rows
    M, N = 16384, 16384
    wl = f"sum_rows {M}x{N} f32"
    x = torch.randn(M, N, device=dev)
    out = torch.empty(M, device=dev)
    ref = x.double().sum(dim=1)
    nbytes = x.numel() * 4 + M * 4
    eager = median_ms(lambda: torch.sum(x, dim=1))
    record(wl, "torch.sum(x, dim=1)", eager, nbytes)
    f = tilec_generic("sum_rows", [U64, U64, I64, I64])
    out.fill_(float("nan"))
    f(x, out, M, N)
    torch.cuda.synchronize()
    err = check_close(wl, out, ref, 1e-5)
    ms = median_ms(lambda: f(x, out, M, N))
    record(wl, "tilec", ms, nbytes, f"{eager / ms:.2f}x torch, rel err {err:.1e}")
    del x
    # transpose
    M, N = 8192, 8192
    wl = f"transpose {M}x{N} f32"
    x = torch.randn(M, N, device=dev)
    y = torch.empty(N, M, device=dev)
    nbytes = 2 * x.numel() * 4
    copy = median_ms(lambda: y.copy_(x))
    record(wl, "copy (same bytes)", copy, nbytes)
    eager = median_ms(lambda: y.copy_(x.t()))
    record(wl, "torch x.t() copy", eager, nbytes)
    for name in ["transpose", "transpose_tiles"]:
        f = tilec_generic(name, [U64, U64, I64, I64])
        y.fill_(float("nan"))
        f(x, y, M, N)
        torch.cuda.synchronize()
        if not torch.equal(y, x.t()):
            raise SystemExit(f"{name}: wrong result")
        ms = median_ms(lambda: f(x, y, M, N))
        record(wl, "tilec " + name, ms, nbytes, f"{copy / ms:.2f}x copy bandwidth, {eager / ms:.2f}x torch")


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  GROUP: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    width = GROUP * num_n
    group = pid // width
    first_m = group * GROUP
    size_m = min(num_m - first_m, GROUP)
    pm = first_m + ((pid % width) % size_m)  # language.md §7.1: the position in the band
    pn = (pid % width) // size_m
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(tl.load(a, mask=rk[None, :] < K - k * BK, other=0.0),
                      tl.load(b, mask=rk[:, None] < K - k * BK, other=0.0))
        a += BK
        b += BK * N
    c = c_ptr + rm[:, None] * N + rn[None, :]
    tl.store(c, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


def check_tilec_matmul(wl, f, args, out, ref):
    """Runs a tilec matmul launch f(*args) into a NaN-poisoned `out`, checks it against `ref` and
    returns the relative error."""
    out.fill_(float("nan"))
    f(*args)
    torch.cuda.synchronize()
    return check_close(wl, out, ref, 1e-2)


def time_matmuls(wl, base_name, peers, tilecs, flops):
    """Times the peers ({label: fn}) and the checked tilec launches ({label: (fn, rel err)}) in
    turn (interleaved_median_ms) and records each row; tilec rows carry their ratio to the peer
    `base_name`. Returns the medians."""
    fns = dict(peers)
    fns.update({k: fn for k, (fn, _) in tilecs.items()})
    ms = interleaved_median_ms(fns)
    for k in peers:
        record(wl, k, ms[k], 0, f"{flops / ms[k] / 1e9:.0f} TFLOP/s")
    for k, (_, err) in tilecs.items():
        record(wl, k, ms[k], 0, f"{flops / ms[k] / 1e9:.0f} TFLOP/s, {ms[base_name] / ms[k]:.2f}x {base_name}, "
               f"rel err {err:.1e}")
    return ms


def bench_matmul():
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    cases = [(4096, torch.bfloat16, "mmbf_"), (8192, torch.bfloat16, "mmbf_"), (8192, torch.float16, "mm16_"),
             (4096, torch.float16, "mm16_")]
    first = None
    for n, dt, prefix in cases:
        wl = f"matmul {n}^3 {str(dt)[6:]}"
        a = torch.randn(n, n, device=dev, dtype=dt)
        b = torch.randn(n, n, device=dev, dtype=dt)
        c = torch.empty(n, n, device=dev, dtype=dt)
        flops = 2 * n ** 3
        ref = a.float() @ b.float()
        f = tilec_generic(prefix + "matmul", [U64, U64, U64, I64, I64, I64])
        args = (a, b, c, n, n, n)
        err = check_tilec_matmul(wl, f, args, c, ref)
        grid = (triton.cdiv(n, 128) * triton.cdiv(n, 128),)
        ms = time_matmuls(wl, "cuBLAS", {
            "cuBLAS": lambda: torch.matmul(a, b, out=c),
            "Triton (128x128x64, 8 warps, 3 stages)": lambda: matmul_kernel[grid](
                a, b, c, n, n, n, BM=128, BN=128, BK=64, GROUP=8, num_warps=8, num_stages=3)},
            {"tilec": (lambda: f(*args), err)}, flops)
        if first is None:
            first = (wl, ms["cuBLAS"])
        del a, b, c, ref
    # matmul_bias_relu bf16 8192^3 against cuBLAS's plain matmul
    n = 8192
    wl = f"matmul_bias_relu {n}^3 bf16"
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    bias = torch.randn(n, device=dev, dtype=torch.bfloat16)
    c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    flops = 2 * n ** 3
    ref = torch.relu(a.float() @ b.float() + bias.float())
    f = tilec_generic("mbrbf_matmul_bias_relu", [U64] * 4 + [I64, I64, I64])
    args = (a, b, bias, c, n, n, n)
    err = check_tilec_matmul(wl, f, args, c, ref)
    time_matmuls(wl, "cuBLAS plain matmul", {
        "cuBLAS plain matmul": lambda: torch.matmul(a, b),
        "torch eager relu(A@B+bias)": lambda: torch.relu(torch.matmul(a, b) + bias)},
        {"tilec": (lambda: f(*args), err)}, flops)
    del a, b, c, ref
    # Tile configurations of matmul.tile (tests/gpu/make_variants.sh)
    listing = os.path.join(os.path.dirname(sys.argv[3]), "matmul_variants.txt") if len(sys.argv) > 3 else ""
    if listing and os.path.exists(listing):
        for n, dt, prefix in [(8192, torch.bfloat16, "mmv_"), (4096, torch.float16, "mmv16_"),
                              (4096, torch.bfloat16, "mmv_"), (8192, torch.float16, "mmv16_")]:
            wl = f"matmul {n}^3 {str(dt)[6:]} configs"
            a = torch.randn(n, n, device=dev, dtype=dt)
            b = torch.randn(n, n, device=dev, dtype=dt)
            c = torch.empty(n, n, device=dev, dtype=dt)
            ref = a.float() @ b.float()
            tilecs = {}
            default = tilec_generic(("mmbf_" if dt == torch.bfloat16 else "mm16_") + "matmul", [U64, U64, U64, I64, I64, I64])
            tilecs["tilec default (matmul.tile)"] = (lambda: default(a, b, c, n, n, n),
                                                     check_tilec_matmul(wl, default, (a, b, c, n, n, n), c, ref))
            for line in open(listing):
                name, desc = line.split(" ", 1)
                f = tilec_generic(f"{prefix}{name}_matmul", [U64, U64, U64, I64, I64, I64])
                tilecs[f"tilec {desc.strip()}"] = (lambda f=f: f(a, b, c, n, n, n),
                                                   check_tilec_matmul(wl, f, (a, b, c, n, n, n), c, ref))
            time_matmuls(wl, "cuBLAS", {"cuBLAS": lambda: torch.matmul(a, b, out=c)}, tilecs, 2 * n ** 3)
            del a, b, c, ref
    # A @ B^T (B stored [N, K]) through matmul_bt.tile, f16 8192^3, against cuBLAS on the same views
    n = 8192
    wl = f"matmul_bt {n}^3 f16"
    a = torch.randn(n, n, device=dev, dtype=torch.float16)
    b = torch.randn(n, n, device=dev, dtype=torch.float16)
    c = torch.empty(n, n, device=dev, dtype=torch.float16)
    ref = a.float() @ b.float().t()
    f = tilec_generic("mmbt_matmul_bt", [U64, U64, U64, I64, I64, I64])
    err = check_tilec_matmul(wl, f, (a, b, c, n, n, n), c, ref)
    time_matmuls(wl, "cuBLAS (torch.matmul(a, b.t()))", {
        "cuBLAS (torch.matmul(a, b.t()))": lambda: torch.matmul(a, b.t(), out=c)},
        {"tilec": (lambda: f(a, b, c, n, n, n), err)}, 2 * n ** 3)
    del a, b, c, ref
    # cuBLAS again at the end: clock drift
    wl0, ms0 = first
    a = torch.randn(4096, 4096, device=dev, dtype=torch.bfloat16)
    b = torch.randn(4096, 4096, device=dev, dtype=torch.bfloat16)
    again = median_ms(lambda: torch.matmul(a, b), iters=50)
    record(wl0, "cuBLAS again at the end", again, 0, f"{2 * 4096 ** 3 / again / 1e9:.0f} TFLOP/s (drift {again / ms0:.3f}x)")


def bench_f8():
    """samples/matmul_f8.tile (f8e4m3 A [M, K], B [N, K], per-tensor f32 scales, bf16 out) beside
    torch._scaled_mm(a, b.t(), scale_a, scale_b, out_dtype=bf16, use_fast_accum=...): the
    sample's default keeps one f32 accumulator without periodic promotion, which is what
    use_fast_accum=True asks of cuBLAS; -D PROMOTE=True (pr_) promotes every BK, as cuBLAS does
    with use_fast_accum=False. Every launch is checked against float64 first (relative error of
    the whole C), then all are timed interleaved; each tilec row gives its ratio to the cuBLAS
    call with the same accumulation."""
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    fast_label = "torch._scaled_mm (use_fast_accum=True)"
    slow_label = "torch._scaled_mm (use_fast_accum=False)"
    configs = [("matmul_f8", "tilec 128x256x128 (default)", fast_label),
               ("bn128_matmul_f8", "tilec 128x128x128", fast_label),
               ("pr_matmul_f8", "tilec 128x128x128 PROMOTE", slow_label)]
    fns = {label: (tilec_generic(name, [U64] * 5 + [I64, I64, I64]), peer) for name, label, peer in configs
           if hasattr(lib, name)}
    for n in (4096, 8192):
        wl = f"f8e4m3 GEMM {n}^3, bf16 out, per-tensor scales"
        a = (torch.randn(n, n, device=dev) * 2).to(torch.float8_e4m3fn)
        b = (torch.randn(n, n, device=dev) * 2).to(torch.float8_e4m3fn)
        sa = torch.tensor(0.375, device=dev)
        sb = torch.tensor(1.75, device=dev)
        c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
        ref = (a.double() @ b.double().t()) * (0.375 * 1.75)
        args = (a, b, sa, sb, c, n, n, n)
        tilecs = {label: (lambda f=f: f(*args), check_tilec_matmul(wl + " " + label, f, args, c, ref))
                  for label, (f, _) in fns.items()}
        peers = {fast_label: lambda: torch._scaled_mm(a, b.t(), sa, sb, out_dtype=torch.bfloat16,
                                                      use_fast_accum=True),
                 slow_label: lambda: torch._scaled_mm(a, b.t(), sa, sb, out_dtype=torch.bfloat16,
                                                      use_fast_accum=False)}
        errs = {k: check_close(wl + " " + k, fn(), ref, 1e-2) for k, fn in peers.items()}
        del ref
        times = interleaved_times({**peers, **{k: fn for k, (fn, _) in tilecs.items()}})
        ms = {k: statistics.median(v) for k, v in times.items()}
        flops = 2 * n ** 3
        for k in peers:
            record(wl, k, ms[k], 0, f"{flops / ms[k] / 1e9:.0f} TFLOP/s, rel err {errs[k]:.2e}")
        for k, (_, err) in tilecs.items():
            peer = fns[k][1]
            record(wl, k, ms[k], 0, f"{flops / ms[k] / 1e9:.0f} TFLOP/s, {ms[peer] / ms[k]:.3f}x {peer} "
                   f"({paired_ratio(times, peer, k):.3f}x paired), rel err {err:.2e}")
        del a, b, c


def bench_tf32():
    """f32 inputs on tf32 tensor cores, 4096^3, beside cuBLAS with TF32 allowed
    (torch.matmul(a, b), B stored [K, N]). tf32 wgmma has no transpose, so tilec's Hopper path
    needs B as [N, K]: "tilec transpose + matmul_bt" transposes B (samples/transpose.tile) and
    then runs matmul_bt.tile -D T=tf32 on wgmma; the product alone is also timed beside cuBLAS
    on the same [N, K] data (torch.matmul(a, bt.t())). "tilec portable" is matmul.tile -D T=f32
    (astype(tf32) in the loop: mma.sync). Each is checked against float64 first."""
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    torch.backends.cuda.matmul.allow_tf32 = True
    n = 4096
    wl = f"tf32 matmul {n}^3 (f32 inputs)"
    a = torch.randn(n, n, device=dev)
    b = torch.randn(n, n, device=dev)
    bt = torch.empty(n, n, device=dev)
    c = torch.empty(n, n, device=dev)
    ref = a.double() @ b.double()
    transpose = tilec_generic("transpose", [U64, U64, I64, I64])
    gemm = tilec_generic("tf_matmul_bt", [U64, U64, U64, I64, I64, I64])
    gemm256 = tilec_generic("tf256_matmul_bt", [U64, U64, U64, I64, I64, I64])
    portable = tilec_generic("mm32_matmul", [U64, U64, U64, I64, I64, I64])

    def with_copy(g):
        def run():
            transpose(b, bt, n, n)
            g(a, bt, c, n, n, n)
        return run
    tilecs = {}
    for label, fn in [("tilec transpose + matmul_bt tf32 128x128 (default)", with_copy(gemm)),
                      ("tilec transpose + matmul_bt tf32 128x256", with_copy(gemm256)),
                      ("tilec portable (matmul.tile -D T=f32)", lambda: portable(a, b, c, n, n, n))]:
        bt.fill_(float("nan"))
        c.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        tilecs[label] = (fn, check_close(wl + " " + label, c, ref, 1e-2))
    tilecs["tilec matmul_bt tf32 128x128 alone (B given [N, K])"] = (
        lambda: gemm(a, bt, c, n, n, n), tilecs["tilec transpose + matmul_bt tf32 128x128 (default)"][1])
    peer = "cuBLAS TF32 (torch.matmul(a, b))"
    err = check_close(wl + " cuBLAS", torch.matmul(a, b), ref, 1e-2)
    record(wl, "cuBLAS TF32 rel err", 0.0, 0, f"{err:.2e}")
    time_matmuls(wl, peer, {peer: lambda: torch.matmul(a, b, out=c),
                            "cuBLAS TF32 on [N, K] B (torch.matmul(a, bt.t()))": lambda: torch.matmul(a, bt.t(), out=c)},
                 tilecs, 2 * n ** 3)
    torch.backends.cuda.matmul.allow_tf32 = False
    del a, b, bt, c, ref


def bench_i8():
    """The i8 GEMM (tests/gpu/i8.tile: A [M, K], B [N, K] i8, C i32, IGMMA on sm_90a) beside
    cuBLAS's torch._int_mm(a, b.t()) (B as the column-major [K, N] view cuBLASLt takes), at 4096^3
    and 8192^3. Every result is compared exactly with torch's first (integer sums are exact)."""
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    for n in (4096, 8192):
        wl = f"i8 GEMM {n}^3, i32 out"
        a = torch.randint(-128, 128, (n, n), device=dev, dtype=torch.int8)
        b = torch.randint(-128, 128, (n, n), device=dev, dtype=torch.int8)
        c = torch.empty(n, n, device=dev, dtype=torch.int32)
        ref = torch._int_mm(a, b.t())
        tilecs = {}
        for label, name in [("tilec 128x128", "matmul_i8"), ("tilec 128x256", "i8w_matmul_i8")]:
            f = tilec_generic(name, [U64] * 3 + [I64] * 3)  # M, K, N
            c.fill_(-1)
            f(a, b, c, n, n, n)
            torch.cuda.synchronize()
            if not torch.equal(c, ref):
                raise SystemExit(f"{wl} {label}: {(c != ref).sum().item()} elements differ from torch._int_mm")
            tilecs[label] = (lambda f=f: f(a, b, c, n, n, n), 0.0)
        time_matmuls(wl, "torch._int_mm", {"torch._int_mm": lambda: torch._int_mm(a, b.t())}, tilecs, 2 * n ** 3)
        del a, b, c, ref


def rotating(sets, fn):
    """A callable running fn(*sets[i]) with i = 0, 1, 2, ... cyclically: a memory-bound kernel
    whose inputs would fit in the L2 beside the previous launch's leftovers reads a different set
    each launch (METHOD: rotate the inputs)."""
    i = [0]

    def call():
        fn(*sets[i[0] % len(sets)])
        i[0] += 1
    return call


def bench_shapes():
    """Issue 16's shapes on the tma_wgmma path: batched matmul against torch.bmm, the decode step
    (M = 16 tokens through nn.Linear's [N, K] weight) against F.linear in TB/s of weights read,
    and split-K (512 x 512 x 16384) against torch.matmul; tile configurations side by side."""
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    bf = torch.bfloat16
    # batched_matmul bf16 32 x 2048^3: grid (tiles, batch); BN=256 as matmul.tile, and BN=128.
    batch, n = 32, 2048
    wl = f"batched_matmul {batch} x {n}^3 bf16"
    a = torch.randn(batch, n, n, device=dev, dtype=bf)
    b = torch.randn(batch, n, n, device=dev, dtype=bf)
    c = torch.empty(batch, n, n, device=dev, dtype=bf)
    ref = torch.bmm(a.float(), b.float())
    tilecs = {}
    for label, prefix in [("tilec 128x256", "bmmbf_"), ("tilec 128x128", "bmmbf128_")]:
        f = tilec_generic(prefix + "batched_matmul", [U64] * 3 + [I64] * 4)  # batch, M, K, N
        args = (a, b, c, batch, n, n, n)
        tilecs[label] = (lambda f=f, args=args: f(*args), check_tilec_matmul(wl, f, args, c, ref))
    time_matmuls(wl, "torch.bmm", {"torch.bmm": lambda: torch.bmm(a, b, out=c)}, tilecs, 2 * batch * n ** 3)
    del a, b, c, ref
    # Batch 1 and 512 (the grid's y axis) against torch.bmm in f32 on the same inputs.
    for batch, m, k, n in [(1, 1000, 1032, 520), (512, 130, 264, 200)]:
        wl = f"batched_matmul {batch} x {m}x{n}x{k} bf16"
        a = torch.randn(batch, m, k, device=dev, dtype=bf)
        b = torch.randn(batch, k, n, device=dev, dtype=bf)
        c = torch.empty(batch, m, n, device=dev, dtype=bf)
        f = tilec_generic("bmmbf_batched_matmul", [U64] * 3 + [I64] * 4)
        err = check_tilec_matmul(wl, f, (a, b, c, batch, m, k, n), c, torch.bmm(a.float(), b.float()))
        time_matmuls(wl, "torch.bmm", {"torch.bmm": lambda: torch.bmm(a, b, out=c)},
                     {"tilec 128x256": (lambda: f(a, b, c, batch, m, k, n), err)}, 2 * batch * m * n * k)
        del a, b, c
    # Decode: Y = X @ W^T, X [M, K] tokens, W [N, K]; four weight sets in rotation (each larger
    # than the L2, so no launch finds the last one's weights there). GB/s counts W's bytes alone.
    for m, n, variants in [(16, 8192, [("BK=128", "ld_"), ("BK=64", "ld64k_"), ("BK=256", "ld256k_")]),
                           (16, 4096, [("BK=128", "ld_")]), (1, 8192, [("BK=128", "ld_")]),
                           (64, 8192, [("MT=64", "ldm64_")])]:
        wl = f"linear decode M={m} N=K={n} bf16"
        sets = [(torch.randn(m, n, device=dev, dtype=bf), torch.randn(n, n, device=dev, dtype=bf) / 64)
                for _ in range(4)]
        y = torch.empty(m, n, device=dev, dtype=bf)
        x0, w0 = sets[0]
        ref = x0.float() @ w0.float().t()
        fns = {"cuBLAS (F.linear)": rotating(sets, lambda x, w: torch.nn.functional.linear(x, w))}
        errs = {}
        for label, prefix in variants:
            f = tilec_generic(prefix + "linear_decode", [U64] * 3 + [I64] * 3)  # M, K, N
            errs["tilec " + label] = check_tilec_matmul(wl, f, (x0, w0, y, m, n, n), y, ref)
            fns["tilec " + label] = rotating(sets, lambda x, w, f=f: f(x, w, y, m, n, n))
        times = interleaved_times(fns, iters=200)
        ms = {k: statistics.median(v) for k, v in times.items()}
        nbytes = n * n * 2
        record(wl, "cuBLAS (F.linear)", ms["cuBLAS (F.linear)"], nbytes)
        for label in errs:
            record(wl, label, ms[label], nbytes, f"{paired_ratio(times, 'cuBLAS (F.linear)', label):.3f}x cuBLAS "
                   f"(paired), rel err {errs[label]:.1e}")
        del sets, y
    # Split-K 512 x 512 x 16384: matmul_splitk (S slices of K into f32 partials) then splitk_reduce,
    # both launches timed together, against cuBLAS.
    m = n = 512
    k = 16384
    wl = f"split-K {m}x{n}x{k} bf16"
    a = torch.randn(m, k, device=dev, dtype=bf)
    b = torch.randn(k, n, device=dev, dtype=bf)
    c = torch.empty(m, n, device=dev, dtype=bf)
    ref = a.float() @ b.float()
    tilecs = {}
    for label, prefix, splits in [("128x128", "sk_", 8), ("128x128", "sk_", 16), ("128x128, SP=8", "sksp8_", 8),
                                  ("128x256", "sk256_", 16), ("128x256", "sk256_", 8), ("64x256", "sk64x256_", 8),
                                  ("256x128", "sk256x128_", 16)]:
        part = tilec_generic(prefix + "matmul_splitk", [U64] * 3 + [I64] * 4)  # M, K, N, S
        red = tilec_generic(prefix + "splitk_reduce", [U64] * 2 + [I64] * 3)  # S, M, N
        p = torch.empty(splits, m, n, device=dev, dtype=torch.float32)

        def run(part=part, red=red, p=p, splits=splits):
            part(a, b, p, m, k, n, splits)
            red(p, c, splits, m, n)
        c.fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        err = check_close(wl, c, ref, 1e-2)
        tilecs[f"tilec {label}, S={splits}"] = (run, err)
        if prefix == "sk_" and splits == 8:  # where the default's time goes: each kernel alone
            tilecs["  its matmul_splitk alone"] = (lambda part=part, p=p: part(a, b, p, m, k, n, 8), err)
            tilecs["  its splitk_reduce alone"] = (lambda red=red, p=p: red(p, c, 8, m, n), err)
    time_matmuls(wl, "cuBLAS", {"cuBLAS": lambda: torch.matmul(a, b, out=c)}, tilecs, 2 * m * n * k)
    del a, b, c, ref


def bench_variants(variants_txt):
    """Variants of the row kernels (tests/gpu/make_variants.sh: warp counts, flags), for tuning,
    timed interleaved with Triton's kernel for the same shape at 4, 8 and 16 warps. Each line of
    variants_txt: <prefix> <shape> <kernel> <label>."""
    import os
    if not os.path.exists(variants_txt):
        return
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    shapes = {"sm16": (16384, 4096, torch.float16), "sm16l": (4096, 32768, torch.float16),
              "ln16": (16384, 4096, torch.float16), "lnbf": (16384, 8192, torch.bfloat16),
              "rmsbf": (16384, 4096, torch.bfloat16)}
    groups = {}
    for line in open(variants_txt):
        prefix, shape, kernel, label = line.rstrip("\n").split(" ", 3)
        groups.setdefault(shape, []).append((prefix, kernel, label))
    for shape, variants in groups.items():
        M, N, dt = shapes[shape]
        x = torch.randn(M, N, device=dev, dtype=dt)
        y = torch.empty_like(x)
        w = torch.ones(N, device=dev, dtype=dt)
        b = torch.zeros(N, device=dev, dtype=dt)
        mean = torch.empty(M, device=dev)
        rstd = torch.empty(M, device=dev)
        nbytes = 2 * x.numel() * x.element_size()
        kernel = variants[0][1]
        if kernel == "softmax":
            ref = torch.softmax(x.float(), dim=1)
            tilec_args, triton_fn = ([U64, U64, I64, I64], (x, y, M, N)), \
                lambda nw: softmax_kernel[(M,)](y, x, N, N, BLOCK=N, num_warps=nw)
        elif kernel == "layernorm":
            ref = torch.nn.functional.layer_norm(x.float(), (N,), eps=1e-5)
            tilec_args, triton_fn = ([U64] * 6 + [I64, I64], (x, w, b, y, mean, rstd, M, N)), \
                lambda nw: layernorm_kernel[(M,)](x, y, w, b, mean, rstd, N, N, 1e-5, BLOCK=N, num_warps=nw)
        else:
            ref = torch.nn.functional.rms_norm(x.float(), (N,), eps=1e-6)
            tilec_args, triton_fn = ([U64] * 3 + [I64, I64], (x, w, y, M, N)), \
                lambda nw: rmsnorm_kernel[(M,)](x, y, w, N, N, 1e-6, BLOCK=N, num_warps=nw)
        fns, errs = {}, {}
        for prefix, kernel, label in variants:
            f = tilec_generic(prefix + kernel, tilec_args[0])
            fn = (lambda f: lambda: f(*tilec_args[1]))(f)
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            errs[label] = check_close(f"{prefix} {shape}", y, ref, 1e-2)
            fns[label] = fn
        for nw in (4, 8, 16):
            label = f"Triton, {nw} warps"
            fn = (lambda nw: lambda: triton_fn(nw))(nw)
            y.fill_(float("nan"))
            fn()
            errs[label] = check_close(f"{label} {shape}", y, ref, 1e-2)
            fns[label] = fn
        times = interleaved_times(fns, iters=ROW_ITERS)
        ms = {k: statistics.median(v) for k, v in times.items()}
        best_triton = min((v, k) for k, v in ms.items() if k.startswith("Triton"))[1]
        for label, t in ms.items():
            record(f"tuning {shape} {M}x{N}", label, t, nbytes,
                   f"{paired_ratio(times, best_triton, label):.3f}x {best_triton} (paired), "
                   f"rel err {errs[label]:.1e}")
        del x, y, ref


@triton.jit
def stencil2d_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr, COLS_FIRST: tl.constexpr):
    # COLS_FIRST: program_id(0) along the columns, the grid order of samples/stencil2d.tile (the
    # CTAs in flight cover whole rows: 6 % faster on the H200); else along the rows
    if COLS_FIRST:
        rows = tl.program_id(1) * BM + tl.arange(0, BM)[:, None]
        cols = tl.program_id(0) * BN + tl.arange(0, BN)[None, :]
    else:
        rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
        cols = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    in_r = rows < M
    in_c = cols < N
    centre = tl.load(x + rows * N + cols, mask=in_r & in_c, other=0.0)
    up = tl.load(x + (rows - 1) * N + cols, mask=(rows >= 1) & in_r & in_c, other=0.0)
    down = tl.load(x + (rows + 1) * N + cols, mask=(rows + 1 < M) & in_c, other=0.0)
    left = tl.load(x + rows * N + cols - 1, mask=in_r & (cols >= 1) & in_c, other=0.0)
    right = tl.load(x + rows * N + cols + 1, mask=in_r & (cols + 1 < N), other=0.0)
    tl.store(out + rows * N + cols, 4.0 * centre - (up + down) - (left + right), mask=in_r & in_c)


@triton.jit
def silu_gate_kernel(x, out, D, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = cols < D
    g = tl.load(x + row * 2 * D + cols, mask=m).to(tl.float32)
    u = tl.load(x + row * 2 * D + D + cols, mask=m).to(tl.float32)
    tl.store(out + row * D + cols, (g * tl.sigmoid(g) * u).to(out.dtype.element_ty), mask=m)


@triton.jit
def silu_gate_flat_kernel(x, out, D, NB, BLOCK: tl.constexpr):
    # silu_gate_kernel on one grid axis, the NB column blocks of a row consecutive: the grid
    # order of samples/silu_gate.tile
    pid = tl.program_id(0)
    row = (pid // NB).to(tl.int64)
    cols = (pid % NB) * BLOCK + tl.arange(0, BLOCK)
    m = cols < D
    g = tl.load(x + row * 2 * D + cols, mask=m).to(tl.float32)
    u = tl.load(x + row * 2 * D + D + cols, mask=m).to(tl.float32)
    tl.store(out + row * D + cols, (g * tl.sigmoid(g) * u).to(out.dtype.element_ty), mask=m)


# tilec's tile-size variants of the offset samples (tests/gpu/make_headers.sh: --prefix).
STENCIL_TILEC = [("", "BM=8 BN=256 WARPS=4"), ("st8w_", "BM=8 BN=256 WARPS=8"),
                 ("st16x128_", "BM=16 BN=128 WARPS=8"), ("st4x512_", "BM=4 BN=512 WARPS=8"),
                 ("st8x128_", "BM=8 BN=128 WARPS=4"), ("st4x256_", "BM=4 BN=256 WARPS=4"),
                 ("st16x256_", "BM=16 BN=256 WARPS=8"), ("st8x512_", "BM=8 BN=512 WARPS=8")]
SILU_TILEC = [("", "BN=2048 WARPS=8"), ("sg1k_", "BN=1024 WARPS=4"), ("sg2k4w_", "BN=2048 WARPS=4"),
              ("sg4k_", "BN=4096 WARPS=8"), ("sg4k16w_", "BN=4096 WARPS=16")]


def time_offset_workload(wl, nbytes, copy, eager, tritons, tilecs, errs):
    """Times a plain copy of the same bytes, torch eager, every Triton configuration and every
    tilec variant interleaved; records them with the best Triton configuration as the peer."""
    fns = {"copy": copy, "eager": eager}
    fns.update(tritons)
    fns.update(tilecs)
    times = interleaved_times(fns, iters=ROW_ITERS)
    med = {k: statistics.median(v) for k, v in times.items()}
    best_triton = min(tritons, key=lambda k: med[k])
    record(wl, "copy (same bytes)", med["copy"], nbytes)
    record(wl, "torch eager", med["eager"], nbytes, f"{med['copy'] / med['eager']:.0%} of copy")
    for k in tritons:
        record(wl, k, med[k], nbytes, f"{med['copy'] / med[k]:.0%} of copy" + (", best Triton" if k == best_triton else ""))
    for k in tilecs:
        record(wl, k, med[k], nbytes,
               f"{paired_ratio(times, best_triton, k):.3f}x best Triton (paired), "
               f"{paired_ratio(times, 'copy', k):.0%} of copy, {med['eager'] / med[k]:.2f}x eager, rel err {errs[k]:.1e}")


def bench_offsets():
    """The samples of loads and stores at element offsets (language.md §7.2.1): a 2-D 5-point
    stencil and the SwiGLU gate silu(x[:, :D]) * x[:, D:] at a run-time D."""
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    # stencil2d f32
    for (M, N) in [(8192, 8192)]:
        wl = f"stencil2d {M}x{N} f32"
        x = torch.randn(M, N, device=dev)
        y = torch.empty_like(x)
        xp = torch.nn.functional.pad(x.double(), (1, 1, 1, 1))
        ref = 4 * x.double() - (xp[:-2, 1:-1] + xp[2:, 1:-1]) - (xp[1:-1, :-2] + xp[1:-1, 2:])
        del xp

        def eager():
            xp = torch.nn.functional.pad(x, (1, 1, 1, 1))
            return 4 * x - (xp[:-2, 1:-1] + xp[2:, 1:-1]) - (xp[1:-1, :-2] + xp[1:-1, 2:])
        check_close(wl + " eager", eager(), ref, 1e-6)
        errs, tritons, tilecs = {}, {}, {}
        # Triton in both grid orders: bid(0) along the rows (the tutorial's habit) and along the
        # columns (the sample's order)
        for (bm, bn, nw, cols) in [(16, 128, 4, False), (32, 128, 4, False), (8, 256, 4, False), (32, 256, 8, False),
                                   (16, 128, 4, True), (8, 256, 4, True), (4, 256, 4, True)]:
            label = f"Triton {bm}x{bn}, {nw} warps" + (", columns first" if cols else "")
            grid = (triton.cdiv(N, bn), triton.cdiv(M, bm)) if cols else (triton.cdiv(M, bm), triton.cdiv(N, bn))
            fn = (lambda bm, bn, nw, cols, grid: lambda: stencil2d_kernel[grid](
                x, y, M, N, BM=bm, BN=bn, COLS_FIRST=cols, num_warps=nw))(bm, bn, nw, cols, grid)
            y.fill_(float("nan"))
            fn()
            check_close(wl + " " + label, y, ref, 1e-6)
            tritons[label] = fn
        for prefix, label in STENCIL_TILEC:
            f = tilec_generic(prefix + "stencil2d", [U64, U64, I64, I64])
            fn = (lambda f: lambda: f(x, y, M, N))(f)
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            errs["tilec " + label] = check_close(wl + " tilec " + label, y, ref, 1e-6)
            tilecs["tilec " + label] = fn
        time_offset_workload(wl, 2 * x.numel() * 4, lambda: y.copy_(x), eager, tritons, tilecs, errs)
        del x, y, ref
    # silu_gate bf16: x = [gate | up] of M rows, 2 D columns
    for (M, D) in [(8192, 4096), (4096, 14336)]:
        wl = f"silu_gate {M}x{D} bf16"
        x = torch.randn(M, 2 * D, device=dev, dtype=torch.bfloat16) * 3
        y = torch.empty(M, D, device=dev, dtype=torch.bfloat16)
        xf = x.float()
        ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
        del xf
        src = torch.empty(M * D * 3 // 2, device=dev, dtype=torch.bfloat16)
        dst = torch.empty_like(src)

        def eager():
            return torch.nn.functional.silu(x[:, :D]) * x[:, D:]
        check_close(wl + " eager", eager(), ref, 1e-2)
        errs, tritons, tilecs = {}, {}, {}
        # Triton with the rows along program_id(0) and on one axis, a row's blocks consecutive
        for (block, nw, flat) in [(1024, 4, False), (2048, 8, False), (4096, 8, False),
                                  (1024, 4, True), (2048, 8, True), (4096, 8, True)]:
            label = f"Triton BLOCK={block}, {nw} warps" + (", one axis" if flat else "")
            nb = triton.cdiv(D, block)
            if flat:
                fn = (lambda block, nw, nb: lambda: silu_gate_flat_kernel[(M * nb,)](
                    x, y, D, nb, BLOCK=block, num_warps=nw))(block, nw, nb)
            else:
                fn = (lambda block, nw, nb: lambda: silu_gate_kernel[(M, nb)](
                    x, y, D, BLOCK=block, num_warps=nw))(block, nw, nb)
            y.fill_(float("nan"))
            fn()
            check_close(wl + " " + label, y, ref, 1e-2)
            tritons[label] = fn
        for prefix, label in SILU_TILEC:
            f = tilec_generic(prefix + "silu_gate", [U64, U64, I64, I64, I64])
            fn = (lambda f: lambda: f(x, y, M, 2 * D, D))(f)
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            errs["tilec " + label] = check_close(wl + " tilec " + label, y, ref, 1e-2)
            tilecs["tilec " + label] = fn
        time_offset_workload(wl, 3 * M * D * 2, lambda: dst.copy_(src), eager, tritons, tilecs, errs)
        del x, y, ref, src, dst


def record(workload, impl, ms, nbytes, note=""):
    gbs = nbytes / ms / 1e6 if nbytes else 0
    rows.append((workload, impl, ms, gbs, note))
    print(f"{workload:28} {impl:34} {ms:8.4f} ms {gbs:8.0f} GB/s {note}", flush=True)


def bench_elementwise():
    dev = torch.device("cuda")
    # Ceiling: a plain device copy (bytes read + written).
    n = 1 << 28
    src = torch.randn(n, device=dev)
    dst = torch.empty_like(src)
    record("copy f32 2^28", "torch copy_", median_ms(lambda: dst.copy_(src)), 8 * n)
    del src, dst

    # vector_add f32, N = 2^28 + 7
    n = (1 << 28) + 7
    a = torch.randn(n, device=dev)
    b = torch.randn(n, device=dev)
    c = torch.empty_like(a)
    ref = a + b
    nbytes = 12 * n
    peers = {}
    peers["torch eager"] = median_ms(lambda: torch.add(a, b, out=c))
    grid = (triton.cdiv(n, 4096),)
    peers["Triton (BLOCK 4096, 8 warps)"] = median_ms(lambda: add_kernel[grid](a, b, c, n, BLOCK=4096, num_warps=8))
    best = min(peers.values())
    for k, v in peers.items():
        record("vector_add f32 2^28+7", k, v, nbytes)
    for prefix, label in [("t1k_", "tilec TILE=1024"), ("t2k_", "tilec TILE=2048"), ("t4k_", "tilec TILE=4096")]:
        f = tilec(prefix + "vector_add", 3)
        c.fill_(float("nan"))
        f(a, b, c, n=n)
        torch.cuda.synchronize()
        if not torch.equal(c, ref):
            raise SystemExit(f"{label}: wrong result")
        ms = median_ms(lambda: f(a, b, c, n=n))
        record("vector_add f32 2^28+7", label, ms, nbytes, f"{best / ms:.2f}x best peer")
    del a, b, c, ref

    # gelu_tanh(x*w + b) f32, N = 2^27
    n = 1 << 27
    x = torch.randn(n, device=dev)
    w = torch.randn(n, device=dev)
    bb = torch.randn(n, device=dev)
    out = torch.empty_like(x)
    ref = torch.nn.functional.gelu(x.double() * w.double() + bb.double(), approximate="tanh")
    nbytes = 16 * n
    fused_eager = median_ms(lambda: torch.nn.functional.gelu(x * w + bb, approximate="tanh"))
    record("gelu_bias f32 2^27", "torch eager (F.gelu, 3 kernels)", fused_eager, nbytes)

    def composed():
        v = x * w + bb
        return 0.5 * v * (1.0 + torch.tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)))
    eager = median_ms(composed)
    record("gelu_bias f32 2^27", "torch eager (formula, 10 kernels)", eager, nbytes)
    grid = (triton.cdiv(n, 1024),)
    tri = median_ms(lambda: gelu_kernel[grid](x, w, bb, out, n, BLOCK=1024, num_warps=4))
    record("gelu_bias f32 2^27", "Triton (BLOCK 1024, 4 warps)", tri, nbytes)
    grid4 = (triton.cdiv(n, 4096),)
    tri4 = median_ms(lambda: gelu_kernel[grid4](x, w, bb, out, n, BLOCK=4096, num_warps=8))
    record("gelu_bias f32 2^27", "Triton (BLOCK 4096, 8 warps)", tri4, nbytes)
    best_tri = min(tri, tri4)
    for prefix, label in [("t1k_", "tilec TILE=1024"), ("t2k_", "tilec TILE=2048"), ("t4k_", "tilec TILE=4096"),
                          ("fast_", "tilec TILE=1024 --fast-math")]:
        f = tilec(prefix + "gelu_bias", 4)
        out.fill_(float("nan"))
        f(x, w, bb, out, n=n)
        torch.cuda.synchronize()
        err = ((out.double() - ref).norm() / ref.norm()).item()
        if not err < (1e-3 if "fast" in label else 1e-6):
            raise SystemExit(f"{label}: relative error {err}")
        ms = median_ms(lambda: f(x, w, bb, out, n=n))
        record("gelu_bias f32 2^27", label, ms, nbytes,
               f"{best_tri / ms:.2f}x Triton, {eager / ms:.2f}x eager, rel err {err:.1e}")


@triton.jit
def cumsum_kernel(X, Y, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n
    x = tl.load(X + row * stride + cols, mask=m, other=0.0)
    tl.store(Y + row * stride + cols, tl.cumsum(x, axis=0), mask=m)


@triton.jit
def histogram_kernel(x, bins, n, lo, hi, scale, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    # histogram.tile's algorithm: one relaxed global atomic per counted value
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=float("nan"))
    b = tl.minimum(tl.floor((v - lo) * scale).to(tl.int32), NBINS - 1)
    tl.atomic_add(bins + b, 1, mask=(v >= lo) & (v < hi), sem="relaxed")


@triton.jit
def histogram_block_kernel(x, bins, n, lo, hi, scale, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    # the block's counts first (tl.histogram), then one atomic per bin
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=float("nan"))
    b = tl.minimum(tl.floor((v - lo) * scale).to(tl.int32), NBINS - 1)
    h = tl.histogram(b, NBINS, mask=(v >= lo) & (v < hi))
    tl.atomic_add(bins + tl.arange(0, NBINS), h, sem="relaxed")


@triton.jit
def embedding_kernel(table, ids, out, n, dim, BR: tl.constexpr, BD: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    c = tl.program_id(1) * BD + tl.arange(0, BD)
    rm = r < n
    idx = tl.load(ids + r, mask=rm, other=0).to(tl.int64)
    m = rm[:, None] & (c[None, :] < dim)
    v = tl.load(table + idx[:, None] * dim + c[None, :], mask=m)
    tl.store(out + r.to(tl.int64)[:, None] * dim + c[None, :], v, mask=m)


def rel_err(got, ref):
    return ((got.double() - ref.double()).norm() / ref.double().norm()).item()


def try_peer(wl, label, fn, check):
    """Runs a peer once, checks it (check(result) is None or what is wrong), then times it. A peer
    that fails to compile or checks wrong gets a "left out" row and None instead of ending the
    run: these peers have not run on every torch/Triton version the benchmark meets."""
    try:
        r = fn()
        torch.cuda.synchronize()
        wrong = check(r)
        if not wrong:
            return median_ms(fn)
    except Exception as e:  # noqa: BLE001 (a Triton compile error, an op missing in this torch)
        wrong = f"{type(e).__name__}: {(str(e).strip().splitlines() or [''])[0][:200]}"
    record(wl, label, float("nan"), 0, f"left out: {wrong}")
    return None


def record_peers(wl, peers, nbytes, notes=None):
    """Records the peers that ran; returns (ms, label) of the fastest, or None."""
    best = None
    for label, ms in peers.items():
        if ms is None:
            continue
        record(wl, label, ms, nbytes, (notes or {}).get(label, ""))
        if best is None or ms < best[0]:
            best = (ms, label)
    return best


def vs_best(best, ms):
    return f"{best[0] / ms:.2f}x best peer ({best[1]})" if best else "no peer ran"


def bench_misc():
    dev = torch.device("cuda")
    U64, I64, F32 = ctypes.c_uint64, ctypes.c_int64, ctypes.c_float
    nan = float("nan")
    # cumsum_rows: inclusive prefix sums along each row, f32
    M, N = 16384, 4096
    wl = f"cumsum_rows {M}x{N} f32"
    x = torch.randn(M, N, device=dev)
    y = torch.empty_like(x)
    ref = x.double().cumsum(dim=1)
    nbytes = 2 * x.numel() * 4

    def close(_):
        err = rel_err(y, ref)
        return None if err < 1e-4 else f"relative error {err:.1e}"
    peers = {}
    y.fill_(nan)
    label = "torch.cumsum(x, dim=1)"
    peers[label] = try_peer(wl, label, lambda: torch.cumsum(x, dim=1, out=y), close)
    y.fill_(nan)
    label = "Triton (tl.cumsum, row per program, 8 warps)"
    peers[label] = try_peer(wl, label, lambda: cumsum_kernel[(M,)](x, y, N, N, BLOCK=N, num_warps=8), close)
    best = record_peers(wl, peers, nbytes)
    for name, label in [("cumsum_rows", "tilec BM=4 BN=1024"), ("narrow_cumsum_rows", "tilec BM=16 BN=256")]:
        f = tilec_generic(name, [U64, U64, I64, I64])
        y.fill_(nan)
        f(x, y, M, N)
        torch.cuda.synchronize()
        err = check_close(f"{wl} {label}", y, ref, 1e-4)
        ms = median_ms(lambda: f(x, y, M, N))
        record(wl, label, ms, nbytes, f"{vs_best(best, ms)}, rel err {err:.1e}")
    del x, y, ref

    # histogram: counts of x in [lo, hi) split into nbins equal bins, i32; NaN and values outside
    # [lo, hi) are not counted. (hi - lo) / nbins is a power of two, so the sample's
    # floor((x - lo) * (nbins / (hi - lo))) and histc's (int)((x - lo) * nbins / (hi - lo)) agree
    # exactly; histc differs only in counting x == hi in the last bin (planted below).
    n, nbins, lo, hi = 1 << 26, 256, -8.0, 8.0
    scale = nbins / (hi - lo)
    wl = f"histogram f32 2^26, {nbins} bins"
    x = torch.randn(n, device=dev) * 4          # normal, sigma 4 over [-8, 8): 4.6% outside
    x[0::1000003] = hi
    x[1::1000003] = lo
    x[2::1000003] = nan
    inside = (x >= lo) & (x < hi)
    idx = torch.where(inside, ((x - lo) * scale).floor().clamp(max=nbins - 1), nbins).long()
    ref = torch.bincount(idx, minlength=nbins + 1)[:nbins].int()
    at_hi = int((x == hi).sum())
    del inside, idx
    nbytes = 4 * n
    bins = torch.zeros(nbins, device=dev, dtype=torch.int32)

    def exact(r):
        return None if torch.equal(r.int(), ref) else f"{int((r.int() - ref).abs().sum())} counts off"

    def histc_check(r):
        expect = ref.clone()
        expect[-1] += at_hi
        return None if torch.equal(r.int(), expect) else f"{int((r.int() - expect).abs().sum())} counts off"

    def torch_same():
        b = ((x - lo) * scale).floor().clamp_(max=nbins - 1)
        return torch.bincount(torch.where((x >= lo) & (x < hi), b, nbins).long(), minlength=nbins + 1)[:nbins]

    def triton_atomic():
        bins.zero_()
        histogram_kernel[(triton.cdiv(n, 1024),)](x, bins, n, lo, hi, scale, NBINS=nbins, BLOCK=1024, num_warps=4)
        return bins

    def triton_block():
        bins.zero_()
        histogram_block_kernel[(triton.cdiv(n, 4096),)](x, bins, n, lo, hi, scale, NBINS=nbins, BLOCK=4096,
                                                        num_warps=8)
        return bins
    peers, notes = {}, {}
    label = "torch.histc (float counts)"
    peers[label] = try_peer(wl, label, lambda: torch.histc(x, bins=nbins, min=lo, max=hi), histc_check)
    notes[label] = f"[lo, hi]: also counts the {at_hi} values == hi"
    label = "torch eager where+bincount (same semantics)"
    peers[label] = try_peer(wl, label, torch_same, exact)
    notes[label] = "several kernels; bincount reads min and max back to the host"
    label = "Triton (atomic per value, BLOCK 1024, 4 warps)"
    peers[label] = try_peer(wl, label, triton_atomic, exact)
    label = "Triton (tl.histogram per block, BLOCK 4096, 8 warps)"
    peers[label] = try_peer(wl, label, triton_block, exact)
    best = record_peers(wl, peers, nbytes, notes)
    hist_args = [U64, U64, I64, I64, F32, F32]
    kernels = [("histogram", "tilec histogram (TILE=4096, 6 CTAs per SM, 8 warps; shared-memory counts)"),
               ("histogram_atomic", "tilec histogram_atomic (one global atomic per value)")]
    hist_txt = os.path.join(os.path.dirname(sys.argv[3]), "hist_variants.txt") if len(sys.argv) > 3 else ""
    if hist_txt and os.path.exists(hist_txt):
        for line in open(hist_txt):
            name, desc = line.rstrip("\n").split(" ", 1)
            kernels.append((f"vh_{name}_histogram", f"tilec histogram, {desc}"))
    for name, label in kernels:
        f = tilec_generic(name, hist_args)

        def tilec_hist():
            bins.zero_()
            f(x, bins, n, nbins, lo, hi)
        tilec_hist()
        torch.cuda.synchronize()
        if not torch.equal(bins, ref):
            raise SystemExit(f"{wl} {name}: wrong counts ({int((bins - ref).abs().sum())} off)")
        f(x, bins, n, nbins, lo, hi)                # launches accumulate
        torch.cuda.synchronize()
        if not torch.equal(bins, 2 * ref):
            raise SystemExit(f"{wl} {name}: a second launch did not accumulate")
        ms = median_ms(tilec_hist)
        record(wl, label, ms, nbytes, f"{vs_best(best, ms)}, exact; times zeroing bins too")
    del x, bins, ref

    # embedding_gather: out[r, :] = table[ids[r], :], 2^20 random ids into a 2^20 x 256 table
    vocab, dim, n = 1 << 20, 256, 1 << 20
    for dt, prefix in [(torch.float32, ""), (torch.bfloat16, "eg16_")]:
        wl = f"embedding 2^20 ids, 2^20x{dim} {str(dt)[6:]}"
        table = torch.randn(vocab, dim, device=dev, dtype=dt)
        ids = torch.randint(0, vocab, (n,), device=dev, dtype=torch.int32)
        out = torch.empty(n, dim, device=dev, dtype=dt)
        ref = table[ids.long()]
        nbytes = 4 * n + 2 * n * dim * table.element_size()   # ids, the rows read, out written

        def same(r):
            return None if torch.equal(r, ref) else "wrong rows"
        peers = {}
        out.fill_(nan)
        label = "torch.index_select(out=)"
        peers[label] = try_peer(wl, label, lambda: torch.index_select(table, 0, ids, out=out), same)
        label = "torch F.embedding"
        peers[label] = try_peer(wl, label, lambda: torch.nn.functional.embedding(ids, table), same)
        out.fill_(nan)
        grid = (triton.cdiv(n, 16), triton.cdiv(dim, 256))
        label = "Triton (16x256 per program, 4 warps)"
        peers[label] = try_peer(wl, label, lambda: embedding_kernel[grid](table, ids, out, n, dim, BR=16, BD=256,
                                                                          num_warps=4), lambda _: same(out))
        best = record_peers(wl, peers, nbytes)
        f = tilec_generic(prefix + "embedding_gather", [U64, U64, U64, I64, I64, I64])
        out.fill_(nan)
        f(table, ids, out, vocab, dim, n)
        torch.cuda.synchronize()
        if not torch.equal(out, ref):
            raise SystemExit(f"{wl}: wrong rows")
        # ids outside [0, vocab) give zero rows (torch raises on them, so only tilec sees them)
        bad = ids.clone()
        bad[0::7] = -1
        bad[1::7] = vocab
        ok = (bad >= 0) & (bad < vocab)
        expect = torch.where(ok[:, None], table[bad.clamp(0, vocab - 1).long()], 0)
        out.fill_(nan)
        f(table, bad, out, vocab, dim, n)
        torch.cuda.synchronize()
        if not torch.equal(out, expect):
            raise SystemExit(f"{wl}: ids outside the table did not give zero rows")
        del bad, ok, expect
        ms = median_ms(lambda: f(table, ids, out, vocab, dim, n))
        record(wl, "tilec (BR=16, BD=256)", ms, nbytes, f"{vs_best(best, ms)}, exact")
        del table, ids, out, ref



def main():
    torch.manual_seed(int(time.time()))
    dev = torch.device("cuda")
    print(torch.cuda.get_device_name(), "torch", torch.__version__, "triton", triton.__version__)

    only = [w for w in os.environ.get("BENCH_ONLY", "").split(",") if w]  # e.g. BENCH_ONLY=matmul
    for name, fn in [("elementwise", bench_elementwise), ("rows", bench_rows), ("matmul", bench_matmul),
                     ("misc", bench_misc), ("offsets", bench_offsets), ("shapes", bench_shapes), ("f8", bench_f8), ("tf32", bench_tf32), ("i8", bench_i8)]:
        if not only or name in only:
            fn()
    if not only or "variants" in only:
        bench_variants(sys.argv[3] if len(sys.argv) > 3 else "")

    with open(results_path, "w") as fh:
        fh.write(f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}; triton {triton.__version__}\n\n")
        fh.write("| workload | implementation | ms (median) | GB/s | notes |\n|---|---|---|---|---|\n")
        for wl, impl, ms, gbs, note in rows:
            fh.write(f"| {wl} | {impl} | {ms:.4f} | {gbs:.0f} | {note} |\n")


if __name__ == "__main__":
    main()
