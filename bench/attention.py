"""Issue 17's measurement harness: samples/attention.tile (flash-attention forward) compiled by
tilec, on Hopper's path (-arch sm_90a) and on the portable path (-arch sm_80: mma.sync, its PTX
compiled by the driver on the GPU), beside PyTorch's scaled_dot_product_attention under each
backend that runs (cuDNN, flash, efficient), in one process on one GPU. Writes a markdown table.

Re-run it (two commands; the GPU machine has no tilec, so the headers are made here first):
    TILEC=build/tilec tests/gpu/make_attention_headers.sh gpu-build/attbench      # here
    python3 bench/attention.py gpu-build/attbench $OUT/attention.md               # on the GPU
(through the device tool: run(command="stdbuf -oL python3 bench/attention.py gpu-build/attbench
$OUT/attention.md 2>&1 | tee $OUT/attention.log", carry=["gpu-build/attbench"]); about 40 s on
the H200, plus the machine's start). The headers and their configurations (BM, BN per shape)
are the header script's; this one compiles bench/tilec_attention.c (the C shim beside it)
against them with gcc, times every header whose dtype, D and mask fit a row, and counts the
SASS instructions of the sm_90a cubins the header script left (cuobjdump). It also writes
attention.json (every timing) beside the table. Exit status 1 when a correctness check failed
(the table is written all the same).

Method (the device notes' METHOD.md; as bench/bench.py):
- Inputs: fresh torch.randn for every shape, [B, H, S, D] contiguous, or (rows marked
  [B,S,H,D]) PyTorch's [B, S, H, D] layout passed to every implementation as its transposed view
  q.transpose(1, 2), without a copy (the sample's launch takes extents and strides per array);
  grouped-query rows (H/HK) have K and V of HK heads, SDPA runs them with enable_gqa=True;
  sm_scale = 1/sqrt(D); causal is top-left, as SDPA's is_causal (S_q = S_k here).
- Order: one small case per header (S = 257; it loads every header, the sm_80 ones through the
  driver's compiler), then the timed shapes, then the other small cases; the table is rewritten
  after each step, so a run cut short still leaves what it measured.
- Correctness: a float64 reference from the same bf16/f16 inputs (softmax(Q K^T * scale) V,
  K and V heads repeated for grouped-query attention).
  Error of an output = the largest over rows (b, h, s) of max_d |out - ref| / max_d |ref|.
  tilec passes when its error is at most 2x the smallest error among the SDPA backends that ran
  (issue 17; 2x the math backend's where none of them ran), and every element was written (outputs poisoned with NaN before the launch). Small
  shapes (S = 50, 100, 257, 1000 with B=2 H=3; S = 50 is under one tile) on every header, and
  "large logits" (Q scaled by 20 before rounding to the dtype, so the online max moves a lot);
  at S = 257 and 1000 also [B,S,H,D] views with grouped-query heads (H=4, HK=2). Each small case
  also runs every header's attention_lse: its LSE (natural log-sum-exp per row) must be within
  LSE_BOUND * max(1, |ref|) of the float64 reference, and its O must match attention's bound.
  The timed shapes are checked on three sampled heads.
- Timing: CUDA events around each launch, a sleep kernel queued ahead so the host's launch
  overhead stays out; tilec and the SDPA backends interleaved in a shuffled order each round
  (fixed seed); the number of rounds sized to about ROUND_SECONDS per shape; median and the
  10th-90th percentile spread. TFLOP/s = 4*B*H*S^2*D / time, halved for causal.
  "tilec / best": the median over rounds of (best peer's time / tilec sm_90a's time), the best
  peer being the backend with the lowest median. Rows with LSE also time the sm_90a header's
  attention_lse (LSE [B, H, S] contiguous) in the same rounds.
"""
import collections
import concurrent.futures
import ctypes
import glob
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = [("cuDNN", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION)]
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}
Row = collections.namedtuple("Row", "B H HK S D causal layout dtypes lse")
# Issue 17's rows, both dtypes; then the input forms of its 4-D item, bf16: PyTorch's
# [B, S, H, D] layout through transposed views, and grouped-query attention (32 query heads on 8
# K/V heads). layout: "bhsd" (contiguous [B, H, S, D]) or "bshd".
PERF_ROWS = [Row(4, 32, 32, 4096, 128, False, "bhsd", ("bf16", "f16"), True),
             Row(4, 32, 32, 4096, 128, True, "bhsd", ("bf16", "f16"), False),
             Row(8, 16, 16, 2048, 64, False, "bhsd", ("bf16", "f16"), False),
             Row(1, 16, 16, 16384, 128, True, "bhsd", ("bf16", "f16"), False),
             Row(4, 32, 32, 4096, 128, False, "bshd", ("bf16",), False),
             Row(4, 32, 8, 4096, 128, False, "bhsd", ("bf16",), False)]
