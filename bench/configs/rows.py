#!/usr/bin/env python3
"""Issue 38: tilec's row kernels (softmax, layernorm, rmsnorm; one header each, configurations
over TILE_N) against PyTorch, by the benchmark protocol of gemm.py.

For each (M, N): correctness of the launch's choice and of every configuration that takes N
(forced launch, k_launch_config; the others refuse N by their assert) against torch in f32,
outputs poisoned with NaN first; then timings, interleaved in shuffled rounds: the launch's
choice, every configuration, `--alt` (another header's choice: softmax's chunked form), the
eager peer (F.softmax, F.layer_norm, F.rms_norm), torch.compile of the same, and a
device-to-device copy of the same bytes (X read, Y written: the bandwidth denominator), each
timed call after an L2 flush (a 256 MiB memset) and a ~1 ms sleep kernel, medians of CUDA-event
timings. Writes one JSON line per shape and prints one line per shape.

  rows.py --run softmax:bf16:libsoftmax_bf16.so:softmax_bf16.h[:libsoftmax_chunked_bf16.so] ... --out rows.jsonl
  rows.py --table rows.jsonl       (the summary table of a finished run)
"""
import argparse, ctypes, json, math, re

from protocol import timed_rounds

NS = [768, 1024, 2048, 4096, 5120, 8192, 16384, 32768]
MS = [4096, 16384]
EPS = {"layernorm": 1e-5, "rmsnorm": 1e-6}       # the samples' EPS
ARRAYS = {"softmax": "XY", "layernorm": "XWBYmr", "rmsnorm": "XWY"}  # launch order (m, r: Mean, Rstd)


def table(path):
    rows = [json.loads(line) for line in open(path)]
    print(f"{'kernel':9} {'dtype':5} {'M':>5} {'N':>5} {'TILE_N':>6} {'tilec us':>9} {'eager':>8} {'compile':>8} "
          f"{'copy':>8} {'vs best':>7} {'% copy':>6}  best config")
    ratios = {}
    for r in rows:
        ms = r["ms"]
        if "auto" not in ms:
            print(f"{r['kernel']:9} {r['dtype']:5} {r['M']:5} {r['N']:5}  errors: {r['errors']}")
            continue
        peer = min(v for k, v in ms.items() if k in ("eager", "compile"))
        ratio = peer / ms["auto"]
        ratios.setdefault((r["kernel"], r["dtype"]), []).append(ratio)
        cfgs = {k: v for k, v in ms.items() if re.fullmatch(r"c\d+", k)}
        best = min(cfgs, key=cfgs.get) if cfgs else "-"
        print(f"{r['kernel']:9} {r['dtype']:5} {r['M']:5} {r['N']:5} {str(r['tile_n']):>6} {ms['auto'] * 1e3:9.1f} "
              f"{ms['eager'] * 1e3:8.1f} {ms.get('compile', float('nan')) * 1e3:8.1f} {ms['copy'] * 1e3:8.1f} "
              f"{ratio:7.3f} {100 * ms['copy'] / ms['auto']:6.1f}  {best}={cfgs.get(best, float('nan')) * 1e3:.1f}"
              + (f" alt={ms['alt'] * 1e3:.1f}" if "alt" in ms else "") + (f" errors={r['errors']}" if r["errors"] else ""))
    for (k, t), rs in ratios.items():
        print(f"{k} {t}: geomean {math.exp(sum(map(math.log, rs)) / len(rs)):.3f}x the faster peer, min {min(rs):.3f}x "
              f"({len(rs)} shapes)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", action="append", default=[], metavar="KERNEL:DTYPE:LIB:HEADER[:ALT]",
                    help="a header's library and text (the configurations' labels), and optionally another "
                         "header's library of the same kernel timed through its own choice (softmax's chunked "
                         "form); repeated, all in one process (torch.compile starts once)")
    ap.add_argument("--ns", default=",".join(map(str, NS)))
    ap.add_argument("--ms", default=",".join(map(str, MS)))
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--no-compile", action="store_true", help="leave torch.compile out")
    ap.add_argument("--out")
    ap.add_argument("--label", default="")
    ap.add_argument("--table", help="print the summary of a JSON-lines file and stop")
    a = ap.parse_args()
    if a.table:
        return table(a.table)
    import torch
    if hasattr(torch._dynamo.config, "recompile_limit"):
        torch._dynamo.config.recompile_limit = 256
    torch._dynamo.config.cache_size_limit = 256
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    out = open(a.out, "a") if a.out else None
    for job in a.run:
        k, dtype, lib, header, *alt = job.split(":")
        bench(a, torch, flush, out, k, dtype, lib, header, alt[0] if alt else None)


