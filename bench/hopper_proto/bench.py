#!/usr/bin/env python3
"""Correctness and timing driver for the Hopper GEMM prototype (run on the GPU machine).

  bench.py --dir DIR --variant L3 --check          correctness over the shape mixes
  bench.py --dir DIR --variant L3 --time 4096,8192 timing vs cuBLAS (torch.mm), interleaved

DIR holds libhp.so, manifest.json and one .cubin per kernel (gen.py + ptxas). Torch makes the
inputs, the references and the cuBLAS timings; the kernels run through libhp.so (driver API).
Results are appended as JSON lines to --json.
"""
import argparse
import ctypes
import itertools
import json
import math
import os
import statistics
import sys
import time

import torch

p = argparse.ArgumentParser()
p.add_argument("--dir", required=True)
p.add_argument("--variant", required=True)
p.add_argument("--check", action="store_true")
p.add_argument("--time", default="")
p.add_argument("--dtypes", default="bf16,f16")
p.add_argument("--json", default="results.jsonl")
p.add_argument("--log", default="")
p.add_argument("--names", default="", help="comma list of substrings; keep kernels whose name has one")
p.add_argument("--rr", default="", help="sizes for a round-robin timing of every selected kernel + cuBLAS in one process")
p.add_argument("--reps", type=int, default=15)
p.add_argument("--inner", type=int, default=5)
args = p.parse_args()

TD = {"bf16": torch.bfloat16, "f16": torch.float16}
lib = ctypes.CDLL(os.path.join(args.dir, "libhp.so"))
lib.hp_error.restype = ctypes.c_char_p
lib.hp_load.argtypes = [ctypes.c_char_p]
lib.hp_plan.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                        ctypes.c_int, ctypes.c_int,
                        ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p, ctypes.c_long,
                        ctypes.c_int, ctypes.c_int, ctypes.c_int]
lib.hp_launch.argtypes = [ctypes.c_int, ctypes.c_void_p]

torch.cuda.init()
torch.empty(1, device="cuda")
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
NSM = lib.hp_num_sms()

manifest = json.load(open(os.path.join(args.dir, "manifest.json")))
dtypes = args.dtypes.split(",")
kernels = [k for k in manifest if (args.variant == "all" or k["variant"] == args.variant) and k["dtype"] in dtypes
           and (not args.names or any(s in k["name"] for s in args.names.split(",")))]
mods = {}
for k in kernels:
    m = lib.hp_load(os.path.join(args.dir, k["name"] + ".cubin").encode())
    if m < 0:
        sys.exit(f"load {k['name']}: {lib.hp_error().decode()}")
    mods[k["name"]] = m

jf = open(args.json, "a")
logf = open(args.log, "a") if args.log else open(os.devnull, "w")


def emit(rec):
    rec["date"] = time.strftime("%Y-%m-%d %H:%M:%S")
    jf.write(json.dumps(rec) + "\n")
    jf.flush()