CHECK_B, CHECK_H = 2, 3
CHECK_GQA = (4, 2)                       # H, HK of the [B,S,H,D] grouped-query checks
LSE_BOUND = 1e-4
CHECK_S = [50, 100, 257, 1000]           # none a multiple of the tiles; 50 is under one tile
LARGE_LOGITS_S = [257, 1000]             # also checked with Q scaled by LARGE_LOGITS
LARGE_LOGITS = 20.0
ROUND_SECONDS = float(os.environ.get("ATTBENCH_SECONDS", "2.5"))   # timing per shape and dtype
MIN_ROUNDS, MAX_ROUNDS = 10, 100
# Cycles of torch.cuda._sleep queued before each timed launch (about 0.5 ms on an H200): longer
# than the host's work for one launch (SDPA's dispatch under sdpa_kernel included).
BUSY_CYCLES = 1_000_000
DEVICE = "cuda"

failures = []


def log(*args):
    print(*args, flush=True)


# ---- the tilec headers, through bench/tilec_attention.c ----

def build_library(hdr):
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    shim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tilec_attention.c")
    so = os.path.join(tempfile.mkdtemp(prefix="attbench"), "libtilec_attention.so")
    cmd = ["gcc", "-O2", "-shared", "-fPIC", f"-I{hdr}", f"-I{cuda}/include", shim,
           f"-L{cuda}/lib64/stubs", "-lcuda", "-o", so]
    t = time.time()
    subprocess.run(cmd, check=True)
    log(f"built {so} in {time.time() - t:.1f} s")
    lib = ctypes.CDLL(so)
    lib.att_count.restype = ctypes.c_int
    lib.att_prefix.restype = ctypes.c_char_p
    lib.att_prefix.argtypes = [ctypes.c_int]
    lib.att_describe.restype = ctypes.c_char_p
    lib.att_describe.argtypes = [ctypes.c_int]
    lib.att_load.restype = ctypes.c_int
    lib.att_load.argtypes = [ctypes.c_int]
    array = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64)]
    lib.att_launch.restype = ctypes.c_int
    lib.att_launch.argtypes = [ctypes.c_int, ctypes.c_void_p] + array * 4 + [ctypes.c_float]
    lib.att_launch_lse.restype = ctypes.c_int
    lib.att_launch_lse.argtypes = [ctypes.c_int, ctypes.c_void_p] + array * 5 + [ctypes.c_float]
    return lib


class Variant:
    """One header: samples/attention.tile built for one dtype, head dimension, mask and arch."""

    def __init__(self, lib, index):
        self.lib, self.index = lib, index
        self.prefix = lib.att_prefix(index).decode()
        self.describe = lib.att_describe(index).decode()
        words = self.describe.split()
        self.consts = dict(w.split("=", 1) for w in words
                           if "=" in w and w.split("=", 1)[0] not in ("sass", "ptx", "path"))
        self.sass = [w[5:] for w in words if w.startswith("sass=")]
        self.paths = [w[5:] for w in words if w.startswith("path=")]
        self.dtype_name = self.consts["T"]
        self.dtype = DTYPES[self.dtype_name]
        self.D = int(self.consts["D"])
        self.causal = self.consts["CAUSAL"] == "True"
        self.hopper = "sm_90a" in self.sass
        # The main headers are <T>_d<D>_<full|causal>_<arch>_; others are extra configurations.
        base = f"{self.dtype_name}_d{self.D}_{'causal' if self.causal else 'full'}_"
        self.main = self.prefix in (base + "sm90a_", base + "sm80_")
        self.label = f"tilec {'sm_90a' if self.hopper else 'sm_80'} BM={self.consts.get('BM')} " \
                     f"BN={self.consts.get('BN')}"
        self.load_error = None

    def fits(self, dtype, D, causal):
        return self.dtype == dtype and self.D == D and self.causal == causal

    def path_names(self):
        return ",".join(p.split(":")[0] for p in self.paths)

    def __call__(self, q, k, v, o, scale, lse=None):
        """attention (or attention_lse when lse is given) on the views q, o [B, H, S, D] and
        k, v [B, HK, S, D], any strides; lse: f32 [B, H, S]."""
        for t in (q, k, v, o):
            assert t.dtype == self.dtype and t.dim() == 4 and t.shape[3] == self.D
        args = []
        for t in (q, k, v, o) + ((lse,) if lse is not None else ()):
            args += [t.data_ptr(), (ctypes.c_int64 * t.dim())(*t.shape), (ctypes.c_int64 * t.dim())(*t.stride())]
        stream = torch.cuda.current_stream().cuda_stream
        if lse is None:
            r = self.lib.att_launch(self.index, stream, *args, scale)
        else:
            r = self.lib.att_launch_lse(self.index, stream, *args, scale)
        if r != 0:
            raise RuntimeError(f"{self.prefix}attention{'_lse' if lse is not None else ''} returned CUresult {r}")


