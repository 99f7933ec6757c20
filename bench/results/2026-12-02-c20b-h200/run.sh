#!/usr/bin/env bash
# c20b: --emit=ptx wall times of main 3a46926 (tilec-base) and branch c20b (tilec-new, default
# -j = one thread per CPU, and -j 1) for every sample, medians of 5 interleaved runs; headers
# (default -arch) of the samples with the shortest ptxas chains, base and new, medians of 5.
G=gpu-build/c20b
export LD_LIBRARY_PATH=$PWD/$G/lib:${LD_LIBRARY_PATH:-}
{ date -u; nproc; lscpu | grep -E "Model name|^CPU\(s\)"; uptime; ldd $G/tilec-new | grep -E "fmt|spdlog|not found"; which ptxas; ptxas --version | tail -1; } > $OUT/env.txt 2>&1
python3 - > $OUT/times.md 2> $OUT/err.txt <<'PY'
import glob, os, statistics, subprocess, time
G = "gpu-build/c20b"
base, new = f"{G}/tilec-base", f"{G}/tilec-new"
ONLY = {"matmul_f8": ["-arch", "sm_90a"]}
def t(cmd):
    s = time.perf_counter(); subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL); return (time.perf_counter() - s) * 1000
print("## --emit=ptx, ms, median of 5 (interleaved)\n")
print("| sample | main 3a46926 | c20b | c20b -j 1 |\n|---|---:|---:|---:|")
for f in sorted(glob.glob("samples/*.tile")):
    name = os.path.basename(f)[:-5]
    a = ONLY.get(name, [])
    r = [[], [], []]
    for _ in range(5):
        r[0].append(t([base, f, *a, "--emit=ptx", "-o", os.devnull]))
        r[1].append(t([new, f, *a, "--emit=ptx", "-o", os.devnull]))
        r[2].append(t([new, f, *a, "--emit=ptx", "-j", "1", "-o", os.devnull]))
    print(f"| {name} | " + " | ".join(f"{statistics.median(x):.1f}" for x in r) + " |", flush=True)
print("\n## header (default -arch: sm_90a + sm_80), ms, median of 5 (interleaved)\n")
print("| sample | main 3a46926 | c20b |\n|---|---:|---:|")
for name in ["silu_gate", "vector_add", "embedding_gather", "stencil2d", "sum_rows"]:
    f = f"samples/{name}.tile"
    r = [[], []]
    for _ in range(5):
        r[0].append(t([base, f, "-o", "/tmp/x.h"]))
        r[1].append(t([new, f, "-o", "/tmp/y.h"]))
    same = open("/tmp/x.h", "rb").read() == open("/tmp/y.h", "rb").read()
    print(f"| {name} | " + " | ".join(f"{statistics.median(x):.1f}" for x in r) + f" | {'same bytes' if same else 'DIFFERENT'}", flush=True)
PY
uptime >> $OUT/env.txt
