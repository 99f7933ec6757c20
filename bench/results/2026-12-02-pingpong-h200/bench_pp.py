"""Ping-pong vs cooperative consumers (issue 15), pp helper, 2026-12-02: samples/matmul.tile
variants beside cuBLAS (torch.matmul), interleaved in the same rounds (bench/bench.py's
interleaved_times: one launch of each per round, order shuffled), fresh random inputs, outputs
NaN-poisoned and checked against an f32 reference first. Three passes of 50 rounds per workload;
per pass the median ms and the paired ratio to cuBLAS (median over rounds of cuBLAS / tilec).

    python3 bench_pp.py LIB.so OUT.md VARIANTS.txt      (VARIANTS.txt: <name> <description>)
"""
import ctypes
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
import torch  # noqa: E402

import bench  # noqa: E402  (reads sys.argv[1] as the library)

U64, I64 = ctypes.c_uint64, ctypes.c_int64
out_path, listing = sys.argv[2], sys.argv[3]
variants = [line.split(" ", 1) for line in open(listing) if line.strip()]
dev = torch.device("cuda")
torch.manual_seed(20261202)
lines = [f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}\n",
         "| workload | implementation | pass | ms (median) | TFLOP/s | x cuBLAS (paired) | rel err |",
         "|---|---|---|---|---|---|---|"]
for n, dt, prefix in [(4096, torch.bfloat16, "mmv_"), (4096, torch.float16, "mmv16_"),
                      (8192, torch.bfloat16, "mmv_"), (8192, torch.float16, "mmv16_")]:
    wl = f"matmul {n}^3 {str(dt)[6:]}"
    a = torch.randn(n, n, device=dev, dtype=dt)
    b = torch.randn(n, n, device=dev, dtype=dt)
    c = torch.empty(n, n, device=dev, dtype=dt)
    ref = a.float() @ b.float()
    fns, errs = {"cuBLAS": lambda: torch.matmul(a, b, out=c)}, {}
    default = bench.tilec_generic(("mmbf_" if dt == torch.bfloat16 else "mm16_") + "matmul", [U64, U64, U64, I64, I64, I64])
    impls = [("tilec default: cooperative 128x256", default)]
    for name, desc in variants:
        impls.append((f"tilec {desc.strip()}", bench.tilec_generic(f"{prefix}{name}_matmul", [U64, U64, U64, I64, I64, I64])))
    for label, f in impls:
        errs[label] = bench.check_tilec_matmul(f"{wl} {label}", f, (a, b, c, n, n, n), c, ref)
        fns[label] = (lambda f=f: f(a, b, c, n, n, n))
    flops = 2 * n ** 3
    for p in range(3):
        times = bench.interleaved_times(fns, iters=50, warmup=5)
        for label, v in times.items():
            ms = statistics.median(v)
            ratio = "" if label == "cuBLAS" else f"{bench.paired_ratio(times, 'cuBLAS', label):.3f}"
            err = f"{errs[label]:.1e}" if label in errs else ""
            row = f"| {wl} | {label} | {p + 1} | {ms:.4f} | {flops / ms / 1e9:.0f} | {ratio} | {err} |"
            print(row, flush=True)
            lines.append(row)
    del a, b, c, ref
with open(out_path, "w") as fh:
    fh.write("\n".join(lines) + "\n")