def load_variants(lib):
    variants = [Variant(lib, i) for i in range(lib.att_count())]

    def load(v):
        torch.cuda.set_device(0)                 # the primary context, current on this thread
        t = time.time()
        r = lib.att_load(v.index)
        return r, time.time() - t

    # The sm_80 images hold PTX for the driver to compile: load them side by side.
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        for v, (r, secs) in zip(variants, pool.map(load, variants)):
            if r != 0:
                v.load_error = f"load: CUresult {r}"
            log(f"  {v.prefix:32s} {v.describe}  (load {secs:.1f} s{', CUresult %d' % r if r else ''})")
    return variants


# ---- references and errors ----

def reference(q, k, v, causal, scale, with_lse=False):
    """softmax(q k^T * scale [+ top-left causal mask]) v in float64; q: [..., H, S, D], k, v:
    [..., HK, S, D] (each K/V head serves H / HK query heads); with_lse: also the row's
    log-sum-exp of the scaled scores, [..., H, S]."""
    if q.dim() >= 3 and k.shape[-3] != q.shape[-3]:
        k = k.repeat_interleave(q.shape[-3] // k.shape[-3], dim=-3)
        v = v.repeat_interleave(q.shape[-3] // v.shape[-3], dim=-3)
    s = torch.matmul(q.double(), k.double().transpose(-1, -2)) * scale
    if causal:
        S = q.shape[-2]
        s.masked_fill_(torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1), -math.inf)
    out = torch.matmul(torch.softmax(s, dim=-1), v.double())
    return (out, torch.logsumexp(s, dim=-1)) if with_lse else out


def lse_error(got, ref):
    """max |got - ref| / max(1, |ref|) (inf when got has a NaN: unwritten)."""
    if torch.isnan(got).any():
        return math.inf
    return ((got.double() - ref).abs() / ref.abs().clamp_min(1.0)).max().item()


def make_inputs(B, H, HK, S, D, dtype, layout):
    """Fresh q [B, H, S, D] and k, v [B, HK, S, D]: contiguous ("bhsd"), or views of [B, S, H, D]
    tensors ("bshd")."""
    def one(heads):
        if layout == "bshd":
            return torch.randn(B, S, heads, D, device=DEVICE, dtype=dtype).transpose(1, 2)
        return torch.randn(B, heads, S, D, device=DEVICE, dtype=dtype)
    return one(H), one(HK), one(HK)


def empty_like_layout(q):
    """A NaN-poisoned output with q's shape and memory layout (a [B, S, H, D] view stays one)."""
    if q.is_contiguous():
        return torch.full_like(q, math.nan)
    return torch.full_like(q.transpose(1, 2), math.nan).transpose(1, 2)


def row_error(out, ref):
    """max over rows of max_d |out - ref| / max_d |ref| (inf when out has a NaN: unwritten)."""
    if torch.isnan(out).any():
        return math.inf
    diff = (out.double() - ref).abs().amax(dim=-1)
    return (diff / ref.abs().amax(dim=-1).clamp_min(1e-300)).max().item()


def sdpa(backend, q, k, v, causal, scale):
    with sdpa_kernel(backend):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale,
                                              enable_gqa=k.shape[1] != q.shape[1])


def fmt_err(e):
    if e is None:
        return "-"
    if isinstance(e, str):
        return e.split(":")[0] if e.startswith("n/a") else e
    return "NaN/unwritten" if math.isinf(e) else f"{e:.2e}"


def short(exc):
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:160].replace("|", "/")