def bench(a, torch, flush, out, k, dtype_name, lib_path, header, alt_path):
    import torch.nn.functional as F
    dtype = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[dtype_name]
    nargs = len(ARRAYS[k])

    def bind(path):
        lib = ctypes.CDLL(path)
        launch = getattr(lib, k)
        launch.restype = ctypes.c_int
        launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint64] * nargs + [ctypes.c_int64] * 2
        forced = getattr(lib, k + "_launch_config")
        forced.restype = ctypes.c_int
        forced.argtypes = [ctypes.c_int] + launch.argtypes
        choose = getattr(lib, k + "_config")
        choose.restype = ctypes.c_int
        choose.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64]
        return launch, forced, choose

    launch, forced, choose = bind(lib_path)
    labels = labels_of(header, k)
    alt = bind(alt_path)[0] if alt_path else None
    num_configs = 0
    while num_configs < 64 and forced(num_configs, None, *([0] * nargs), 0, 0) != 1:  # CUDA_ERROR_INVALID_VALUE
        num_configs += 1
    eps = EPS.get(k, 0.0)
    if k == "softmax":
        eager = lambda x, w, b: F.softmax(x, dim=-1)
    elif k == "layernorm":
        eager = lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, eps)
    else:
        eager = lambda x, w, b: F.rms_norm(x, (x.shape[-1],), w, eps)
    compiled = None if a.no_compile else torch.compile(eager, dynamic=False)
    dev = torch.cuda.get_device_properties(0)
    stream = torch.cuda.current_stream().cuda_stream
    for m in [int(x) for x in a.ms.split(",")]:
        for n in [int(x) for x in a.ns.split(",")]:
            torch.manual_seed(m * 100003 + n)
            X = (torch.randn(m, n, device="cuda") * 2 + 0.5).to(dtype)
            W = (torch.rand(n, device="cuda") + 0.5).to(dtype)
            B = (torch.randn(n, device="cuda") * 0.1).to(dtype)
            Y = torch.empty_like(X)
            Mean = torch.empty(m, device="cuda")
            Rstd = torch.empty(m, device="cuda")
            C = torch.empty_like(X)
            xf = X.float()
            ref = eager(xf, W.float(), B.float())
            arrays = {"X": X, "W": W, "B": B, "Y": Y, "m": Mean, "r": Rstd}
            args = (stream, *[arrays[c].data_ptr() for c in ARRAYS[k]], m, n)
            variants = {"auto": lambda: launch(*args)}
            for i in range(num_configs):
                variants[f"c{i}"] = (lambda i: lambda: forced(i, *args))(i)
            if alt:
                variants["alt"] = lambda: alt(*args)
            c = choose(stream, m, n)
            rec = {"kernel": k, "dtype": dtype_name, "label": a.label, "gpu": dev.name, "M": m, "N": n, "choice": c,
                   "tile_n": None, "errors": {}, "ms": {}}
            scale = ref.abs().max().item() + 1e-30
            tol = 1e-4 if dtype == torch.float32 else (2e-2 if dtype == torch.bfloat16 else 4e-3)
            for name, fn in list(variants.items()):
                Y.fill_(float("nan"))
                Mean.fill_(float("nan"))
                Rstd.fill_(float("nan"))
                r = fn()
                torch.cuda.synchronize()
                if r != 0:
                    if name == "auto" or name == "alt":
                        rec["errors"][name] = f"CUresult {r}"
                    del variants[name]  # a configuration narrower than N refuses it (its assert)
                    continue
                err = (Y.float() - ref).abs().max().item() / scale
                if k == "layernorm":
                    mu = xf.mean(-1)
                    rs = torch.rsqrt(xf.var(-1, unbiased=False) + eps)
                    err = max(err, ((Mean - mu).abs().max() / (mu.abs().max() + 1)).item(),
                              ((Rstd - rs).abs() / rs).max().item())
                if not (err < tol):
                    rec["errors"][name] = f"max error {err:.3g} of max |ref|"
                    del variants[name]
            variants["eager"] = lambda: eager(X, W, B)
            if compiled:
                compiled(X, W, B)  # compile outside the timing
                variants["compile"] = lambda: compiled(X, W, B)
            variants["copy"] = lambda: C.copy_(X)
            timed_rounds(torch, variants, flush, a.reps, rec)
            rec["tile_n"] = tile_n_of(labels, c)
            if out:
                out.write(json.dumps(rec) + "\n")
                out.flush()
            ms = rec["ms"]
            peer = min(v for n_, v in ms.items() if n_ in ("eager", "compile"))
            auto = ms.get("auto", float("inf"))
            print(f"{k} {dtype_name} M={m} N={n} choice={c} (TILE_N {rec['tile_n']}) auto={auto * 1e3:.1f}us "
                  f"eager={ms['eager'] * 1e3:.1f} compile={ms.get('compile', float('nan')) * 1e3:.1f} "
                  f"copy={ms['copy'] * 1e3:.1f} vs-peer={peer / auto:.3f} copy-bw={100 * ms['copy'] / auto:.0f}%"
                  + (f" errors={rec['errors']}" if rec["errors"] else ""), flush=True)


def labels_of(header, k):
    """The configurations' labels ("TILE_N=1024, num_warps=4"), by index, from the header's table."""
    text = open(header).read()
    return re.findall(r'\{"([^"]*)", \{[^}]*\}, \d+, ' + k + r'_tilec_c\d+_tilec_paths\}', text)


def tile_n_of(labels, c):
    """The TILE_N configuration `c` sets; None for -1 (no configuration)."""
    if not 0 <= c < len(labels):
        return None
    found = re.search(r"TILE_N=(\d+)", labels[c])
    return int(found.group(1)) if found else None


if __name__ == "__main__":
    main()
