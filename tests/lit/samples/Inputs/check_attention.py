"""Every configuration of samples/attention.tile (its query rows BM and keys per step BN; the
other keywords are schedule options, which the interpreter ignores), for D 64 and 128, full and
causal, run in the reference interpreter (tilec-difftest with the configuration's BM and BN as
-D values, as the compiler builds it) through attention_lse, and compared with a double-precision
reference computed here: O and the natural-log LSE per query row.

Inputs (tilec-difftest --inputs): f16 Q, K, V with B = 1, H = 2 query heads on HK = 1 K/V head
(grouped-query), S = 1 (under every tile), 77 (under a 128-row tile, ragged) and 130 (two query
and key tiles of every configuration, ragged), sm_scale = 1 (--set); outputs start as NaN, so a
row a configuration does not write fails.

    check_attention.py TILEC_DIFFTEST SAMPLES_DIR OUT_DIR
"""
import json
import math
import os
import re
import struct
import subprocess
import sys

from runs import run_all

difftest, samples, out = sys.argv[1:4]
B, H, HK = 1, 2, 1
LENGTHS = [1, 77, 130]
# O: f32 sums of f16 products rounded to f16 (2^-11) with P rounded to f16 before P V: a few
# 2^-11 relative to the row's largest |O|; LSE: f32 arithmetic on values of a few units.
O_RTOL, LSE_ATOL = 4 * 2.0 ** -11, 1e-4


def f16(values):
    data = struct.pack(f"<{len(values)}e", *values)
    return data, list(struct.unpack(f"<{len(values)}e", data))


def configurations(text, D):
    """The distinct (BM, BN) of attention_lse's configurations, module constants resolved."""
    decorator = re.search(r"@kernel\((.*?)\)\]\)\ndef attention_lse\(", text, re.S).group(1)
    consts = {"BN_CAPPED": 64 if D <= 64 else 32}  # the sample's BN_CAPPED = 64 if D <= 64 else 32
    assert "BN_CAPPED = 64 if D <= 64 else 32" in text
    pairs = []
    for bm, bn in re.findall(r"config\(BM=(\w+), BN=(\w+)", decorator):
        pair = (int(consts.get(bm, bm)), int(consts.get(bn, bn)))
        if pair not in pairs:
            pairs.append(pair)
    return pairs


def inputs(S, D):
    """Q [B, H, S, D], K and V [B, HK, S, D] rounded to f16, deterministic and ragged."""
    def tensor(heads, salt):
        return [((i * 7919 + salt * 104729) % 61 - 30) / 40.0 for i in range(B * heads * S * D)]
    return f16(tensor(H, 1)), f16(tensor(HK, 2)), f16(tensor(HK, 3))


def reference(q, k, v, S, D, causal):
    """O [B, H, S, D] and LSE [B, H, S] in double, sm_scale = 1."""
    o, lse = [], []
    for b in range(B):
        for h in range(H):
            g = h // (H // HK)
            for i in range(S):
                qi = q[((b * H + h) * S + i) * D:][:D]
                n = i + 1 if causal else S
                s = []
                for j in range(n):
                    kj = k[((b * HK + g) * S + j) * D:][:D]
                    s.append(sum(x * y for x, y in zip(qi, kj)))
                m = max(s)
                e = [math.exp(x - m) for x in s]
                total = sum(e)
                lse.append(m + math.log(total))
                row = [0.0] * D
                for j in range(n):
                    vj = v[((b * HK + g) * S + j) * D:][:D]
                    w = e[j] / total
                    for d in range(D):
                        row[d] += w * vj[d]
                o.append(row)
    return o, lse


def run(job):
    D, causal, bm, bn, S, want = job
    tag = f"d{D}_{'causal' if causal else 'full'}_bm{bm}_bn{bn}_s{S}"
    d = os.path.join(out, tag)
    os.makedirs(d, exist_ok=True)
    (qb, _), (kb, _), (vb, _) = inputs(S, D)
    for name, data in (("Q", qb), ("K", kb), ("V", vb)):
        open(os.path.join(d, f"attention_lse.in.{name}.bin"), "wb").write(data)
    cmd = [difftest, os.path.join(samples, "attention.tile"), "--kernel", "attention_lse", "-D", f"D={D}",
           "-D", f"CAUSAL={causal}", "-D", f"BM={bm}", "-D", f"BN={bn}", "--set", f"B={B}", "--set", f"H={H}",
           "--set", f"HK={HK}", "--set", f"S={S}", "--set", "sm_scale=1", "--inputs", d, "--out", d]
    r = subprocess.run(cmd, capture_output=True, text=True)
    label = f"attention D={D} CAUSAL={causal} BM={bm} BN={bn} S={S}"
    if r.returncode != 0:
        return f"FAIL: {label}: tilec-difftest exit {r.returncode}: {(r.stdout + r.stderr).strip()[:400]}"
    scale = [p for p in json.load(open(os.path.join(d, "attention_lse.json")))["params"] if p["name"] == "sm_scale"]
    if scale[0]["value"] != 1:
        return f"FAIL: {label}: sm_scale {scale[0]['value']}, not the 1 given"
    data = open(os.path.join(d, "attention_lse.expected.O.bin"), "rb").read()
    got_o = list(struct.unpack(f"<{len(data) // 2}e", data))
    data = open(os.path.join(d, "attention_lse.expected.LSE.bin"), "rb").read()
    got_lse = list(struct.unpack(f"<{len(data) // 4}f", data))
    ref_o, ref_lse = want
    worst = 0.0
    for r_, row in enumerate(ref_o):
        top = max(abs(x) for x in row)
        for c, x in enumerate(row):
            g = got_o[r_ * D + c]
            if not abs(g - x) <= O_RTOL * top:  # NaN (a row not written) fails too
                return f"FAIL: {label}: O[row {r_}, {c}] = {g!r}, expected {x!r}"
            worst = max(worst, abs(g - x) / (O_RTOL * top))
        if not abs(got_lse[r_] - ref_lse[r_]) <= LSE_ATOL:
            return f"FAIL: {label}: LSE[row {r_}] = {got_lse[r_]!r}, expected {ref_lse[r_]!r}"
    return f"{label}: ok (largest O error {worst:.2f} of the bound)"


text = open(os.path.join(samples, "attention.tile")).read()
jobs = []
for D in (64, 128):
    for causal in (False, True):
        for S in LENGTHS:
            (_, q), (_, k), (_, v) = inputs(S, D)
            want = reference(q, k, v, S, D, causal)
            for bm, bn in configurations(text, D):
                jobs.append((D, causal, bm, bn, S, want))

run_all(run, jobs)