def check_case(variants, dtype_name, D, causal, S, large, H, HK, layout, record):
    """One correctness case on every header of (dtype, D, causal) and every SDPA backend; each
    header's attention_lse too (its O and its LSE)."""
    dtype = DTYPES[dtype_name]
    q, k, v = make_inputs(CHECK_B, H, HK, S, D, dtype, layout)
    if large:
        q = (q.float() * LARGE_LOGITS).to(dtype)
    scale = 1 / math.sqrt(D)
    ref, ref_lse = reference(q, k, v, causal, scale, with_lse=True)
    errs, lse_errs = {}, {}
    for name, backend in BACKENDS:
        try:
            errs[name] = row_error(sdpa(backend, q, k, v, causal, scale), ref)
        except Exception as e:              # the backend does not run this case
            errs[name] = f"n/a: {short(e)}"
    sdpa_errs = [e for n, e in errs.items() if isinstance(e, float) and n in dict(BACKENDS)]
    bound = 2 * min(sdpa_errs) if sdpa_errs else \
        2 * row_error(sdpa(SDPBackend.MATH, q, k, v, causal, scale), ref)   # no fast backend ran
    for var in variants:
        if not var.fits(dtype, D, causal):
            continue
        if var.load_error:
            errs[var.prefix] = var.load_error
            continue
        o = empty_like_layout(q)
        try:
            var(q, k, v, o, scale)
            torch.cuda.synchronize()
            errs[var.prefix] = row_error(o, ref)
            o = empty_like_layout(q)
            lse = torch.full(q.shape[:3], math.nan, device=DEVICE, dtype=torch.float32)
            var(q, k, v, o, scale, lse)
            torch.cuda.synchronize()
            lse_errs[var.prefix] = (row_error(o, ref), lse_error(lse, ref_lse))
        except Exception as e:
            errs[var.prefix] = f"error: {short(e)}"
    ok = True
    for var in variants:
        e = errs.get(var.prefix)
        if var.fits(dtype, D, causal) and not (isinstance(e, float) and bound is not None and e <= bound):
            ok = False
        if var.prefix in lse_errs and not (bound is not None and lse_errs[var.prefix][0] <= bound and
                                           lse_errs[var.prefix][1] <= LSE_BOUND):
            ok = False
    heads = f"H{H}" if H == HK else f"H{H}/HK{HK}"
    case = f"B{CHECK_B} {heads} S{S} D{D} {'causal' if causal else 'full'} {dtype_name}" + \
           (", [B,S,H,D]" if layout == "bshd" else "") + (f", Q x{LARGE_LOGITS:g}" if large else "")
    record.append({"case": case, "errs": errs, "lse_errs": lse_errs, "bound": bound, "ok": ok})
    if not ok:
        failures.append(case)
    worst_lse = max((e[1] for e in lse_errs.values()), default=None)
    log(f"  {'ok  ' if ok else 'FAIL'} {case}: " +
        ", ".join(f"{n} {fmt_err(e)}" for n, e in errs.items()) + f"; bound {fmt_err(bound)}; " +
        f"attention_lse: O {fmt_err(max((e[0] for e in lse_errs.values()), default=None))}, LSE {fmt_err(worst_lse)}")


# ---- timing ----

def timed_once(fn):
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    torch.cuda._sleep(BUSY_CYCLES)
    s.record()
    fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e)


def interleaved_times(fns, rounds, warmup=3):
    """{label: [ms per round]}: one launch of each per round, in an order shuffled every round
    (fixed seed), so clock drift and what the L2 holds weigh on all alike."""
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    torch.cuda.synchronize()
    times = {k: [] for k in fns}
    order = list(fns)
    rng = random.Random(12345)
    for _ in range(rounds):
        rng.shuffle(order)
        for k in order:
            times[k].append(timed_once(fns[k]))
    return times


def percentile(xs, p):
    xs = sorted(xs)
    i = (len(xs) - 1) * p
    lo, hi = math.floor(i), math.ceil(i)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


def row_label(row):
    heads = f"H{row.H}" if row.H == row.HK else f"H{row.H} HK{row.HK}"
    return f"B{row.B} {heads} S{row.S} D{row.D} {'causal' if row.causal else 'full'}" + \
        (", [B,S,H,D] view" if row.layout == "bshd" else "")


