#!/usr/bin/env python3
"""Issue 38: samples/attention.tile with its configurations against PyTorch's SDPA, by the
benchmark protocol of gemm.py and rows.py.

One header per (D, causal) build, bf16 (tests/gpu/make_config_headers.sh, the headers of
check_configs.cpp). For each shape (B, H, HK, S): fresh torch.randn inputs [B, H, S, D] (K and
V of HK heads); correctness first — the
launch's choice, every configuration (forced launch, attention_launch_config) and each SDPA
backend that runs (cuDNN, flash, efficient; enable_gqa for HK < H), each on a NaN-poisoned
output, against a float64 reference of sampled query rows of three heads; a tilec output passes
when its error is at most twice the best backend's (plus 1e-3: bf16 rounding of O); then the
protocol's timings (protocol.timed_rounds: shuffled rounds, an L2 flush and a ~1 ms sleep kernel
before each call, CUDA events, medians): the choice, every configuration, every backend that
passed. One JSON line per shape.

Shapes: S in --tune (powers of two: the tuning shapes, label "tune") and --heldout (the bar's
shapes, label "heldout"), H = 32, HK = 32 and 8, B = max(1, TOKENS // (H * S)) (B*H*S = 2^19
by default: the issue's 2^18-2^20 tokens x heads).

  attn.py --run D:CAUSAL:LIB:HEADER ... --out attn.jsonl       (D 64 or 128, CAUSAL 0 or 1)
  attn.py --table attn.jsonl [--tuning-dir DIR --run ...]       (summary; tuning tables)
"""
import argparse, ctypes, json, math, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, ".."), os.path.join(HERE, "..", "..", "tools", "tune")]

TUNE_S = [128, 512, 1024, 2048, 4096, 8192, 16384]
HELDOUT_S = [200, 777, 1500, 3000]
TOKENS = 1 << 19
H = 32
SAMPLED_ROWS = 256        # query rows per sampled head in the reference


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def bind(path, header):
    """The header's launch functions (dense forms: contiguous [B, H, S, D] arrays) and its
    number of configurations (tilec-tune's reader of the metadata)."""
    import tune_header
    kernel = tune_header.load_kernel(path, header, "attention")   # kernel.sym: with --prefix
    lib = ctypes.CDLL(path)
    i64, u64 = ctypes.c_int64, ctypes.c_uint64
    launch = getattr(lib, kernel.sym)
    launch.restype = ctypes.c_int
    launch.argtypes = [ctypes.c_void_p] + [u64] * 4 + [i64] * 4 + [ctypes.c_float]   # Q K V O, B H S HK, sm_scale
    forced = getattr(lib, kernel.sym + "_launch_config")
    forced.restype = ctypes.c_int
    forced.argtypes = [ctypes.c_int] + launch.argtypes
    choose = getattr(lib, kernel.sym + "_config")
    choose.restype = ctypes.c_int
    choose.argtypes = [ctypes.c_void_p] + [i64] * 4 + [ctypes.c_float]
    return launch, forced, choose, kernel.num_configs


def sampled_reference(torch, q, k, v, causal, scale, heads, rows):
    """float64 softmax(q k^T * scale [+ top-left mask]) v for query `rows` of `heads` ((b, h)):
    {(b, h): [len(rows), D]}; K/V head h // (H // HK)."""
    H_, HK = q.shape[1], k.shape[1]
    out = {}
    for b, h in heads:
        g = h // (H_ // HK)
        s = q[b, h, rows].double() @ k[b, g].double().T * scale
        if causal:
            s.masked_fill_(torch.arange(k.shape[2], device=q.device)[None, :] > rows[:, None], -math.inf)
        out[(b, h)] = torch.softmax(s, dim=-1) @ v[b, g].double()
    return out


