#!/usr/bin/env python3
"""Issue 38: tilec's GEMM samples with configurations against PyTorch, by the benchmark protocol.

For each shape: correctness of the launch's choice and of every configuration (forced launch,
k_launch_config) against torch, outputs poisoned with NaN first; then timings, interleaved in
shuffled rounds: the launch's choice, every configuration, and the peer (F.linear for
matmul_bt, torch.matmul for matmul), each timed call after an L2 flush (a 256 MiB memset) and
a ~1 ms sleep kernel, medians of CUDA-event timings. Writes one JSON line per shape.

  gemm.py --lib libmatmul_bt.so --kernel matmul_bt --shapes llama --out results.jsonl
"""
import argparse, ctypes, json, sys, time
import torch
import torch.nn.functional as F

from protocol import timed_rounds

NK = [(4096, 4096), (1024, 4096), (6144, 4096), (28672, 4096), (4096, 14336), (8192, 8192), (10240, 8192), (8192, 28672)]
MS = [1, 8, 77, 128, 1000, 3000, 4096, 5555, 8191, 16384]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--kernel", required=True, choices=["matmul_bt", "matmul"])
    ap.add_argument("--ms", default=",".join(map(str, MS)))
    ap.add_argument("--nk", default="all")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--configs", action="store_true", help="also time every configuration (tuning data)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--label", default="")
    a = ap.parse_args()
    lib = ctypes.CDLL(a.lib)
    k = a.kernel
    launch = getattr(lib, k)
    launch.restype = ctypes.c_int
    launch.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_uint64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
    # A kernel with split-K configurations takes a workspace last (docs/header.md "Workspace").
    workspace_bytes = getattr(lib, k + "_workspace_bytes", None)
    if workspace_bytes is not None:
        workspace_bytes.restype = ctypes.c_size_t
        workspace_bytes.argtypes = [ctypes.c_int64] * 3
        launch.argtypes += [ctypes.c_uint64, ctypes.c_size_t]
    forced = getattr(lib, k + "_launch_config")
    forced.restype = ctypes.c_int
    forced.argtypes = [ctypes.c_int] + launch.argtypes
    choose = getattr(lib, k + "_config")
    choose.restype = ctypes.c_int
    choose.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
    num_configs = 0
    none = (0, 0) if workspace_bytes is not None else ()
    while num_configs < 64 and forced(num_configs, None, 0, 0, 0, 0, 0, 0, *none) != 1:  # CUDA_ERROR_INVALID_VALUE = 1
        num_configs += 1
    dev = torch.cuda.get_device_properties(0)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    nks = NK if a.nk == "all" else [tuple(map(int, x.split("x"))) for x in a.nk.split(",")]
    ms = [int(x) for x in a.ms.split(",")]
    out = open(a.out, "a")
    stream = torch.cuda.current_stream().cuda_stream
    for (n, kk) in nks:
        for m in ms:
            A = torch.randn(m, kk, device="cuda", dtype=torch.bfloat16)
            if k == "matmul_bt":
                B = torch.randn(n, kk, device="cuda", dtype=torch.bfloat16)
                peer = lambda: F.linear(A, B)
            else:
                B = torch.randn(kk, n, device="cuda", dtype=torch.bfloat16)
                peer = lambda: torch.matmul(A, B)
            ref = peer().float()
            C = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            args = (stream, A.data_ptr(), B.data_ptr(), C.data_ptr(), m, kk, n)
            if workspace_bytes is not None:  # allocated once per shape, as PyTorch's allocator would give it
                nbytes = workspace_bytes(m, kk, n)
                W = torch.empty(max(nbytes, 1), dtype=torch.uint8, device="cuda")
                args += (W.data_ptr(), nbytes)
            variants = {"auto": lambda: launch(*args)}
            cfgs = range(num_configs) if a.configs else []
            for i in cfgs:
                variants[f"c{i}"] = (lambda i: lambda: forced(i, *args))(i)
            rec = {"kernel": k, "label": a.label, "gpu": dev.name, "sms": dev.multi_processor_count,
                   "cc": f"{dev.major}.{dev.minor}", "M": m, "N": n, "K": kk,
                   "choice": choose(stream, m, kk, n), "errors": {}, "ms": {}}
            scale = ref.abs().max().item() + 1e-6
            for name, fn in list(variants.items()):
                C.fill_(float("nan"))
                r = fn()
                torch.cuda.synchronize()
                if r != 0:
                    rec["errors"][name] = f"CUresult {r}"
                    del variants[name]
                    continue
                err = (C.float() - ref).abs().max().item() / scale
                if not (err < 2e-2):
                    rec["errors"][name] = f"max error {err:.3g} of max |ref|"
                    del variants[name]
            variants["peer"] = peer
            timed_rounds(torch, variants, flush, a.reps, rec)
            out.write(json.dumps(rec) + "\n")
            out.flush()
            best = min((v, n_) for n_, v in rec["ms"].items() if n_.startswith("c")) if a.configs else None
            print(f"{k} M={m} N={n} K={kk} choice={rec['choice']} auto={rec['ms'].get('auto', float('nan')):.4f} "
                  f"peer={rec['ms']['peer']:.4f} ratio={rec['ms']['peer'] / rec['ms'].get('auto', float('inf')):.3f}"
                  + (f" best={best[1]}:{best[0]:.4f}" if best else "") + (f" errors={rec['errors']}" if rec["errors"] else ""),
                  flush=True)


if __name__ == "__main__":
    main()
