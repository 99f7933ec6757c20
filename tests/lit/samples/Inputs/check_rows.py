"""Every configuration of the row kernels (samples/softmax.tile, layernorm.tile, rmsnorm.tile),
in every dtype their header comments list, run in the reference interpreter (tilec-difftest
with the configuration's constants as -D values, as the compiler builds a configuration) on
small and boundary row lengths, and compared with a reference computed here in double
precision. Also softmax's chunked form (-D CHUNK=8192, the `if LOOP:` branch) and the refusal
of a row longer than the widest configuration (the assert).

The inputs are chosen here (tilec-difftest --inputs), not by the seed: rows whose mean is far
from 0 and drifts along the row (so that the chunks of layernorm's loop have different means
and its merge of their statistics matters), odd row counts, and in softmax a row whose first
chunk is -inf (the online pass must not make NaN of it). Outputs start as NaN (the poison of
tilec-difftest), so an element a kernel does not write fails.

    check_rows.py TILEC_DIFFTEST SAMPLES_DIR OUT_DIR
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
DTYPES = ["f32", "f16", "bf16"]
# The relative error allowed in an output of each dtype: f32 arithmetic in every case (the
# interpreter adds a row's 32768 terms one after the other: a relative 2e-5 seen in a variance,
# 1e-4 allowed), then the output's rounding (half an ulp: 2^-11 for f16, 2^-8 for bf16).
RTOL = {"f32": 1e-4, "f16": 2.0 ** -10, "bf16": 2.0 ** -7}


def encode(values, dtype):
    """The bytes of `values` in `dtype` and the values as stored (rounded to the dtype)."""
    if dtype == "f32":
        data = struct.pack(f"<{len(values)}f", *values)
        return data, list(struct.unpack(f"<{len(values)}f", data))
    if dtype == "f16":
        data = struct.pack(f"<{len(values)}e", *values)
        return data, list(struct.unpack(f"<{len(values)}e", data))
    words = []
    for v in values:  # bf16: the high half of the f32, rounded to nearest even
        (bits,) = struct.unpack("<I", struct.pack("<f", v))
        if math.isfinite(v):
            bits += 0x7FFF + ((bits >> 16) & 1)
        words.append((bits >> 16) & 0xFFFF)
    return struct.pack(f"<{len(words)}H", *words), decode(struct.pack(f"<{len(words)}H", *words), dtype)


def decode(data, dtype):
    if dtype == "f32":
        return list(struct.unpack(f"<{len(data) // 4}f", data))
    if dtype == "f16":
        return list(struct.unpack(f"<{len(data) // 2}e", data))
    return [struct.unpack("<f", struct.pack("<I", w << 16))[0] for w in struct.unpack(f"<{len(data) // 2}H", data)]


def row_values(kernel, m, n, chunk):
    """X: a row offset far from 0, a slow drift along the row and a small ragged pattern."""
    x = [[3.0 * (i + 1) + 2.0 * math.sin(j / 977.0) + ((j * 7919 + i * 31) % 17 - 8) / 8.0 for j in range(n)]
         for i in range(m)]
    if kernel == "softmax" and m > 1 and n > 1:
        for j in range(min(n - 1, chunk + 3)):  # row 1 starts with -inf past the first chunk
            x[1][j] = -math.inf
    return x


def reference(kernel, x, w, b, eps):
    """Per row: the expected outputs, and the scale each output element's error is measured on."""
    rows = []
    for r in x:
        n = len(r)
        if kernel == "softmax":
            top = max(r)
            e = [math.exp(v - top) for v in r]
            s = sum(e)
            y = [v / s for v in e]
            rows.append({"Y": (y, [abs(v) for v in y])})
        elif kernel == "layernorm":
            mean = sum(r) / n
            var = sum((v - mean) ** 2 for v in r) / n
            rstd = 1.0 / math.sqrt(var + eps)
            y = [(v - mean) * rstd * w[j] + b[j] for j, v in enumerate(r)]
            scale = [(abs(v) + abs(mean)) * rstd * abs(w[j]) + abs(b[j]) for j, v in enumerate(r)]
            rows.append({"Y": (y, scale), "Mean": ([mean], [sum(abs(v) for v in r) / n]), "Rstd": ([rstd], [rstd])})
        else:
            rrms = 1.0 / math.sqrt(sum(v * v for v in r) / n + eps)
            y = [v * rrms * w[j] for j, v in enumerate(r)]
            rows.append({"Y": (y, [abs(v) for v in y])})
    return rows


def module_value(text, name):
    return float(re.search(rf"^{name} = ([0-9.e+-]+)", text, re.M).group(1))


