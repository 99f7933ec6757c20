"""samples/grouped_gemm.tile (grouped_gemm, B [E, K, N], and grouped_gemm_bt, B [E, N, K]) at
every configuration's BM x BN, run in the reference interpreter (tilec-difftest with the
configuration's BM and BN as -D values) over routings of rows to E = 5 experts, and compared
with a product computed here, exactly.

Inputs: bf16 A and B of small multiples of 1/4 (every product and every sum over K is exact in
f32, so the f32 accumulation is exact in any order and the result rounds to bf16 once, as
computed here), K = 72 (one full and one partial k step of 64) and N = 136 (a partial column
tile). Routings (counts per expert): balanced; skewed (expert 0 takes half, counts not
multiples of 8, a group over two 128-row tiles); two empty experts (the first one among them)
and one of a single row; and groups ending before the last row (rows past offs[E - 1] must
keep the poison). The output starts poisoned (all bits set, a bf16 NaN, as tilec-difftest
writes arrays a kernel only writes); each routing runs with the CTAs in order and last first
(--reverse-ctas), so a tile that writes past its group's end into the next group's rows shows
in one order or the other, and every row past offs[E - 1] must still hold the poison.

    check_grouped.py TILEC_DIFFTEST SAMPLES_DIR OUT_DIR
"""
import os
import re
import struct
import subprocess
import sys

from runs import run_all

difftest, samples, out = sys.argv[1:4]
E, K, N = 5, 72, 136
ROUTINGS = {
    "balanced": ([52] * 5, 260),
    "skewed": ([150, 37, 35, 43, 35], 300),
    "empty": ([0, 77, 0, 120, 1], 198),
    "tail": ([30, 0, 17, 50, 9], 150),
}
POISON = 0xFFFF


def bf16_bits(x):
    """x (a float) rounded to bf16, nearest even, as its 16 bits."""
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    return (b + 0x7FFF + ((b >> 16) & 1)) >> 16


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def values(count, salt):
    """Multiples of 1/4 in [-2, 2], exact in bf16, from a multiplicative hash of the position (no
    short period: every expert's weight differs)."""
    return [((((i + salt * 1000003) * 2654435761) % 2**32 >> 13) % 17 - 8) / 4.0 for i in range(count)]


def configurations(text, kernel):
    """The distinct (BM, BN) of the kernel's configurations."""
    decorator = re.search(r"configs=\[(.*?)\]\)\ndef " + kernel + r"\(", text, re.S).group(1)
    pairs = []
    for bm, bn in re.findall(r"config\(BM=(\d+), BN=(\d+)", decorator):
        if (int(bm), int(bn)) not in pairs:
            pairs.append((int(bm), int(bn)))
    return pairs


def reference(a, b, offs, rows, transposed):
    """out [rows, N] as bf16 bits: each group's rows times its expert's weight; None past offs[-1]."""
    ref = [None] * (rows * N)
    start = 0
    for e, end in enumerate(offs):
        for r in range(start, end):
            for n in range(N):
                s = 0.0
                for k in range(K):
                    w = b[(e * N + n) * K + k] if transposed else b[(e * K + k) * N + n]
                    s += a[r * K + k] * w
                ref[r * N + n] = bf16_bits(s)
        start = end
    return ref


def run(job):
    kernel, (bm, bn), name, reverse, ref = job
    counts, rows = ROUTINGS[name]
    offs = [sum(counts[: e + 1]) for e in range(E)]
    tag = f"{kernel}_bm{bm}_bn{bn}_{name}{'_reverse' if reverse else ''}"
    d = os.path.join(out, tag)
    os.makedirs(d, exist_ok=True)
    a, b = INPUTS[name]
    open(os.path.join(d, f"{kernel}.in.A.bin"), "wb").write(struct.pack(f"<{len(a)}H", *map(bf16_bits, a)))
    open(os.path.join(d, f"{kernel}.in.B.bin"), "wb").write(struct.pack(f"<{len(b)}H", *map(bf16_bits, b)))
    open(os.path.join(d, f"{kernel}.in.offs.bin"), "wb").write(struct.pack(f"<{E}i", *offs))
    cmd = [difftest, os.path.join(samples, "grouped_gemm.tile"), "--kernel", kernel, "-D", f"BM={bm}", "-D",
           f"BN={bn}", "--set", f"rows={rows}", "--set", f"K={K}", "--set", f"N={N}", "--set", f"E={E}",
           "--inputs", d, "--out", d] + (["--reverse-ctas"] if reverse else [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    label = f"{kernel} BM={bm} BN={bn} {name}{' reversed' if reverse else ''}"
    if r.returncode != 0:
        return f"FAIL: {label}: tilec-difftest exit {r.returncode}: {(r.stdout + r.stderr).strip()[:400]}"
    data = open(os.path.join(d, f"{kernel}.expected.out.bin"), "rb").read()
    got = struct.unpack(f"<{len(data) // 2}H", data)
    for i, want in enumerate(ref):
        if want is None and got[i] != POISON:
            return f"FAIL: {label}: out[row {i // N}, {i % N}] past offs[-1] = {offs[-1]} was written"
        if want is not None and got[i] != want:
            return (f"FAIL: {label}: out[row {i // N}, {i % N}] = {bf16_value(got[i])!r}, "
                    f"expected {bf16_value(want)!r}")
    return f"{label}: ok"


text = open(os.path.join(samples, "grouped_gemm.tile")).read()
INPUTS = {name: (values(rows * K, 1), values(E * K * N, 2)) for name, (_, rows) in ROUTINGS.items()}
jobs = []
for kernel in ("grouped_gemm", "grouped_gemm_bt"):
    for name, (counts, rows) in ROUTINGS.items():
        offs = [sum(counts[: e + 1]) for e in range(E)]
        ref = reference(*INPUTS[name], offs, rows, kernel.endswith("_bt"))
        for pair in configurations(text, kernel):
            for reverse in (False, True):
                jobs.append((kernel, pair, name, reverse, ref))
run_all(run, jobs)
