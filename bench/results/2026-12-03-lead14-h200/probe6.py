"""Lead, session 14, call 2: is the load eviction hint's gain (probe5: Triton's silu_gate with
eviction_policy="evict_last" on its loads, 1.02x the plain kernel) a property of the kernel
or of the timing method? Each variant timed three ways, in interleaved rounds (shuffled order):
  sleep: a sleep kernel ahead of one launch (bench.py's timed_once, the method of probe5);
  flush: a 256 MiB zero_() ahead of one launch (Triton's do_bench: L2 holds the flush's
         dirty lines, the same for every variant);
  burst: 10 launches back to back between the events, the time divided by 10 (the steady
         state of repeated calls: what a launch leaves in L2 weighs on the next one).
    probe6.py LIBTILEC ROUNDS"""
import ctypes
import random
import statistics
import sys

LIB, ROUNDS = sys.argv[1], int(sys.argv[2])
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def sg_hint(x, out, D, NB, BLOCK: tl.constexpr, LOAD_EVICT: tl.constexpr, STORE_CACHE: tl.constexpr):
    # probe5's kernel: bench.py's silu_gate_flat_kernel with the loads' eviction policy and
    # the store's cache modifier as parameters
    pid = tl.program_id(0)
    row = (pid // NB).to(tl.int64)
    cols = (pid % NB) * BLOCK + tl.arange(0, BLOCK)
    m = cols < D
    g = tl.load(x + row * 2 * D + cols, mask=m, eviction_policy=LOAD_EVICT).to(tl.float32)
    u = tl.load(x + row * 2 * D + D + cols, mask=m, eviction_policy=LOAD_EVICT).to(tl.float32)
    tl.store(out + row * D + cols, (g * tl.sigmoid(g) * u).to(out.dtype.element_ty), mask=m,
             cache_modifier=STORE_CACHE)

U64, I64 = ctypes.c_uint64, ctypes.c_int64
rng = random.Random(7)
flush_buf = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")


def timed(fn, how):
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    if how == "flush":
        flush_buf.zero_()
    else:
        torch.cuda._sleep(B.BUSY_CYCLES)
    s.record()
    for _ in range(10 if how == "burst" else 1):
        fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / (10 if how == "burst" else 1)


def ci(ratios):
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(400))
    return meds[10], meds[389]


f = ctypes.CDLL(LIB).silu_gate
f.restype = ctypes.c_int
f.argtypes = [ctypes.c_void_p, U64, U64, I64, I64, I64]
BLOCK, NW = 2048, 8
for (M, D) in [(8192, 4096), (4096, 14336)]:
    x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16) * 3
    y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
    src = torch.empty(M, 3 * D // 2, device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(src)
    xf = x.float()
    ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
    nb = triton.cdiv(D, BLOCK)
    nt = M * nb

    def hint(le, sc):
        return lambda: sg_hint[(nt,)](x, y, D, nb, BLOCK=BLOCK, LOAD_EVICT=le, STORE_CACHE=sc,
                                       num_warps=NW)
    fns = {"copy": lambda: dst.copy_(src), "triton": hint("", ""), "ld evict_last": hint("evict_last", ""),
           "ld evict_last + st .cs": hint("evict_last", ".cs"), "st .cs": hint("", ".cs"),
           "tilec": lambda: f(torch.cuda.current_stream().cuda_stream, x.data_ptr(), y.data_ptr(), M, 2 * D, D)}
    for k, fn in fns.items():
        if k != "copy":
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            B.check_close(f"{M}x{D} {k}", y, ref, 1e-2)
    for fn in fns.values():
        for _ in range(5):
            fn()
    torch.cuda.synchronize()
    keys = [(k, how) for k in fns for how in ("sleep", "flush", "burst")]
    t = {kh: [] for kh in keys}
    order = list(keys)
    for _ in range(ROUNDS):
        rng.shuffle(order)
        for kh in order:
            t[kh].append(timed(fns[kh[0]], kh[1]))
    for how in ("sleep", "flush", "burst"):
        line = [f"{M}x{D} {how} (us): " + ", ".join(f"{k} {statistics.median(t[(k, how)]) * 1000:.3f}" for k in fns)]
        for k in fns:
            if k == "triton":
                continue
            r = [a / b for a, b in zip(t[("triton", how)], t[(k, how)])]
            lo, hi = ci(r)
            line.append(f"  triton / {k}: {statistics.median(r):.4f} [{lo:.4f}, {hi:.4f}]")
        print("\n".join(line), flush=True)
    del x, y, xf, ref, src, dst
