#!/usr/bin/env python3
"""Host time per call of a tiny op (1024 floats), layer by layer, for tilec's PyTorch ops
(docs/torch.md "Overhead"): the header's launch alone, the no-op C++ custom op (the floor of any
op through the dispatcher), the tilec op (out form, functional form), and for comparison a
Triton kernel launch and built-in PyTorch ops.

    python3 bench/torch_overhead.py EXT_DIR [--json OUT.json]

EXT_DIR: tests/gpu/torch/make_ext.sh's folder (the ops library with tilec_bench::noop and
tilec_bench::raw_launch_loop). Each number is the median over 7 rounds of 20000 calls, timed on
the host with the GPU kept busy enough that the launch queue never fills (tiny kernels finish
faster than they are issued).
"""
import argparse
import importlib
import json
import os
import statistics
import sys
import time

import torch

N_CALLS = 20000
ROUNDS = 7


def per_call_us(fn, n=N_CALLS):
    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t0) / n * 1e6)
        torch.cuda.synchronize()
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ext")
    ap.add_argument("--json")
    args = ap.parse_args()
    sys.path.insert(0, args.ext)
    lib = os.path.join(args.ext, "libtilec_torch_ops.so")
    importlib.import_module("vector_add_ops").load(library=lib)
    a, b = torch.randn(1024, device="cuda"), torch.randn(1024, device="cuda")
    c = torch.empty_like(a)
    rows = []

    def row(layer, us, note=""):
        rows.append({"layer": layer, "us": us, "note": note})
        print(f"{layer:60s} {us:7.2f} us  {note}", flush=True)

    raw = torch.ops.tilec_bench.raw_launch_loop(a, b, c, N_CALLS)  # warm
    raw = statistics.median(torch.ops.tilec_bench.raw_launch_loop(a, b, c, N_CALLS) for _ in range(ROUNDS)) * 1e6
    row("header launch (vector_add_strided in a C++ loop)", raw, "cuLaunchKernel and the stub's checks")
    noop = torch.ops.tilec_bench.noop.default
    row("no-op C++ custom op (stable ABI), cached overload", per_call_us(lambda: noop(a)), "the dispatcher's floor")
    out = torch.ops.vector_add.vector_add.out
    row("tilec op, out form, cached overload", per_call_us(lambda: out(a, b, c)), "checks + device guard + stream + launch")
    fn = torch.ops.vector_add.vector_add.default
    row("tilec op, functional form, cached overload", per_call_us(lambda: fn(a, b)), "+ allocating the output")
    row("tilec op, functional form, torch.ops.vector_add.vector_add(a, b)",
        per_call_us(lambda: torch.ops.vector_add.vector_add(a, b)), "+ attribute lookups and overload resolution")
    row("torch.add(a, b, out=c)", per_call_us(lambda: torch.add(a, b, out=c)), "built-in op")
    row("a + b", per_call_us(lambda: a + b), "built-in op, allocating")
    try:
        import triton
        import triton.language as tl

        @triton.jit
        def add_kernel(x, y, z, n, BLOCK: tl.constexpr):
            i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(z + i, tl.load(x + i, mask=i < n) + tl.load(y + i, mask=i < n), mask=i < n)

        row(f"Triton kernel launch add_kernel[(1,)](...) (triton {triton.__version__})",
            per_call_us(lambda: add_kernel[(1,)](a, b, c, 1024, BLOCK=1024)), "JIT launcher")
    except Exception as e:  # noqa: BLE001
        row("Triton kernel launch", float("nan"), f"unavailable: {type(e).__name__}: {e}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
