#!/usr/bin/env python3
"""Issue 41: GPU correctness of samples/grouped_gemm.tile (both kernels, every configuration
forced in turn and the launch's own choice) at edge cases the benchmark's shapes miss, for the
bf16 header or the f16 one (--prefix f16_; f16 is checked for correctness only).

Cases: empty experts (first, middle, last), experts of 1 row and of fewer rows than a tile,
counts not multiples of 8, a group over several tiles, rows past offs[-1] (must keep the NaN
poison), K and N not multiples of the tile, and K = 70 (rows of A 140 bytes: not 16-byte
aligned, so the launch takes the portable path's general variant instead of TMA). Fresh random
inputs, output poisoned with NaN before every call, compared with torch.mm per expert in f32.

  check.py --lib libgrouped_gemm.so [--prefix f16_] [--dtype f16]
"""
import argparse
import ctypes
import sys

import torch

from grouped import bind

CASES = [  # (E, K, N, counts, rows)
    (5, 72, 136, [52, 52, 52, 52, 52], 260),
    (5, 72, 136, [150, 37, 35, 43, 35], 300),
    (5, 72, 136, [0, 77, 0, 120, 0], 200),       # empty first, middle and last; 3 rows unrouted
    (6, 64, 256, [1, 7, 0, 129, 300, 2], 450),   # 11 rows past offs[-1]
    (4, 70, 200, [33, 0, 90, 17], 140),           # K = 70: unaligned rows (portable, general variant)
    (8, 512, 384, [1000, 3, 517, 0, 64, 65, 129, 255], 2033),
    (64, 256, 128, None, 4099),                   # many small experts, random counts with empties
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--prefix", default="")
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "f16"])
    a = ap.parse_args()
    dt = torch.bfloat16 if a.dtype == "bf16" else torch.float16
    lib = ctypes.CDLL(a.lib)
    gen = torch.Generator(device="cpu").manual_seed(41)
    failures = runs = 0
    for kname in ("grouped_gemm", "grouped_gemm_bt"):
        name = a.prefix + kname
        launch, forced, ncfg = bind(lib, name)
        for (E, K, N, counts, rows) in CASES:
            if counts is None:
                raw = torch.randint(0, 3 * rows // E, (E,), generator=gen)
                raw[torch.randperm(E, generator=gen)[: E // 8]] = 0
                counts = (raw * (rows - 7) // max(int(raw.sum()), 1)).tolist()
            offs_host = [sum(counts[: e + 1]) for e in range(E)]
            offs = torch.tensor(offs_host, dtype=torch.int32, device="cuda")
            A = torch.randn(rows, K, generator=gen).to(dt).cuda()
            Bkn = torch.randn(E, K, N, generator=gen).to(dt).cuda()
            B = Bkn if kname == "grouped_gemm" else Bkn.transpose(1, 2).contiguous()
            ref = torch.full((rows, N), float("nan"), device="cuda")
            start = 0
            for e, end in enumerate(offs_host):
                ref[start:end] = A[start:end].float() @ Bkn[e].float()
                start = end
            C = torch.empty(rows, N, device="cuda", dtype=dt)
            args = (torch.cuda.current_stream().cuda_stream, A.data_ptr(), B.data_ptr(), offs.data_ptr(),
                    C.data_ptr(), rows, K, E, N)
            for cfg in [None] + list(range(ncfg)):
                runs += 1
                C.fill_(float("nan"))
                rc = launch(*args) if cfg is None else forced(cfg, *args)
                torch.cuda.synchronize()
                what = f"{name} config {'auto' if cfg is None else cfg} E={E} K={K} N={N} rows={rows} counts={counts}"
                if rc != 0:
                    print(f"FAIL {what}: CUresult {rc}")
                    failures += 1
                    continue
                routed = offs_host[-1]
                got = C.float()
                scale = ref[:routed].abs().amax().item() if routed else 1.0
                err = (got[:routed] - ref[:routed]).abs().amax().item() / scale if routed else 0.0
                leaked = not torch.isnan(got[routed:]).all().item()
                if not err < 1e-2 or leaked:
                    print(f"FAIL {what}: relative error {err:.3g}" + (", rows past offs[-1] written" if leaked else ""))
                    failures += 1
    print(f"{runs} runs, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