def bench_row(variants, row, dtype_name, record):
    B, H, HK, S, D, causal = row.B, row.H, row.HK, row.S, row.D, row.causal
    dtype = DTYPES[dtype_name]
    shape = row_label(row)
    log(f"== {shape} {dtype_name}")
    q, k, v = make_inputs(B, H, HK, S, D, dtype, row.layout)
    scale = 1 / math.sqrt(D)
    flops = 4 * B * H * S * S * D / (2 if causal else 1)
    heads = sorted({(0, 0), (B // 2, H // 3), (B - 1, H - 1)})
    refs = {(b, h): reference(q[b, h], k[b, h // (H // HK)], v[b, h // (H // HK)], causal, scale, with_lse=True)
            for b, h in heads}

    def sampled_error(o):
        if torch.isnan(o).any():
            return math.inf
        return max(row_error(o[bh], refs[bh][0]) for bh in heads)

    fns, outs, notes, errs, lse_errors = {}, {}, {}, {}, {}
    for name, backend in BACKENDS:
        try:
            o = sdpa(backend, q, k, v, causal, scale)
            torch.cuda.synchronize()
            errs[name] = sampled_error(o)
            del o
            fns[name] = (lambda b=backend: sdpa(b, q, k, v, causal, scale))
        except Exception as e:              # the backend does not run this shape
            notes[name] = f"n/a: {short(e)}"
            log(f"  {name}: {notes[name]}")
    for var in variants:
        if not var.fits(dtype, D, causal):
            continue
        if var.load_error:
            notes[var.prefix] = var.load_error
            log(f"  {var.prefix}: {notes[var.prefix]}")
            continue
        o = torch.full_like(q, math.nan)
        try:
            var(q, k, v, o, scale)
            torch.cuda.synchronize()
        except Exception as e:
            notes[var.prefix] = f"error: {short(e)}"
            log(f"  {var.prefix}: {notes[var.prefix]}")
            continue
        errs[var.prefix] = sampled_error(o)
        outs[var.prefix] = o
        fns[var.prefix] = (lambda f=var, o=o: f(q, k, v, o, scale))
        if row.lse and var.main and var.hopper:
            # attention_lse beside it: its O against the same bound, its LSE against LSE_BOUND.
            name, o2 = var.prefix + "lse", empty_like_layout(q)
            lse = torch.full((B, H, S), math.nan, device=DEVICE, dtype=torch.float32)
            var(q, k, v, o2, scale, lse)
            torch.cuda.synchronize()
            errs[name] = sampled_error(o2)
            lse_err = lse_errors[name] = max(lse_error(lse[bh], refs[bh][1]) for bh in heads)
            log(f"  {name}: LSE error {fmt_err(lse_err)}")
            if not lse_err <= LSE_BOUND:
                failures.append(f"{shape} {dtype_name} {name}: LSE error {fmt_err(lse_err)} over {LSE_BOUND:g}")
            outs[name] = o2
            fns[name] = (lambda f=var, o=o2, lse=lse: f(q, k, v, o, scale, lse))
    sdpa_errs = [e for n, e in errs.items() if n in dict(BACKENDS)]
    bound = 2 * min(sdpa_errs) if sdpa_errs else \
        2 * sampled_error(sdpa(SDPBackend.MATH, q, k, v, causal, scale))   # no fast backend ran
    for name in errs:
        if name not in dict(BACKENDS) and not (bound is not None and errs[name] <= bound):
            failures.append(f"{shape} {dtype_name} {name}: error {fmt_err(errs[name])} over {fmt_err(bound)}")
            log(f"  FAIL {failures[-1]}")
    # Size the rounds from one timed launch of each.
    one_round = sum(timed_once(f) for f in fns.values()) / 1e3 + 5e-4 * len(fns)
    rounds = max(MIN_ROUNDS, min(MAX_ROUNDS, int(ROUND_SECONDS / max(one_round, 1e-6))))
    times = interleaved_times(fns, rounds)
    for prefix, o in outs.items():       # still every element written after the timed launches
        if torch.isnan(o).any():
            failures.append(f"{shape} {dtype_name} {prefix}: NaN after timing")
            errs[prefix] = math.inf
    stats = {}
    for name, ts in times.items():
        med = statistics.median(ts)
        stats[name] = {"median_ms": med, "p10_ms": percentile(ts, 0.1), "p90_ms": percentile(ts, 0.9),
                       "tflops": flops / (med * 1e-3) / 1e12,
                       "tflops_p10_p90": (flops / (percentile(ts, 0.9) * 1e-3) / 1e12,
                                          flops / (percentile(ts, 0.1) * 1e-3) / 1e12)}
    peers = [n for n, _ in BACKENDS if n in stats]
    best = min(peers, key=lambda n: stats[n]["median_ms"]) if peers else None
    for name in stats:
        if best and name not in dict(BACKENDS):
            stats[name]["vs_best"] = statistics.median(b / m for b, m in zip(times[best], times[name]))
    record.append({"shape": shape, "dtype": dtype_name, "B": B, "H": H, "HK": HK, "S": S, "D": D, "causal": causal,
                   "layout": row.layout, "flops": flops, "rounds": rounds, "best_peer": best, "stats": stats,
                   "errors": errs, "lse_errors": lse_errors, "bound": bound, "notes": notes, "times_ms": times})
    for name, st in stats.items():
        extra = f", {st['vs_best']:.3f}x {best}" if "vs_best" in st else ""
        log(f"  {name:32s} {st['median_ms']:8.3f} ms  {st['tflops']:6.1f} TFLOP/s "
            f"[{st['tflops_p10_p90'][0]:.1f}-{st['tflops_p10_p90'][1]:.1f}]  err {fmt_err(errs.get(name))}{extra}")
    del q, k, v, outs, refs
    torch.cuda.empty_cache()


# ---- the report ----

def cell(row, name):
    if name is None:
        return "-"
    if name in row["notes"]:
        return row["notes"][name].split(":")[0]
    st = row["stats"].get(name)
    if not st:
        return "-"
    lo, hi = st["tflops_p10_p90"]
    return f"{st['tflops']:.0f} ({lo:.0f}-{hi:.0f})"


def main_variant(variants, dtype, D, causal, hopper):
    for v in variants:
        if v.main and v.fits(dtype, D, causal) and v.hopper == hopper:
            return v
    return None


def timing_table(perf, variants):
    """The issue's table: one row per (shape, dtype), TFLOP/s with the 10th-90th percentile."""
    L = ["| shape | dtype | tilec Hopper (sm_90a) | tilec portable (sm_80) | cuDNN | flash | efficient | "
         "tilec ÷ best | tilec Hopper attention_lse |", "|---|---|---|---|---|---|---|---|---|"]
    for row in perf:
        dtype = DTYPES[row["dtype"]]
        h = main_variant(variants, dtype, row["D"], row["causal"], True)
        p = main_variant(variants, dtype, row["D"], row["causal"], False)
        st = row["stats"].get(h.prefix, {}) if h else {}
        ratio = f"**{st['vs_best']:.2f}x** {row['best_peer']}" if "vs_best" in st else "-"
        lse = cell(row, h.prefix + "lse") if h and h.prefix + "lse" in row["stats"] else "-"
        L.append(f"| {row['shape']} | {row['dtype']} | {cell(row, h and h.prefix)} | {cell(row, p and p.prefix)} | "
                 + " | ".join(cell(row, n) for n, _ in BACKENDS) + f" | {ratio} | {lse} |")
    return L


def report(path, hdr, variants, env, perf, checks, elapsed, sass=None):
    L = ["# Attention forward: tilec (samples/attention.tile) beside SDPA's backends", "",
         f"Made by `bench/attention.py {hdr} ...` in {elapsed:.0f} s. {env}", "",
         "## Timing (TFLOP/s: median over rounds, 10th-90th percentile in brackets)", "",
         "TFLOP/s = 4·B·H·S²·D / time, halved for causal. tilec Hopper: the header built with "
         "`-arch sm_90a`; tilec portable: `-arch sm_80`, its PTX compiled by the driver for the GPU. "
         "tilec ÷ best: median over rounds of (the fastest SDPA backend's time / tilec Hopper's time), "
         "each pair from one round. Inputs [B, H, S, D] contiguous, or (\"[B,S,H,D] view\") the transposed "
         "views of [B, S, H, D] tensors, given as they are to every implementation; HK: K/V heads of "
         "grouped-query rows (SDPA with enable_gqa=True); sm_scale = 1/sqrt(D). attention_lse: the same "
         "header's kernel that also writes the LSE (f32 [B, H, S]), timed in the same rounds.", ""]
    L += timing_table(perf, variants)
    groups = collections.defaultdict(list)
    for v in variants:
        groups[(v.hopper, v.path_names())].append(v.prefix)
    L += ["", "Code paths in the headers (launch order): " + "; ".join(
        f"{'sm_90a' if hop else 'sm_80'} headers: {paths} ({len(ps)})" for (hop, paths), ps in sorted(groups.items())) + "."]
    L += ["", "Every implementation (tilec headers by prefix; the extra configurations are timed in the same "
          "rounds): median and 10th-90th percentile ms, rounds, and the error on three sampled heads (largest "
          "per-row max-relative error against float64; the bound is 2x the best SDPA backend's).", "",
          "| shape | dtype | implementation | median ms | p10-p90 ms | TFLOP/s | error | ÷ best peer |",
          "|---|---|---|---|---|---|---|---|"]
    for row in perf:
        for name, st in row["stats"].items():
            vs = f"{st['vs_best']:.3f}x" if "vs_best" in st else ""
            L.append(f"| {row['shape']} | {row['dtype']} | {name} | {st['median_ms']:.3f} | "
                     f"{st['p10_ms']:.3f}-{st['p90_ms']:.3f} | {st['tflops']:.1f} | "
                     f"{fmt_err(row['errors'].get(name))} | {vs} |")
        for name, note in row["notes"].items():
            L.append(f"| {row['shape']} | {row['dtype']} | {name} | {note} | | | | |")
        L.append(f"| {row['shape']} | {row['dtype']} | ({row['rounds']} rounds; error bound "
                 f"{fmt_err(row['bound'])}) | | | | | |")
    L += ["", "## Correctness (small shapes, every header)", "",
          f"B={CHECK_B}, fresh torch.randn inputs; \"Q x{LARGE_LOGITS:g}\": Q scaled before rounding "
          "to the dtype (large logits: the running max moves); \"[B,S,H,D]\": transposed views; H/HK: "
          "grouped-query heads. Largest per-row max-relative error against a "
          "float64 reference from the same inputs; outputs poisoned with NaN first. ok: every tilec header at "
          "most 2x the best SDPA backend's error, with attention and with attention_lse, and every "
          f"attention_lse LSE within {LSE_BOUND:g} x max(1, |ref|) of the float64 log-sum-exp (last column: the "
          "worst header's).", "",
          "| case | tilec Hopper (sm_90a) | tilec portable (sm_80) | other tilec configs | cuDNN | flash | "
          "efficient | bound | ok | attention_lse: O error, LSE error |", "|---|---|---|---|---|---|---|---|---|---|"]
    reasons = {}
    main_prefixes = {v.prefix for v in variants if v.main}
    for c in checks:
        errs = c["errs"]
        for n, e in errs.items():
            if isinstance(e, str):
                reasons.setdefault(f"{n}: {e}", []).append(c["case"])
        hop = [fmt_err(e) for n, e in errs.items() if n in main_prefixes and n.endswith("_sm90a_")]
        por = [fmt_err(e) for n, e in errs.items() if n in main_prefixes and n.endswith("_sm80_")]
        oth = [f"{n.rstrip('_')} {fmt_err(e)}" for n, e in errs.items()
               if n.endswith("_") and n not in main_prefixes]
        L.append(f"| {c['case']} | {', '.join(hop) or '-'} | {', '.join(por) or '-'} | {'; '.join(oth) or '-'} | "
                 + " | ".join(fmt_err(errs.get(n)) for n, _ in BACKENDS)
                 + f" | {fmt_err(c['bound'])} | {'ok' if c['ok'] else '**FAIL**'} | "
                 + (f"{fmt_err(max(e[0] for e in c['lse_errs'].values()))}, "
                    f"{fmt_err(max(e[1] for e in c['lse_errs'].values()))}" if c.get("lse_errs") else "-") + " |")
    if reasons:
        L += ["", "Cases that did not run, and why:", ""]
        L += [f"- {r} ({len(cs)} cases: {', '.join(cs[:3])}{', ...' if len(cs) > 3 else ''})"
              for r, cs in reasons.items()]
    L += ["", f"Failures: {len(failures)}"]
    L += [f"- {f}" for f in failures]
    L += ["", "## Headers", "",
          "From their metadata: module constants, SASS, PTX, and the code paths in launch order as "
          "name:warps:stages:dynamic shared bytes.", ""]
    L += [f"- `{v.prefix}`: {v.describe}" + (f" — {v.load_error}" if v.load_error else "") for v in variants]
    if sass:
        L += ["", "SASS of the sm_90a headers (cuobjdump -sass of the cubins in `logs/`; LDL/STL: local "
              "memory, spills):", "", "| cubin | function | " + " | ".join(SASS_OPS) + " |",
              "|---|---|" + "---|" * len(SASS_OPS)]
        for (cubin, fn), c in sass.items():
            L.append(f"| {cubin} | {fn} | " + " | ".join(str(c.get(op, 0)) for op in SASS_OPS) + " |")
    for name, title in [("build-info.txt", "How they were made"),
                        ("resources.txt", "Registers, stack and spills")]:
        f = os.path.join(hdr, name)
        if os.path.exists(f):
            L += ["", f"{title} (`{name}` of the header folder):", "", "```"]
            L += open(f).read().rstrip().splitlines()
            L += ["```"]
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


SASS_OPS = ["HGMMA", "UTMALDG", "UTMASTG", "HMMA", "LDGSTS", "LDSM", "LDL", "STL"]


def sass_counts(hdr):
    """{(cubin, function): {opcode: count}} for the sm90a cubins the header script left in
    logs/, through cuobjdump -sass; {} where there is no cuobjdump."""
    cuobjdump = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "cuobjdump")
    counts = {}
    for cubin in sorted(glob.glob(os.path.join(hdr, "logs", "*.cubin"))):
        try:
            sass = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError):
            return {}
        fn = None
        for line in sass.splitlines():
            m = re.match(r"\s*Function : (\S+)", line)
            if m:
                fn = m.group(1)
                counts[(os.path.basename(cubin), fn)] = collections.Counter()
                continue
            m = re.match(r"\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)", line)
            if m and fn:
                counts[(os.path.basename(cubin), fn)][m.group(1)] += 1
    return counts


def nvidia_smi(fields):
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"({short(e)})"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    hdr = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.environ.get("OUT", "."), "attention.md")
    t0 = time.time()
    torch.cuda.init()
    torch.zeros(1, device=DEVICE)                      # the primary context, before the headers
    props = torch.cuda.get_device_properties(0)
    smi = nvidia_smi("name,driver_version,clocks.sm,clocks.mem,temperature.gpu")
    env = (f"GPU: {props.name} ({props.multi_processor_count} SMs; nvidia-smi at start: {smi}); "
           f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}.")
    log(env)
    lib = build_library(hdr)
    log("headers:")
    variants = load_variants(lib)
    # One small case first: it loads every header (the sm_80 ones through the driver's compiler)
    # and catches a broken build before the long timings; the other small cases after them.
    # (dtype, D, causal, S, large, H, HK, layout): MHA [B, H, S, D] at every size, with large logits
    # at some; grouped-query [B,S,H,D] views at S = 257 and 1000.
    cases = [(t, D, causal, S, large, CHECK_H, CHECK_H, "bhsd") for t in DTYPES
             for D, causal in [(64, False), (128, False), (128, True)]
             for S in CHECK_S for large in ([False, True] if S in LARGE_LOGITS_S else [False])]
    cases += [(t, D, causal, S, False, *CHECK_GQA, "bshd") for t in DTYPES
              for D, causal in [(64, False), (128, False), (128, True)] for S in LARGE_LOGITS_S]
    first = [c for c in cases if c[3] == 257 and not c[4] and c[7] == "bhsd"]
    checks, perf = [], []
    log("correctness, S=257:")
    for c in first:
        check_case(variants, *c, checks)
    report(out, hdr, variants, env + " (partial)", perf, checks, time.time() - t0)
    log("timing:")
    for row in PERF_ROWS:
        for dtype_name in row.dtypes:
            bench_row(variants, row, dtype_name, perf)
            report(out, hdr, variants, env + " (partial)", perf, checks, time.time() - t0)
    log("correctness, the other cases:")
    for c in cases:
        if c not in first:
            check_case(variants, *c, checks)
    env += f" nvidia-smi at the end: {nvidia_smi('clocks.sm,clocks.mem,temperature.gpu')}."
    report(out, hdr, variants, env, perf, checks, time.time() - t0, sass_counts(hdr))
    log(f"wrote {out}")
    with open(os.path.splitext(out)[0] + ".json", "w") as f:
        json.dump({"env": env, "perf": perf, "checks": checks, "failures": failures,
                   "variants": {v.prefix: v.describe for v in variants}}, f, indent=1)
    log("\n".join(timing_table(perf, variants)))
    log(f"failures: {len(failures)}")
    for f in failures:
        log(f"  {f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
