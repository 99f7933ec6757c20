"""Every sample, and the dtype and size variants the GPU checks build, compiles with -Werror
for every -arch the tests use, so ptxas reports no spill for any entry of any variant (a spill
is a -Wspills warning, an error under -Werror; issue 20): any spill, or any other diagnostic,
fails (samples_spills.test shows it failing on a kernel that spills). One fatbin per variant
holds all the archs, so each tilec run assembles them side by side.

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
    # f32 (an astype to tf32 in the loop) and i8 (B not K-major) run on mma.sync on sm_90a, which
    # -Wwgmma says; matmul_bt -D T=tf32 is tf32's wgmma form.
    "matmul": [[], ["-D", "T=bf16"], ["-D", "T=f32", "-Wno-wgmma"], ["-D", "T=i8", "-Wno-wgmma"]],
    "matmul_bias_relu": [[], ["-D", "T=bf16"]],
    "matmul_epilogue": [[], ["-D", "T=f16"]],
    "attention": [[], ["-D", "CAUSAL=True"], ["-D", "CAUSAL=True", "-D", "D=128"], ["-D", "D=128"]],
    # the row kernels: every configuration (TILE_N up to 32768) in every dtype, and softmax's
    # chunked form
    "softmax": [[], ["-D", "T=f16"], ["-D", "T=bf16"], ["-D", "CHUNK=8192"]],
    "layernorm": [[], ["-D", "T=bf16"], ["-D", "T=f32"]],
    "rmsnorm": [[], ["-D", "T=bf16"], ["-D", "T=f32"]],
    "embedding_gather": [[], ["-D", "T=bf16"]],
    # tests/gpu/make_shape_headers.sh's, those check_shapes runs (its benchmark-only tile
    # configurations are left out)
    "batched_matmul": [[], ["-D", "T=bf16"], ["-D", "T=bf16", "-D", "BN=128"]],
    "grouped_gemm": [[], ["-D", "T=f16"]],
    "linear_decode": [[], ["-D", "MT=64"]],
    "matmul_splitk": [[], ["-D", "BN=256"]],
    # tests/gpu/make_f8_headers.sh's (its benchmark-only tile configurations are left out)
    "matmul_f8": [[], ["-D", "TA=f8e5m2"], ["-D", "PROMOTE=True", "-D", "BN=128"]],
    "matmul_bt": [[], ["-D", "T=tf32"], ["-D", "T=tf32", "-D", "BN=256"]],
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
    if r.returncode == 0 and not r.stderr:
        return f"{label}: no spills on {', '.join(ONLY_ARCHS.get(name, ARCHS))}"
    spills = [f"{entry} on {arch}: {stored} bytes" for entry, arch, stored in SPILL.findall(r.stderr)]
    if spills:
        return f"FAIL: {label}: spills: {'; '.join(spills)}"
    return f"FAIL: {label}: tilec exit {r.returncode}: {r.stderr.strip()[:600]}"


with ThreadPoolExecutor(max_workers=max(1, (os.cpu_count() or 2) // 2)) as pool:
    results = list(pool.map(compile_one, jobs))
for line in results:
    print(line)
sys.exit(1 if any(line.startswith("FAIL") for line in results) else 0)
