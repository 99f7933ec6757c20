#!/usr/bin/env python3
"""Summarize results.jsonl from bench.py: correctness per kernel, then the timing table."""
import collections
import json
import sys

recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
chk = collections.defaultdict(lambda: [0, 0, 0.0])
for r in recs:
    if r["kind"] == "check":
        c = chk[r["kernel"]]
        c[0] += 1
        c[1] += 0 if r["ok"] else 1
        rel = r["rel"] if r["rel"] == r["rel"] else float("inf")
        c[2] = max(c[2], rel)
print("correctness (launches / failures / worst rel err):")
for k in sorted(chk):
    n, f, w = chk[k]
    print(f"  {k:28s} {n:4d} {f:3d}  {w:.2e}")
t = [r for r in recs if r["kind"] == "time"]
if t:
    print(f"timing ({t[0]['gpu']}, median of interleaved batches):")
    print(f"  {'kernel':28s} {'n':>5s} {'TFLOP/s':>8s} {'cuBLAS':>8s} {'ratio':>6s} {'rel':>8s}")
    for r in t:
        print(f"  {r['kernel']:28s} {r['n']:5d} {r['tflops']:8.1f} {r['cublas_tflops']:8.1f} {r['ratio']:6.3f} {r['rel']:8.1e}")
rr = [r for r in recs if r["kind"] == "rr"]
if rr:
    print(f"round-robin timing ({rr[0]['gpu']}; all kernels and cuBLAS in turn each round, medians):")
    print(f"  {'kernel':32s} {'n':>5s} {'TFLOP/s':>8s} {'x cuBLAS':>8s} {'spread':>7s}")
    for r in rr:
        print(f"  {r['kernel']:32s} {r['n']:5d} {r['tflops']:8.1f} {r['ratio']:8.3f} {r['spread']:7.2f}")
