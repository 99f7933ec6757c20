#!/usr/bin/env python3
"""Issue 41: samples/grouped_gemm.tile against torch._grouped_mm, by the benchmark protocol
(../../../shared/reference/bench-protocol.md, here bench/configs/protocol.py's timed_rounds).

For each workload (E, K, N), rows of A and routing (balanced; skewed: expert 0 takes half, the
rest even, counts not multiples of 8; two empty experts), with B as [E, K, N] (grouped_gemm) and
as [E, N, K] (grouped_gemm_bt; torch gets its transpose, the same memory):

1. correctness first: fresh random bf16 inputs; tilec's output poisoned with NaN before each
   call; every row below offs[-1] compared with torch.mm on each expert's slice in f32 (an
   independent reference), and, on a routing that leaves the last rows unrouted, those rows must
   still be NaN; torch._grouped_mm checked against the same reference; each configuration
   forced in turn (k_launch_config) as well as the launch's own choice;
2. timings, interleaved in shuffled rounds, each call after an L2 flush and a ~1 ms sleep
   kernel, medians of CUDA-event times: tilec's choice (and, with --configs, every
   configuration), torch._grouped_mm, and torch.mm over the experts' exact slices with the
   counts known on the host, its E launches captured in one CUDA graph (the third row of the
   issue's table).

Writes one JSON line per point to --out and a line of text per point to stdout.

  grouped.py --lib libgrouped_gemm.so --out grouped.jsonl [--configs] [--workloads big,small]
"""
import argparse
import ctypes
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs"))
from protocol import timed_rounds  # noqa: E402

WORKLOADS = {
    "big": [(8, 4096, 14336), (8, 14336, 4096)],
    "small": [(64, 2048, 1408), (64, 2048, 768), (256, 2048, 1408), (256, 2048, 768)],
}
ROWS = [8192, 32768]
ROUTINGS = ["balanced", "skewed", "two-empty"]


