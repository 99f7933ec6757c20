# silu_gate, focused: copy, Triton one-axis BLOCK=1024/4w and 2048/8w, tilec this branch and
# Prepared by the silu helper on 2026-12-02; run by the lead in session 12 on main's build (one tilec build).
# main's build; ROUNDS interleaved rounds per run (bench.py's timed_once: sleep kernel ahead,
# CUDA events), RUNS runs; per tilec build the median over rounds of the per-round ratio against
# each Triton configuration separately (no best-of-N selection), with a bootstrap 95 % interval.
#   focus.py LIB ROUNDS RUNS
import os
import random
import statistics
import sys
import ctypes

LIB, ROUNDS, RUNS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench as B  # noqa: E402
import torch  # noqa: E402

dev = torch.device("cuda")
U64, I64 = ctypes.c_uint64, ctypes.c_int64
rng = random.Random(7)


def ci(ratios):
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(400))
    return meds[10], meds[389]


for run in range(RUNS):
    for (M, D) in [(8192, 4096), (4096, 14336)]:
        wl = f"silu_gate {M}x{D} bf16"
        x = torch.randn(M, 2 * D, device=dev, dtype=torch.bfloat16) * 3
        y = torch.empty(M, D, device=dev, dtype=torch.bfloat16)
        xf = x.float()
        ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
        del xf
        src = torch.empty(M * D * 3 // 2, device=dev, dtype=torch.bfloat16)
        dst = torch.empty_like(src)
        fns = {"copy": lambda: dst.copy_(src)}
        for (block, nw) in [(1024, 4), (2048, 8)]:
            nb = B.triton.cdiv(D, block)
            fns[f"triton{block}/{nw}w"] = (lambda block, nw, nb: lambda: B.silu_gate_flat_kernel[(M * nb,)](
                x, y, D, nb, BLOCK=block, num_warps=nw))(block, nw, nb)
        for prefix, label in [("", "tilec main")]:
            f = B.tilec_generic(prefix + "silu_gate", [U64, U64, I64, I64, I64])
            fns[label] = (lambda f: lambda: f(x, y, M, 2 * D, D))(f)
        for k, fn in fns.items():
            if k == "copy":
                continue
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            B.check_close(wl + " " + k, y, ref, 1e-2)
        times = B.interleaved_times(fns, iters=ROUNDS)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"-- run {run + 1} {wl}: {ROUNDS} rounds; medians " +
              ", ".join(f"{k} {v:.5f}" for k, v in med.items()), flush=True)
        for mine in [k for k in fns if k.startswith("tilec")]:
            parts = []
            for peer in [k for k in fns if k.startswith("triton")] + ["copy"]:
                r = [p / m for p, m in zip(times[peer], times[mine])]
                lo, hi = ci(r)
                parts.append(f"vs {peer} {statistics.median(r):.4f} [{lo:.4f}, {hi:.4f}]")
            print(f"   {mine}: " + "; ".join(parts), flush=True)
        del x, y, ref, src, dst