def rup8(x):
    return max(8, (x + 7) // 8 * 8)


def plan(k, A, lda, B, ldb, C, ldc, M, N, K):
    ntiles = math.ceil(M / k["bm"]) * math.ceil(N / k["bn"])
    grid = min(ntiles, NSM) if k["persistent"] else ntiles
    pid = lib.hp_plan(mods[k["name"]], k["name"].encode(), k["threads"], k["smem"], grid, k["bn"],
                      0 if k["dtype"] == "bf16" else 1, 1 if k["bmaj"] == "k" else 0,
                      A.data_ptr(), lda, B.data_ptr(), ldb, C.data_ptr(), ldc, M, N, K)
    if pid < 0:
        raise RuntimeError(lib.hp_error().decode())
    return pid


def launch(pid):
    if lib.hp_launch(pid, stream) != 0:
        raise RuntimeError(lib.hp_error().decode())


def make_inputs(dtype, bmaj, M, N, K):
    """A [M,K] and B ([K,N] or [N,K]) as views of buffers whose rows are padded to 16 B (TMA needs
    16-byte row strides); the padding holds NaN so a read past K or N would poison the result."""
    t = TD[dtype]
    lda = rup8(K)
    Af = torch.full((max(M, 1), lda), float("nan"), device="cuda", dtype=t)
    Af[:, :K] = torch.randn(M, K, device="cuda", dtype=t)
    if bmaj == "mn":
        ldb = rup8(N)
        Bf = torch.full((max(K, 1), ldb), float("nan"), device="cuda", dtype=t)
        Bf[:K, :N] = torch.randn(K, N, device="cuda", dtype=t)
        Bm = Bf[:K, :N].float()
    else:
        ldb = rup8(K)
        Bf = torch.full((N, ldb), float("nan"), device="cuda", dtype=t)
        Bf[:, :K] = torch.randn(N, K, device="cuda", dtype=t)
        Bm = Bf[:, :K].float().t()
    ref = Af[:M, :K].float() @ Bm
    return Af, lda, Bf, ldb, ref


def check():
    mix = list(itertools.product([1, 17, 1001, 4099], repeat=3))
    extra = [(1001, 200, 1001), (17, 4096, 4099), (4099, 264, 17), (130, 1000, 72), (128, 256, 64),
             (256, 512, 1024), (1001, 17, 0), (64, 64, 0), (300, 4000, 2048)]
    nfail = 0
    nrun = 0
    worst = {}
    smoke = [(256, 256, 256)]
    for phase, shapes in (("smoke", smoke), ("mix", mix + extra)):
        for (M, N, K) in shapes:
            for dtype in dtypes:
                for bmaj in ("mn", "k"):
                    ks = [k for k in kernels if k["dtype"] == dtype and k["bmaj"] == bmaj]
                    if not ks:
                        continue
                    torch.manual_seed(M * 1000003 + N * 1009 + K)
                    Af, lda, Bf, ldb, ref = make_inputs(dtype, bmaj, M, N, K)
                    for k in ks:
                        for ldc in (N, N + 8):
                            if ldc == N and phase == "mix" and (M * N) % 3:  # contiguous C on a third of the shapes
                                continue
                            Cf = torch.full((M + 1, ldc), float("nan"), device="cuda", dtype=TD[dtype])
                            pid = plan(k, Af, lda, Bf, ldb, Cf, ldc, M, N, K)
                            print(f"> {k['name']} M={M} N={N} K={K} ldc={ldc}", file=logf, flush=True)
                            launch(pid)
                            torch.cuda.synchronize()
                            out = Cf[:M, :N].float()
                            rel = ((out - ref).norm() / ref.norm()).item() if K else out.abs().max().item()
                            guard_ok = bool(torch.isnan(Cf[M]).all()) and (ldc == N or bool(torch.isnan(Cf[:M, N:]).all()))
                            ok = (rel < 1e-2) and guard_ok
                            nrun += 1
                            worst[k["name"]] = max(worst.get(k["name"], 0.0), rel if rel == rel else 9e9)
                            if not ok:
                                nfail += 1
                                if nfail <= 40:
                                    print(f"FAIL {k['name']} M={M} N={N} K={K} ldc={ldc} rel={rel:.3e} guard={guard_ok}", flush=True)
                            emit(dict(kind="check", kernel=k["name"], M=M, N=N, K=K, ldc=ldc, rel=rel, guard=guard_ok, ok=ok))
                            print(f"  {k['name']} M={M} N={N} K={K} ldc={ldc} rel={rel:.2e} guard={guard_ok}", file=logf, flush=True)
                            lib.hp_reset_plans()
        print(f"[{args.variant}] {phase}: {nrun} launches so far, {nfail} failures", flush=True)
    for n, w in sorted(worst.items()):
        print(f"  worst rel err {n}: {w:.2e}", flush=True)
    return nfail


def timeit(fn, reps, inner):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(inner):
        fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / inner


def timing(sizes):
    for n in sizes:
        M = N = K = n
        flops = 2.0 * M * N * K
        for dtype in dtypes:
            t = TD[dtype]
            for bmaj in ("mn", "k"):
                ks = [k for k in kernels if k["dtype"] == dtype and k["bmaj"] == bmaj]
                if not ks:
                    continue
                torch.manual_seed(n)
                A = torch.randn(M, K, device="cuda", dtype=t)
                B = torch.randn(K, N, device="cuda", dtype=t) if bmaj == "mn" else torch.randn(N, K, device="cuda", dtype=t)
                Bop = B if bmaj == "mn" else B.t()
                ref = A.float() @ Bop.float()
                Cb = torch.empty(M, N, device="cuda", dtype=t)

                def cublas():
                    torch.mm(A, Bop, out=Cb)

                for k in ks:
                    C = torch.full((M, N), float("nan"), device="cuda", dtype=t)
                    pid = plan(k, A, K, B, N if bmaj == "mn" else K, C, N, M, N, K)
                    print(f"> time {k['name']} n={n}", file=logf, flush=True)
                    launch(pid)
                    torch.cuda.synchronize()
                    rel = ((C.float() - ref).norm() / ref.norm()).item()
                    for _ in range(3):
                        launch(pid)
                        cublas()
                    torch.cuda.synchronize()
                    mine, cub = [], []
                    for _ in range(args.reps):
                        mine.append(timeit(lambda: launch(pid), 1, args.inner))
                        cub.append(timeit(cublas, 1, args.inner))
                    tm, tc = statistics.median(mine), statistics.median(cub)
                    rec = dict(kind="time", kernel=k["name"], variant=k["variant"], bn=k["bn"], dtype=dtype, bmaj=bmaj,
                               n=n, ms=tm, tflops=flops / tm / 1e9, cublas_ms=tc, cublas_tflops=flops / tc / 1e9,
                               ratio=tc / tm, rel=rel, gpu=torch.cuda.get_device_name())
                    emit(rec)
                    print(f"TIME {k['name']:28s} n={n} {rec['tflops']:7.1f} TFLOP/s  cuBLAS {rec['cublas_tflops']:7.1f}  "
                          f"ratio {rec['ratio']:.3f}  rel {rel:.1e}", flush=True)
                    lib.hp_reset_plans()
                    del C
                del A, B, Cb, ref
                torch.cuda.empty_cache()


def roundrobin(sizes):
    """Every selected kernel and cuBLAS timed in turn within each round, so that clock and power
    drift hit them alike; median over rounds."""
    for n in sizes:
        M = N = K = n
        flops = 2.0 * M * N * K
        for dtype in dtypes:
            t = TD[dtype]
            torch.manual_seed(n)
            A = torch.randn(M, K, device="cuda", dtype=t)
            Bmn = torch.randn(K, N, device="cuda", dtype=t)
            Bk = torch.randn(N, K, device="cuda", dtype=t)
            entries = []
            for bmaj, B, Bop in (("mn", Bmn, Bmn), ("k", Bk, Bk.t())):
                Cb = torch.empty(M, N, device="cuda", dtype=t)
                entries.append((f"cublas_{dtype}_b{bmaj}", bmaj, (lambda A=A, Bop=Bop, Cb=Cb: torch.mm(A, Bop, out=Cb)), None))
                for k in kernels:
                    if k["dtype"] != dtype or k["bmaj"] != bmaj:
                        continue
                    C = torch.full((M, N), float("nan"), device="cuda", dtype=t)
                    pid = plan(k, A, K, B, N if bmaj == "mn" else K, C, N, M, N, K)
                    entries.append((k["name"], bmaj, (lambda pid=pid: launch(pid)), C))
            for _, _, fn, _ in entries:
                for _ in range(3):
                    fn()
            torch.cuda.synchronize()
            refs = {"mn": A.float() @ Bmn.float(), "k": A.float() @ Bk.float().t()}
            times = {e[0]: [] for e in entries}
            for _ in range(args.reps):
                for name, _, fn, _ in entries:
                    times[name].append(timeit(fn, 1, args.inner))
            med = {k: statistics.median(v) for k, v in times.items()}
            for name, bmaj, fn, C in entries:
                rel = ((C.float() - refs[bmaj]).norm() / refs[bmaj].norm()).item() if C is not None else 0.0
                tc = med[f"cublas_{dtype}_b{bmaj}"]
                tm = med[name]
                rec = dict(kind="rr", kernel=name, dtype=dtype, bmaj=bmaj, n=n, ms=tm, tflops=flops / tm / 1e9,
                           cublas_tflops=flops / tc / 1e9, ratio=tc / tm, rel=rel,
                           spread=(max(times[name]) - min(times[name])) / tm, gpu=torch.cuda.get_device_name())
                emit(rec)
                print(f"RR {name:32s} n={n} {rec['tflops']:7.1f} TFLOP/s  ratio {rec['ratio']:.3f}  "
                      f"(min..max {flops / max(times[name]) / 1e9:.0f}..{flops / min(times[name]) / 1e9:.0f})  rel {rel:.1e}", flush=True)
            lib.hp_reset_plans()
            del entries, refs, A, Bmn, Bk
            torch.cuda.empty_cache()


nfail = 0
if args.rr:
    roundrobin([int(x) for x in args.rr.split(",")])
if args.check:
    nfail = check()
if args.time:
    timing([int(x) for x in args.time.split(",")])
sys.exit(1 if nfail else 0)