def counts_of(routing, rows, E):
    """Rows per expert, summing to rows."""
    if routing == "balanced":
        c = [rows // E] * E
    elif routing == "skewed":  # expert 0 half (minus 3, not a multiple of 8), the rest even
        half = rows // 2 - 3
        c = [half] + [(rows - half) // (E - 1)] * (E - 1)
        for i in range(1, E):  # break multiples of 8 while keeping the sum
            if c[i] % 8 == 0 and i + 1 < E:
                c[i] += 1
                c[i + 1] -= 1
    else:  # two-empty: experts 1 and E - 2 take no rows
        live = [i for i in range(E) if i not in (1, E - 2)]
        c = [0] * E
        for i in live:
            c[i] = rows // len(live)
    c[0] += rows - sum(c)
    return c


def bind(lib, name):
    """The launch function `name`, its k_launch_config form and the number of configurations."""
    launch = getattr(lib, name)
    launch.restype = ctypes.c_int
    launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint64] * 4 + [ctypes.c_int64] * 4
    forced = getattr(lib, name + "_launch_config")
    forced.restype = ctypes.c_int
    forced.argtypes = [ctypes.c_int] + launch.argtypes
    n = 0
    while n < 64 and forced(n, None, 0, 0, 0, 0, 0, 0, 0, 0) != 1:  # CUDA_ERROR_INVALID_VALUE = 1
        n += 1
    return launch, forced, n


def check(name, got, ref, valid_rows, failures):
    """got [rows, N] against ref on rows < valid_rows; rows past it must be NaN (poison)."""
    g = got[:valid_rows].float()
    err = ((g - ref).abs() / (ref.abs().amax() + 1e-6)).amax().item() if valid_rows else 0.0
    bad = not (err < 2e-2) or torch.isnan(g).any().item()
    if valid_rows < got.shape[0] and not torch.isnan(got[valid_rows:].float()).all().item():
        bad = True
        print(f"FAIL {name}: rows past offs[-1] were written")
    if bad:
        failures.append(name)
        print(f"FAIL {name}: relative error {err:.3g}")
    return err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True, help="shared library built from grouped_gemm.tile's header")
    ap.add_argument("--workloads", default="big,small")
    ap.add_argument("--rows", default=",".join(map(str, ROWS)))
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--configs", action="store_true", help="also time every configuration")
    ap.add_argument("--out", required=True)
    ap.add_argument("--label", default="")
    a = ap.parse_args()
    lib = ctypes.CDLL(a.lib)
    kernels = {"grouped_gemm": bind(lib, "grouped_gemm"), "grouped_gemm_bt": bind(lib, "grouped_gemm_bt")}
    dev = torch.cuda.get_device_properties(0)
    versions = {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version()}
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    stream = torch.cuda.current_stream().cuda_stream
    out = open(a.out, "a")
    failures = []
    for wl in a.workloads.split(","):
        for (E, K, N) in WORKLOADS[wl]:
            for rows in map(int, a.rows.split(",")):
                for routing in ROUTINGS:
                    counts = counts_of(routing, rows, E)
                    offs = torch.tensor(counts, dtype=torch.int32, device="cuda").cumsum(0).to(torch.int32)
                    host_offs = [0] + offs.tolist()
                    A = torch.randn(rows, K, device="cuda", dtype=torch.bfloat16)
                    Bkn = torch.randn(E, K, N, device="cuda", dtype=torch.bfloat16)
                    Bnk = Bkn.transpose(1, 2).contiguous()  # [E, N, K], the same values
                    ref = torch.empty(rows, N, device="cuda", dtype=torch.float32)
                    for e in range(E):
                        s, t = host_offs[e], host_offs[e + 1]
                        ref[s:t] = A[s:t].float() @ Bkn[e].float()
                    C = torch.empty(rows, N, device="cuda", dtype=torch.bfloat16)
                    # The routed rows stop short of the end in a second check, so that rows past
                    # offs[-1] must keep the poison.
                    short = offs.clone()
                    short[-1] -= min(counts[-1], 5)
                    for kname, B in (("grouped_gemm", Bkn), ("grouped_gemm_bt", Bnk)):
                        launch, forced, ncfg = kernels[kname]
                        args = (stream, A.data_ptr(), B.data_ptr(), offs.data_ptr(), C.data_ptr(), rows, K, E, N)
                        rec = {"kernel": kname, "label": a.label, "gpu": dev.name, "sms": dev.multi_processor_count,
                               "versions": versions, "E": E, "K": K, "N": N, "rows": rows, "routing": routing,
                               "counts": counts, "ms": {}, "err": {}}
                        variants = {"tilec": lambda args=args: launch(*args)}
                        for i in range(ncfg if a.configs else 0):
                            variants[f"c{i}"] = (lambda i, args=args: lambda: forced(i, *args))(i)
                        for vname, call in list(variants.items()) + [
                                ("short", lambda B=B: launch(stream, A.data_ptr(), B.data_ptr(), short.data_ptr(),
                                                             C.data_ptr(), rows, K, E, N))]:
                            C.fill_(float("nan"))
                            rc = call()
                            torch.cuda.synchronize()
                            if rc != 0:
                                failures.append(f"{kname} {vname}")
                                print(f"FAIL {kname} {vname}: CUresult {rc}")
                                continue
                            valid = int(short[-1]) if vname == "short" else rows
                            rec["err"][vname] = check(f"{kname} {vname} E={E} K={K} N={N} rows={rows} {routing}",
                                                      C, ref[:valid], valid, failures)
                        # torch._grouped_mm on the same memory (B [E, N, K] passed transposed).
                        Bt = Bkn if kname == "grouped_gemm" else Bnk.transpose(1, 2)
                        try:
                            peer_out = torch._grouped_mm(A, Bt, offs=offs)
                            torch.cuda.synchronize()
                            rec["err"]["torch._grouped_mm"] = check(f"torch._grouped_mm {kname}", peer_out, ref,
                                                                    rows, [])
                            variants["torch._grouped_mm"] = lambda Bt=Bt: torch._grouped_mm(A, Bt, offs=offs)
                        except RuntimeError as ex:
                            rec["torch._grouped_mm"] = f"refused: {ex}".splitlines()[0]
                        # torch.mm per expert, counts known on the host, E launches in one graph.
                        Cg = torch.empty(rows, N, device="cuda", dtype=torch.bfloat16)
                        Bmm = [Bkn[e] if kname == "grouped_gemm" else Bnk[e].t() for e in range(E)]

                        def per_expert():
                            for e in range(E):
                                s, t = host_offs[e], host_offs[e + 1]
                                if t > s:
                                    torch.mm(A[s:t], Bmm[e], out=Cg[s:t])
                        per_expert()
                        torch.cuda.synchronize()
                        graph = torch.cuda.CUDAGraph()
                        with torch.cuda.graph(graph):
                            per_expert()
                        variants["torch.mm graph"] = graph.replay
                        timed_rounds(torch, variants, flush, a.reps, rec)
                        flops = 2.0 * rows * K * N
                        rec["tflops"] = {v: flops / (ms * 1e-3) / 1e12 for v, ms in rec["ms"].items()}
                        peer = rec["ms"].get("torch._grouped_mm")
                        line = (f"{kname:16s} E={E:3d} K={K:5d} N={N:5d} rows={rows:5d} {routing:9s} "
                                f"tilec {rec['ms']['tilec']:.3f} ms")
                        if peer:
                            line += f"  _grouped_mm {peer:.3f} ms  ratio {peer / rec['ms']['tilec']:.3f}x"
                        line += f"  mm-graph {rec['ms']['torch.mm graph']:.3f} ms"
                        print(line, flush=True)
                        out.write(json.dumps(rec) + "\n")
                        out.flush()
    print(f"{len(failures)} failures" + (": " + ", ".join(failures) if failures else ""))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