def widths(text, kernel):
    """The TILE_N of each configuration of `kernel`, in declaration order."""
    decorator = re.search(r"@kernel\((.*?)\)\]\)\ndef " + kernel + r"\(", text, re.S).group(1)
    return [int(t) for t in re.findall(r"config\(TILE_N=(\d+)", decorator)]


def row_lengths(tile, previous, chunk, loop):
    """Boundary row lengths for a configuration of width `tile` after one of width `previous`."""
    ns = {1, 3, previous + 1, tile - 1, tile, (previous + tile) // 2 + 5}
    if loop:  # chunk boundaries, a ragged last chunk
        ns |= {chunk - 1, chunk + 1, 2 * chunk + 5, tile - 3}
    return sorted(n for n in ns if 1 <= n <= tile)


def run(job):
    kernel, dtype, defines, tile, n, m, chunk, loop, expect_assert = job
    text = open(os.path.join(samples, kernel + ".tile")).read()
    eps = module_value(text, "EPS") if kernel != "softmax" else 0.0
    tag = "_".join([kernel, dtype, str(tile), str(n)] + [d.replace("=", "") for d in defines])
    d = os.path.join(out, tag)
    os.makedirs(d, exist_ok=True)
    x = row_values(kernel, m, n, chunk)
    data, xs = encode([v for r in x for v in r], dtype)
    open(os.path.join(d, f"{kernel}.in.X.bin"), "wb").write(data)
    x = [xs[i * n:(i + 1) * n] for i in range(m)]
    w = b = None
    if kernel != "softmax":
        data, w = encode([0.5 + (j % 13) / 8.0 for j in range(n)], dtype)
        open(os.path.join(d, f"{kernel}.in.W.bin"), "wb").write(data)
    if kernel == "layernorm":
        data, b = encode([((j % 11) - 5) / 4.0 for j in range(n)], dtype)
        open(os.path.join(d, f"{kernel}.in.B.bin"), "wb").write(data)
    cmd = [difftest, os.path.join(samples, kernel + ".tile"), "--kernel", kernel, "-D", f"T={dtype}",
           "-D", f"TILE_N={tile}", "--set", f"M={m}", "--set", f"N={n}", "--inputs", d, "--out", d]
    for define in defines:
        cmd += ["-D", define]
    r = subprocess.run(cmd, capture_output=True, text=True)
    label = f"{kernel} T={dtype} TILE_N={tile}{' ' + ' '.join(defines) if defines else ''} M={m} N={n}"
    if expect_assert:
        ok = r.returncode == 1 and "assert" in r.stdout + r.stderr
        return (f"{label}: refused" if ok else f"FAIL: {label}: not refused: exit {r.returncode} {r.stdout}{r.stderr}")
    if r.returncode != 0:
        return f"FAIL: {label}: tilec-difftest exit {r.returncode}: {(r.stdout + r.stderr).strip()[:400]}"
    meta = {p["name"]: p for p in json.load(open(os.path.join(d, f"{kernel}.json")))["params"]}
    want = reference(kernel, x, w, b, eps)
    worst = 0.0
    for name in want[0]:
        got = decode(open(os.path.join(d, f"{kernel}.expected.{name}.bin"), "rb").read(), meta[name]["dtype"])
        per_row = len(got) // m
        rtol = RTOL[meta[name]["dtype"]]
        atol = 1e-7 if meta[name]["dtype"] == "f16" else 1e-30  # f16 subnormals: softmax of long rows
        for i in range(m):
            values, scale = want[i][name]
            for j in range(per_row):
                g, e = got[i * per_row + j], values[j]
                bound = rtol * scale[j] + atol
                if not abs(g - e) <= bound:  # NaN (an element not written) fails too
                    return f"FAIL: {label}: {name}[{i}, {j}] = {g!r}, expected {e!r} (error bound {bound:.3g})"
                worst = max(worst, abs(g - e) / bound)
    return f"{label}: ok (largest error {worst:.2f} of the bound)"


jobs = []
for kernel in ["softmax", "layernorm", "rmsnorm"]:
    text = open(os.path.join(samples, kernel + ".tile")).read()
    builds = [[]] + ([["CHUNK=8192"]] if kernel == "softmax" else [])
    for defines in builds:
        chunk = int(defines[0].split("=")[1]) if defines else int(module_value(text, "CHUNK"))
        tiles = widths(text, kernel)
        for dtype in DTYPES:
            previous = 0
            for tile in tiles:
                loop = tile > chunk
                for n in row_lengths(tile, previous, chunk, loop):
                    jobs.append((kernel, dtype, defines, tile, n, 3 if n > 4096 else 5, chunk, loop, False))
                previous = tile
        jobs.append((kernel, "f32", defines, tiles[-1], tiles[-1] + 1, 1, chunk, tiles[-1] > chunk, True))

run_all(run, jobs)
