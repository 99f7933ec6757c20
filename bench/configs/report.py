#!/usr/bin/env python3
"""Issue 38: tables from gemm.py's JSON lines. Per shape: the launch's choice and its time against
the peer, the best configuration and each configuration's ratio to it; geomeans and worst points
per label (tune / held-out). With --table FILE, also writes a tuning table (docs/tuning.md) from
the per-configuration times of the 'tune' shapes: per shape, the fastest configuration.

  report.py results.jsonl [--table matmul_bt.tuning --space HASH --symbols M K N --labels labels.txt]
"""
import argparse, json, math, sys
from collections import defaultdict


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jsonl", nargs="+")
    ap.add_argument("--table")
    ap.add_argument("--space")
    ap.add_argument("--symbols", nargs="*", default=["M", "K", "N"])
    ap.add_argument("--config-labels", nargs="*", default=[])
    a = ap.parse_args()
    recs = [json.loads(l) for f in a.jsonl for l in open(f) if l.strip()]
    by = defaultdict(list)
    for r in recs:
        by[(r["kernel"], r["label"])].append(r)
    for (k, label), rs in by.items():
        print(f"\n### {k}, {label} ({rs[0]['gpu']})\n")
        cfgs = sorted({n for r in rs for n in r["ms"] if n.startswith("c")}, key=lambda s: int(s[1:]))
        head = "| M | N | K | choice | tilec ms | peer ms | tilec ÷ peer (speed) |" + "".join(f" {c} |" for c in cfgs)
        print(head)
        print("|" + "---|" * (7 + len(cfgs)))
        ratios = []
        for r in rs:
            ms = r["ms"]
            auto = ms.get("auto")
            speed = ms["peer"] / auto if auto else float("nan")
            if auto:
                ratios.append(speed)
            best = min((ms[c] for c in cfgs if c in ms), default=None)
            cells = "".join(f" {ms[c] / best:.2f} |" if c in ms else " — |" for c in cfgs)
            err = f" errors: {r['errors']}" if r["errors"] else ""
            print(f"| {r['M']} | {r['N']} | {r['K']} | {r['choice']} | {auto:.4f} | {ms['peer']:.4f} | {speed:.3f} |{cells}{err}")
        if ratios:
            print(f"\ngeomean {geomean(ratios):.3f}, worst {min(ratios):.3f}, best {max(ratios):.3f} over {len(ratios)} shapes")
    if a.table:
        rows = defaultdict(list)
        gpus = {}
        for r in recs:
            if r["label"] != "tune":
                continue
            cfg = {n: v for n, v in r["ms"].items() if n.startswith("c")}
            if not cfg:
                continue
            best = min(cfg, key=cfg.get)
            gpus[r["gpu"]] = (r.get("cc", "9.0"), r.get("sms", 132))
            ext = {"M": r["M"], "N": r["N"], "K": r["K"]}
            rows[r["gpu"]].append(([ext[s] for s in a.symbols], int(best[1:]),
                                   ", ".join(f"{n[1:]} {v / cfg[best]:.2f}" for n, v in sorted(cfg.items()))))
        with open(a.table, "w") as t:
            t.write("tilec-tuning 1\n")
            t.write(f"kernel {recs[0]['kernel']}\nspace {a.space}\nsymbols {' '.join(a.symbols)}\n")
            for i, l in enumerate(a.config_labels):
                t.write(f'config {i} "{l}"\n')
            for gpu, rs in rows.items():
                t.write(f'\ngpu "{gpu}" cc {gpus[gpu][0]} sms {gpus[gpu][1]}  # bench/configs/gemm.py, medians\n')
                for ext, c, note in rs:
                    t.write(" ".join(map(str, ext)) + f" {c}  # {note}\n")


if __name__ == "__main__":
    main()
