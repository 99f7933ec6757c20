"""Times tilec's compiled samples beside PyTorch eager and Triton kernels of the same
computation, in one process on one GPU (METHOD: correct first, fresh random inputs, outputs
poisoned, median of CUDA-event timings after warm-up). Writes a markdown table.

    python3 bench/bench.py LIBTILEC.so RESULTS.md
LIBTILEC.so exports the headers' launch functions (bench/tilec_kernels.c).
"""
import ctypes
import statistics
import sys
import time

import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

lib = ctypes.CDLL(sys.argv[1])
results_path = sys.argv[2]
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


def median_ms(fn, iters=200, warmup=20):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


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


def record(workload, impl, ms, nbytes, note=""):
    gbs = nbytes / ms / 1e6
    rows.append((workload, impl, ms, gbs, note))
    print(f"{workload:28} {impl:34} {ms:8.4f} ms {gbs:8.0f} GB/s {note}", flush=True)


def main():
    torch.manual_seed(int(time.time()))
    dev = torch.device("cuda")
    print(torch.cuda.get_device_name(), "torch", torch.__version__, "triton", triton.__version__)

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
    eager = median_ms(lambda: torch.nn.functional.gelu(x * w + bb, approximate="tanh"))
    record("gelu_bias f32 2^27", "torch eager", eager, nbytes)
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

    with open(results_path, "w") as fh:
        fh.write(f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}; triton {triton.__version__}\n\n")
        fh.write("| workload | implementation | ms (median) | GB/s | notes |\n|---|---|---|---|---|\n")
        for wl, impl, ms, gbs, note in rows:
            fh.write(f"| {wl} | {impl} | {ms:.4f} | {gbs:.0f} | {note} |\n")


main()
