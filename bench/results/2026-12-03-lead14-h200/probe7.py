"""Lead, session 14, calls 3 and 7: where tilec's 0.17 us per launch goes in back-to-back launches
(probe6: 'burst' 0.9965x Triton at 8192x4096, 0.9979x at 4096x14336; one launch after a sleep
1.000x). Timed in interleaved rounds two ways (probe6's 'sleep' and 'burst'), ratios to plain
Triton (bench.py's silu_gate_flat_kernel, 2048 / 8 warps):
  tilec builds given as LABEL=LIB.so arguments (the sample's header, variants of it);
  Triton with seven unused 64-bit parameters more (tilec passes 88 bytes of parameters, Triton
  40: does the parameter block cost?);
  Triton with tilec's sigmoid (ex2.approx.ftz and rcp.approx.ftz by inline PTX: 6 instructions
  per element fewer, as tilec's kernel has): does less work after the loads cost?
    probe7.py ROUNDS LABEL=LIB.so ..."""
import ctypes
import random
import statistics
import sys

ROUNDS = int(sys.argv[1])
LIBS = [a.split("=", 1) for a in sys.argv[2:]]
sys.argv = [sys.argv[0], LIBS[0][1], "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

U64, I64 = ctypes.c_uint64, ctypes.c_int64
rng = random.Random(7)


@triton.jit
def sg_params(x, out, D, NB, p0, p1, p2, p3, p4, p5, p6, BLOCK: tl.constexpr):
    # bench.py's silu_gate_flat_kernel with seven 64-bit parameters it does not read
    pid = tl.program_id(0)
    row = (pid // NB).to(tl.int64)
    cols = (pid % NB) * BLOCK + tl.arange(0, BLOCK)
    m = cols < D
    g = tl.load(x + row * 2 * D + cols, mask=m).to(tl.float32)
    u = tl.load(x + row * 2 * D + D + cols, mask=m).to(tl.float32)
    tl.store(out + row * D + cols, (g * tl.sigmoid(g) * u).to(out.dtype.element_ty), mask=m)


@triton.jit
def sg_fast(x, out, D, NB, BLOCK: tl.constexpr):
    # bench.py's silu_gate_flat_kernel with sigmoid(g) = rcp.approx(1 + ex2.approx(-g log2 e))
    pid = tl.program_id(0)
    row = (pid // NB).to(tl.int64)
    cols = (pid % NB) * BLOCK + tl.arange(0, BLOCK)
    m = cols < D
    g = tl.load(x + row * 2 * D + cols, mask=m).to(tl.float32)
    u = tl.load(x + row * 2 * D + D + cols, mask=m).to(tl.float32)
    e = tl.inline_asm_elementwise("ex2.approx.ftz.f32 $0, $1;", "=f,f", [g * -1.4426950408889634], dtype=tl.float32,
                                  is_pure=True, pack=1)
    s = tl.inline_asm_elementwise("rcp.approx.ftz.f32 $0, $1;", "=f,f", [e + 1.0], dtype=tl.float32, is_pure=True,
                                  pack=1)
    tl.store(out + row * D + cols, (g * s * u).to(out.dtype.element_ty), mask=m)


def timed(fn, how):
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
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


def tilec_fn(path):
    f = ctypes.CDLL(path).silu_gate
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_void_p, U64, U64, I64, I64, I64]
    return f


libs = {label: tilec_fn(path) for label, path in LIBS}
BLOCK, NW = 2048, 8
BIG = 1 << 40  # 64-bit values Triton does not specialize
for (M, D) in [(8192, 4096), (4096, 14336)]:
    x = torch.randn(M, 2 * D, device="cuda", dtype=torch.bfloat16) * 3
    y = torch.empty(M, D, device="cuda", dtype=torch.bfloat16)
    xf = x.float()
    ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
    nb = triton.cdiv(D, BLOCK)
    nt = M * nb
    fns = {"triton": lambda: B.silu_gate_flat_kernel[(nt,)](x, y, D, nb, BLOCK=BLOCK, num_warps=NW),
           "triton +7 params": lambda: sg_params[(nt,)](x, y, D, nb, BIG + 1, BIG + 2, BIG + 3, BIG + 4, BIG + 5,
                                                         BIG + 6, BIG + 7, BLOCK=BLOCK, num_warps=NW),
           "triton fast sigmoid": lambda: sg_fast[(nt,)](x, y, D, nb, BLOCK=BLOCK, num_warps=NW)}
    for label, f in libs.items():
        fns[label] = (lambda f: lambda: f(torch.cuda.current_stream().cuda_stream, x.data_ptr(), y.data_ptr(), M,
                                          2 * D, D))(f)
    for k, fn in fns.items():
        y.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        B.check_close(f"{M}x{D} {k}", y, ref, 1e-2)
    for fn in fns.values():
        for _ in range(5):
            fn()
    torch.cuda.synchronize()
    keys = [(k, how) for k in fns for how in ("sleep", "burst")]
    t = {kh: [] for kh in keys}
    order = list(keys)
    for _ in range(ROUNDS):
        rng.shuffle(order)
        for kh in order:
            t[kh].append(timed(fns[kh[0]], kh[1]))
    for how in ("sleep", "burst"):
        line = [f"{M}x{D} {how} (us): " + ", ".join(f"{k} {statistics.median(t[(k, how)]) * 1000:.3f}" for k in fns)]
        for k in fns:
            if k == "triton":
                continue
            r = [a / b for a, b in zip(t[("triton", how)], t[(k, how)])]
            lo, hi = ci(r)
            line.append(f"  triton / {k}: {statistics.median(r):.4f} [{lo:.4f}, {hi:.4f}]")
        print("\n".join(line), flush=True)
    del x, y, xf, ref
