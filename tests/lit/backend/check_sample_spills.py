"""Every sample, and the dtype and size variants the GPU checks build, compiles with -Werror
for every -arch the tests use, so ptxas reports no spill for any entry (a spill is a -Wspills
warning; issue 20), except the entries listed in KNOWN_SPILLS, each with the most spill-store
bytes it may have on any arch: a spill anywhere else, in another entry, or beyond its bound
fails, and so does a listed variant that no longer spills (then it leaves the list).
One fatbin per variant holds all the archs, so each tilec run assembles them side by side.

    check_sample_spills.py TILEC SAMPLES_DIR OUT_DIR
"""
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# -arch sm_90 builds sm_90a and sm_80 (target.h arch_builds), both listed.
ARCHS = ["sm_80", "sm_86", "sm_89", "sm_90a"]
# -D variants beyond the defaults: those tests/gpu/make_headers.sh builds, and attention's
# D=128 forms, which spilled before.
VARIANTS = {
    "matmul": [[], ["-D", "T=bf16"], ["-D", "T=f32"], ["-D", "T=i8"]],
    "matmul_bias_relu": [[], ["-D", "T=bf16"]],
    "matmul_epilogue": [[], ["-D", "T=f16"]],
    "attention": [[], ["-D", "CAUSAL=True"], ["-D", "CAUSAL=True", "-D", "D=128"], ["-D", "D=128"]],
    "softmax": [[], ["-D", "T=f16", "-D", "TILE_N=4096"], ["-D", "T=f16", "-D", "TILE_N=32768"]],
    "layernorm": [[], ["-D", "T=f16", "-D", "TILE_N=4096"], ["-D", "T=bf16", "-D", "TILE_N=8192"]],
    "rmsnorm": [[], ["-D", "T=bf16", "-D", "TILE_N=4096"]],
    "embedding_gather": [[], ["-D", "T=bf16"]],
    # tests/gpu/make_shape_headers.sh's, those check_shapes runs (its benchmark-only tile
    # configurations are left out)
    "batched_matmul": [[], ["-D", "T=bf16"], ["-D", "T=bf16", "-D", "BN=128"]],
    "linear_decode": [[], ["-D", "MT=64"]],
    "matmul_splitk": [[], ["-D", "BN=256"]],
    # tests/gpu/make_f8_headers.sh's (its benchmark-only tile configurations are left out)
    "matmul_f8": [[], ["-D", "TA=f8e5m2"], ["-D", "PROMOTE=True", "-D", "BN=128"]],
    "matmul_bt": [[], ["-D", "T=tf32"], ["-D", "T=tf32", "-D", "BN=256"]],
}
# The entries that still spill, by sample and -D set: entry -> the most spill-store bytes on
# any of the archs (CUDA 13 ptxas, 2026-12-02). The general variants (the kernel's own name) of
# matmul, matmul_bias_relu, matmul_bt, batched_matmul and matmul_splitk -D BN=256, whose
# 128x256 f32 accumulators take 128 registers per thread in 8 warps, stored 736-904 bytes
# before issue 20's staged loads and per-use addresses, then 8-100 bytes (batched_matmul 60-72,
# matmul_splitk 16); attention with D=128 4-100 bytes. What removed them: such an accumulator
# is stored through shared memory a 16-byte piece at a time (ptx/mma_store.cpp), its index
# arithmetic and thread coordinates computed again after the loop; a transposed operand
# (matmul_bt's B, attention's K^T) is staged as its load's tile; attention's Q, loaded before
# the loop, is held two elements to a register (mma_sync.cpp). Left: matmul_splitk -D BN=256,
# whose 128x256 f32 partials (130 KiB through shared memory) do not fit in the 99 KiB of
# sm_86/sm_89 and are stored straight from registers: 4 bytes on sm_90a.
#
# matmul_f8 (sm_90a only, as check_sample_ptx.py says): its portable entries, which the H200 runs
# only for rows that are not 16-byte aligned (the tma_wgmma entry is clean), hold the 128x256
# f32 accumulator beside 8-bit operands that ldmatrix cannot read transposed: 52 bytes in the
# vectorized variant, 492 in the general one; with -D PROMOTE=True -D BN=128 two 128x128
# accumulators, 104 and 140 (CUDA 13 ptxas, 2026-12-02).
KNOWN_SPILLS = {
    ("matmul_splitk", "-D BN=256"): {"matmul_splitk": 4},
    ("matmul_f8", ""): {"matmul_f8": 492, "matmul_f8_v16": 52},
    ("matmul_f8", "-D TA=f8e5m2"): {"matmul_f8": 492, "matmul_f8_v16": 52},
    ("matmul_f8", "-D PROMOTE=True -D BN=128"): {"matmul_f8": 140, "matmul_f8_v16": 104},
}
# sample -> the archs of ARCHS it is built for (check_sample_ptx.py ONLY_ARCHS says why)
ONLY_ARCHS = {"matmul_f8": ["sm_90a"]}
SPILL = re.compile(r"error: (\w+) on (sm_\w+): .*; spills: (\d+) bytes stored")

tilec, samples, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
jobs = []
for f in sorted(os.listdir(samples)):
    if f.endswith(".tile"):
        name = f[:-5]
        for i, defines in enumerate(VARIANTS.get(name, [[]])):
            jobs.append((name, defines, os.path.join(out, f"{name}.{i}.fatbin")))


def compile_one(job):
    name, defines, fatbin = job
    cmd = [tilec, os.path.join(samples, name + ".tile"), *defines, "-Werror", "-j", "2", "-o", fatbin]
    for arch in ONLY_ARCHS.get(name, ARCHS):
        cmd[2:2] = ["-arch", arch]
    r = subprocess.run(cmd, capture_output=True, text=True)
    label = " ".join([name] + defines)
    bound = KNOWN_SPILLS.get((name, " ".join(defines)))
    spills = [m.groups() for m in SPILL.finditer(r.stderr)]
    other = [line for line in r.stderr.splitlines() if "error:" in line and not SPILL.search(line)]
    if r.returncode == 0 and not r.stderr:
        if bound is not None:
            return f"FAIL: {label}: listed in KNOWN_SPILLS but no longer spills: take it off the list"
        return f"{label}: no spills on {', '.join(ONLY_ARCHS.get(name, ARCHS))}"
    if bound is None or other or not spills:
        return f"FAIL: {label}: tilec exit {r.returncode}: {r.stderr.strip()[:600]}"
    bad = [f"{entry} on {arch}: {stored} bytes" for entry, arch, stored in spills
           if int(stored) > bound.get(entry, 0)]
    if bad:
        return f"FAIL: {label}: spills beyond the known bounds {bound}: {'; '.join(bad)}"
    worst = {}
    for entry, _, stored in spills:
        worst[entry] = max(worst.get(entry, 0), int(stored))
    return f"{label}: known spills, at most {worst} bytes (bounds {bound}); every other entry clean"


with ThreadPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) // 2)) as pool:
    results = list(pool.map(compile_one, jobs))
for line in results:
    print(line)
sys.exit(1 if any(line.startswith("FAIL") for line in results) else 0)