def bench_build(a, torch, flush, out, D, causal, lib_path, header):
    import torch.nn.functional as F
    from protocol import timed_rounds
    from torch.nn.attention import SDPBackend, sdpa_kernel
    backends = [("cuDNN", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION),
                ("efficient", SDPBackend.EFFICIENT_ATTENTION)]
    launch, forced, choose, num_configs = bind(lib_path, header)
    dev = torch.cuda.get_device_properties(0)
    stream = torch.cuda.current_stream().cuda_stream
    shapes = [(s, "tune") for s in a.tune] + [(s, "heldout") for s in a.heldout]
    for S, label in shapes:
        for HK in (H, H // 4):
            B = max(1, a.tokens // (H * S))
            torch.manual_seed(S * 131 + HK + D)
            q = torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16)
            k = torch.randn(B, HK, S, D, device="cuda", dtype=torch.bfloat16)
            v = torch.randn(B, HK, S, D, device="cuda", dtype=torch.bfloat16)
            o = torch.empty_like(q)
            scale = 1 / math.sqrt(D)
            heads = sorted({(0, 0), (B // 2, H // 3), (B - 1, H - 1)})
            rows = torch.unique(torch.cat([torch.arange(min(S, 64)), torch.arange(max(0, S - 64), S),
                                           torch.randint(0, S, (SAMPLED_ROWS - 128,))])).cuda()
            ref = sampled_reference(torch, q, k, v, causal, scale, heads, rows)

            def error(x):
                if torch.isnan(x).any():
                    return math.inf
                return max(((x[b, h, rows].double() - r).abs().amax(-1) / r.abs().amax(-1)).max().item()
                           for (b, h), r in ref.items())

            args = (stream, q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), B, H, S, HK, scale)
            tilec = {"auto": lambda: launch(*args)}
            for i in range(num_configs):
                tilec[f"c{i}"] = (lambda i: lambda: forced(i, *args))(i)
            rec = {"D": D, "causal": causal, "label": label, "gpu": dev.name, "sms": dev.multi_processor_count,
                   "cc": f"{dev.major}.{dev.minor}", "B": B, "H": H, "HK": HK, "S": S,
                   "choice": choose(stream, B, H, S, HK, scale), "errors": {}, "err": {}, "ms": {}}
            peers = {}
            for name, backend in backends:
                def call(backend=backend):
                    with sdpa_kernel(backend):
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale,
                                                              enable_gqa=HK != H)
                try:
                    rec["err"][name] = error(call())
                    peers[name] = call
                except Exception as e:              # the backend does not run this shape
                    rec["errors"][name] = str(e).strip().splitlines()[0][:120] if str(e).strip() else "n/a"
            bound = 2 * min(rec["err"].values(), default=0.01) + 1e-3
            for name, fn in list(tilec.items()):
                o.fill_(float("nan"))
                r = fn()
                torch.cuda.synchronize()
                if r != 0:
                    rec["errors"][name] = f"CUresult {r}"
                    del tilec[name]
                    continue
                rec["err"][name] = e = error(o)
                if not e <= bound:
                    rec["errors"][name] = f"error {e:.3g} > bound {bound:.3g}"
                    del tilec[name]
            timed_rounds(torch, {**tilec, **peers}, flush, a.reps, rec)
            out.write(json.dumps(rec) + "\n")
            out.flush()
            ms = rec["ms"]
            best_peer = min((n for n in peers if n in ms), key=ms.get, default=None)
            cfgs = {n: t for n, t in ms.items() if n.startswith("c") and n[1:].isdigit()}
            best = min(cfgs, key=cfgs.get, default="-")
            auto = ms.get("auto", math.inf)
            print(f"D={D} {'causal' if causal else 'full'} B={B} H={H} HK={HK} S={S} [{label}] choice={rec['choice']} "
                  f"auto={auto:.4f}ms {best_peer}={ms.get(best_peer, math.nan):.4f}ms "
                  f"ratio={ms.get(best_peer, math.nan) / auto:.3f} best={best}:{cfgs.get(best, math.nan):.4f}"
                  + "".join(f" {n}={t / cfgs[best]:.2f}" for n, t in sorted(cfgs.items()))
                  + (f" errors={rec['errors']}" if rec["errors"] else ""), flush=True)


def table_choice(r, tuned):
    """The configuration a header with the tuning table of the 'tune' rows `tuned` (same build and
    GPU) would take for shape r: the row with the same extents, else the nearest by the distance
    of docs/tuning.md (sum over B, H, S, HK of squared log2 differences), the first on a tie."""
    def lg(x):
        return math.log2(max(x, 1))
    def dist(t):
        return sum((lg(r[s]) - lg(t[s])) ** 2 for s in ("B", "H", "S", "HK"))
    rows = [t for t in tuned if any(n[0] == "c" and n[1:].isdigit() for n in t["ms"])]
    if not rows:
        return None
    t = min(rows, key=dist)
    cfg = {n: v for n, v in t["ms"].items() if n[0] == "c" and n[1:].isdigit()}
    return min(cfg, key=cfg.get)


def table(paths):
    """Per build and label: each shape's choice against the best SDPA backend and each
    configuration's time over the best; geomeans and the worst point. For the held-out shapes
    also the configuration a table of the tuning shapes would choose, and its time (it was timed
    forced), against the best SDPA backend."""
    recs = [json.loads(line) for p in paths for line in open(p) if line.strip()]
    groups = {}
    for r in recs:
        groups.setdefault((r["D"], r["causal"], r["label"]), []).append(r)
    tables = []
    for (D, causal, label), rs in sorted(groups.items()):
        print(f"\n### D={D} {'causal' if causal else 'full'}, {label} ({rs[0]['gpu']})\n")
        cfgs = sorted({n for r in rs for n in r["ms"] if n[0] == "c" and n[1:].isdigit()}, key=lambda s: int(s[1:]))
        print("| B | H | HK | S | choice | tilec ms | best SDPA | ms | tilec ÷ best (speed) |" +
              "".join(f" {c} |" for c in cfgs) + " best config ÷ SDPA |")
        print("|" + "---|" * (10 + len(cfgs)))
        speeds, best_speeds = [], []
        tuned = [t for t in recs if (t["D"], t["causal"], t["label"], t["gpu"]) == (D, causal, "tune", rs[0]["gpu"])]
        for r in sorted(rs, key=lambda r: (r["S"], -r["HK"])):
            ms = r["ms"]
            peers = {n: ms[n] for n in ("cuDNN", "flash", "efficient") if n in ms}
            peer = min(peers, key=peers.get) if peers else None
            c_ms = {c: ms[c] for c in cfgs if c in ms}
            best = min(c_ms.values()) if c_ms else math.nan
            speed = peers[peer] / ms["auto"] if peer and "auto" in ms else math.nan
            if not math.isnan(speed):
                speeds.append(speed)
                best_speeds.append(peers[peer] / best)
                c = table_choice(r, tuned)
                if label != "tune" and c in ms:
                    tables.append((D, causal, r["S"], r["HK"], c, peers[peer] / ms[c]))
            cells = "".join(f" {c_ms[c] / best:.2f} |" if c in c_ms else " — |" for c in cfgs)
            print(f"| {r['B']} | {r['H']} | {r['HK']} | {r['S']} | {r['choice']} | {ms.get('auto', math.nan):.4f} | "
                  f"{peer} | {peers.get(peer, math.nan):.4f} | {speed:.3f} |{cells} {peers.get(peer, math.nan) / best:.3f} |"
                  + (f" errors: {r['errors']}" if r["errors"] else ""))
        if speeds:
            print(f"\nchoice ÷ best SDPA: geomean {geomean(speeds):.3f}, worst {min(speeds):.3f} over {len(speeds)} shapes; "
                  f"best configuration ÷ best SDPA: geomean {geomean(best_speeds):.3f}, worst {min(best_speeds):.3f}")
    if tables:
        print("\n### held-out shapes through a table of the tuning shapes (nearest row, log2 distance)\n")
        print("| D | mask | S | HK | table's choice | ÷ best SDPA (speed) |\n|---|---|---|---|---|---|")
        for D, causal, S, HK, c, speed in tables:
            print(f"| {D} | {'causal' if causal else 'full'} | {S} | {HK} | {c} | {speed:.3f} |")
        speeds = [t[5] for t in tables]
        print(f"\ngeomean {geomean(speeds):.3f}, worst {min(speeds):.3f} over {len(speeds)} shapes "
              "(bar: geomean >= 0.95, every point >= 0.85)")
    return recs


def tuning_tables(recs, runs, outdir):
    """Tuning tables (docs/tuning.md) from the 'tune' shapes: per build and kernel (attention and
    attention_lse, which declare the same configurations), a row per shape choosing the fastest
    configuration of attention. Written as DIR/attention_d<D>[_causal].<kernel>.tuning."""
    import tune_header
    import tune_table
    tune_header.load_driver()
    os.makedirs(outdir, exist_ok=True)
    for job in runs:
        D, causal, lib, header = parse_run(job)
        rs = [r for r in recs if r["D"] == D and r["causal"] == causal and r["label"] == "tune"]
        sections = {}
        for r in rs:
            cfg = {n: t for n, t in r["ms"].items() if n[0] == "c" and n[1:].isdigit()}
            if not cfg:
                continue
            best = min(cfg, key=cfg.get)
            note = f"{cfg[best]:.4f} ms; " + ", ".join(f"{n[1:]} {t / cfg[best]:.2f}" for n, t in sorted(cfg.items()))
            gpu = (r["gpu"], int(r["cc"].replace(".", "")), r["sms"])
            sections.setdefault(gpu, []).append((f"{r['B']} {r['H']} {r['S']} {r['HK']} {best[1:]}", note))
        for name in ("attention", "attention_lse"):
            kernel = tune_header.load_kernel(lib, header, name)
            assert kernel.symbols == ["B", "H", "S", "HK"], kernel.symbols
            text = tune_table.render(kernel, [(g, cc, sms, "bench/configs/attn.py: attention's medians", rows)
                                              for (g, cc, sms), rows in sections.items()])
            path = os.path.join(outdir, f"attention_d{D}{'_causal' if causal else ''}.{name}.tuning")
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {path}")


def parse_run(job):
    D, causal, lib, header = job.split(":")
    return int(D), causal == "1", lib, header


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", action="append", default=[], metavar="D:CAUSAL:LIB:HEADER")
    ap.add_argument("--tune", type=lambda s: [int(x) for x in s.split(",") if x], default=TUNE_S)
    ap.add_argument("--heldout", type=lambda s: [int(x) for x in s.split(",") if x], default=HELDOUT_S)
    ap.add_argument("--tokens", type=int, default=TOKENS, help="B * H * S per shape (default 2^19)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out")
    ap.add_argument("--table", nargs="*", help="print the summary of JSON-lines files and stop")
    ap.add_argument("--tuning-dir", help="with --table: write tuning tables of the --run headers there")
    a = ap.parse_args()
    if a.table:
        recs = table(a.table)
        if a.tuning_dir:
            tuning_tables(recs, a.run, a.tuning_dir)
        return
    import torch
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    out = open(a.out, "a")
    for job in a.run:
        D, causal, lib, header = parse_run(job)
        bench_build(a, torch, flush, out, D, causal, lib, header)


if __name__ == "__main__":
    main()
