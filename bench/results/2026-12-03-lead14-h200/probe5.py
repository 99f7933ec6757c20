"""Lead, session 14, call 1: which change to a silu_gate kernel's memory traffic moves it at
8192x4096, tried on Triton's one-axis kernel (bench.py's silu_gate_flat_kernel, BLOCK=2048,
8 warps) before building anything in tilec: eviction priority on the loads (evict_first),
streaming stores (.cs), L2-only loads (.cg), a persistent grid-stride loop, and two tiles per
CTA with all four loads issued before any use. The sample by main's tilec and a copy of the same
bytes beside them. ROUNDS interleaved rounds (bench.py's interleaved_times), RUNS runs; medians
and the median of per-round ratios to plain Triton with a bootstrap 95 % interval.
    probe5.py LIBTILEC ROUNDS RUNS"""
import ctypes
import random
import statistics
import sys

LIB, ROUNDS, RUNS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

U64, I64 = ctypes.c_uint64, ctypes.c_int64
rng = random.Random(7)


@triton.jit
def sg_hint(x, out, D, NB, BLOCK: tl.constexpr, LOAD_EVICT: tl.constexpr, LOAD_CACHE: tl.constexpr,
            STORE_CACHE: tl.constexpr):
    pid = tl.program_id(0)
    row = (pid // NB).to(tl.int64)
    cols = (pid % NB) * BLOCK + tl.arange(0, BLOCK)
    m = cols < D
    g = tl.load(x + row * 2 * D + cols, mask=m, eviction_policy=LOAD_EVICT, cache_modifier=LOAD_CACHE).to(tl.float32)
    u = tl.load(x + row * 2 * D + D + cols, mask=m, eviction_policy=LOAD_EVICT, cache_modifier=LOAD_CACHE).to(tl.float32)
    tl.store(out + row * D + cols, (g * tl.sigmoid(g) * u).to(out.dtype.element_ty), mask=m,
             cache_modifier=STORE_CACHE)


@triton.jit
def sg_persistent(x, out, D, NB, NT, BLOCK: tl.constexpr):
    for t in range(tl.program_id(0), NT, tl.num_programs(0)):
        row = (t // NB).to(tl.int64)
        cols = (t % NB) * BLOCK + tl.arange(0, BLOCK)
        m = cols < D
        g = tl.load(x + row * 2 * D + cols, mask=m).to(tl.float32)
        u = tl.load(x + row * 2 * D + D + cols, mask=m).to(tl.float32)
        tl.store(out + row * D + cols, (g * tl.sigmoid(g) * u).to(out.dtype.element_ty), mask=m)


@triton.jit
def sg_two(x, out, D, NB, NT, BLOCK: tl.constexpr):
    # tiles 2p and 2p + 1: four loads issued, then both computed and stored
    t0 = tl.program_id(0) * 2
    t1 = t0 + 1
    r0 = (t0 // NB).to(tl.int64)
    r1 = (t1 // NB).to(tl.int64)
    c0 = (t0 % NB) * BLOCK + tl.arange(0, BLOCK)
    c1 = (t1 % NB) * BLOCK + tl.arange(0, BLOCK)
    m0 = c0 < D
    m1 = (c1 < D) & (t1 < NT)
    g0 = tl.load(x + r0 * 2 * D + c0, mask=m0)
    u0 = tl.load(x + r0 * 2 * D + D + c0, mask=m0)
    g1 = tl.load(x + r1 * 2 * D + c1, mask=m1)
    u1 = tl.load(x + r1 * 2 * D + D + c1, mask=m1)
    g0 = g0.to(tl.float32)
    g1 = g1.to(tl.float32)
    tl.store(out + r0 * D + c0, (g0 * tl.sigmoid(g0) * u0.to(tl.float32)).to(out.dtype.element_ty), mask=m0)
    tl.store(out + r1 * D + c1, (g1 * tl.sigmoid(g1) * u1.to(tl.float32)).to(out.dtype.element_ty), mask=m1)


def ci(ratios):
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(400))
    return meds[10], meds[389]


f = ctypes.CDLL(LIB).silu_gate
f.restype = ctypes.c_int
f.argtypes = [ctypes.c_void_p, U64, U64, I64, I64, I64]
SMS = torch.cuda.get_device_properties(0).multi_processor_count
BLOCK, NW = 2048, 8
for run in range(RUNS):
    for (M, D) in [(8192, 4096), (4096, 14336), (1024, 4096)]:
        x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16) * 3
        y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
        src = torch.empty(M, 3 * D // 2, device="cuda", dtype=torch.bfloat16)
        dst = torch.empty_like(src)
        xf = x.float()
        ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
        nb = triton.cdiv(D, BLOCK)
        nt = M * nb

        def hint(le, lc, sc):
            return lambda: sg_hint[(nt,)](x, y, D, nb, BLOCK=BLOCK, LOAD_EVICT=le, LOAD_CACHE=lc,
                                           STORE_CACHE=sc, num_warps=NW)
        fns = {"copy": lambda: dst.copy_(src),
               "triton": hint("", "", ""),
               "ld evict_first": hint("evict_first", "", ""),
               "st .cs": hint("", "", ".cs"),
               "ld evict_first + st .cs": hint("evict_first", "", ".cs"),
               "ld .cg": hint("", ".cg", ""),
               "ld evict_last": hint("evict_last", "", ""),
               "persistent x8": lambda: sg_persistent[(min(nt, SMS * 8),)](x, y, D, nb, nt, BLOCK=BLOCK, num_warps=NW),
               "two tiles": lambda: sg_two[(triton.cdiv(nt, 2),)](x, y, D, nb, nt, BLOCK=BLOCK, num_warps=NW),
               "tilec": lambda: f(torch.cuda.current_stream().cuda_stream, x.data_ptr(), y.data_ptr(), M, 2 * D, D)}
        for k, fn in fns.items():
            if k == "copy":
                continue
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            B.check_close(f"{M}x{D} {k}", y, ref, 1e-2)
        t = B.interleaved_times(fns, iters=ROUNDS)
        med = {k: statistics.median(v) * 1000 for k, v in t.items()}
        line = [f"run {run + 1} {M}x{D} (us): " + ", ".join(f"{k} {v:.3f}" for k, v in med.items())]
        for k in fns:
            if k == "triton":
                continue
            r = [a / b for a, b in zip(t["triton"], t[k])]
            lo, hi = ci(r)
            line.append(f"  triton / {k}: {statistics.median(r):.4f} [{lo:.4f}, {hi:.4f}]")
        print("\n".join(line), flush=True)
        del x, y, xf, ref, src, dst
