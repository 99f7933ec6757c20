#!/usr/bin/env python3
"""The GPU oracle of issue 37: generated kernels compiled by tilec and run on a GPU, compared
bit for bit with the reference interpreter (docs/robustness.md, "Differential testing").

    gpu_campaign.py prepare --seeds FIRST END --dir D [--tilec BUILD/tilec]
                            [--difftest BUILD/tools/difftest/tilec-difftest] [--per-runner 40]
                            [--jobs 2] [--check-build] [--no-pack]
    bash D/run.sh                        on the GPU machine: builds and runs, results in $OUT/<D's name>/
    gpu_campaign.py run --seeds FIRST END --dir D [...]   all three on one machine with tilec and a
                                         GPU (one command; exit 1 when a launch is not ok)
    gpu_campaign.py summarize D [--results R]    a markdown table of R (default D/out)

`prepare` (here, no GPU needed): for each seed, gen.py writes the file; tilec compiles it twice
with --fmad=false (so the GPU's results are the interpreter's -O0 results bit for bit): the
default target (sm_90a + sm_80: the tma_wgmma path on a 9.0 device) with --prefix s<seed>_, and
-arch sm_80 --prefix s<seed>_p80_ (the portable path: compute_80 PTX that the driver compiles for
the GPU, as tests/gpu/make_headers.sh does for its portable headers); `--emit=tir-lowered` tells
which kernels have a tma_wgmma path and which take wgmma's A from registers; tilec-difftest
--out writes the inputs, the -O0 results and the manifest. Then one C++ runner per --per-runner
kernels (several seeds each: g++ time) that includes the headers and runs gpu_runner.h's tests,
and D/build.sh, D/run.sh, D/manifest.json. Everything the GPU machine needs is packed into
D/payload.tar.xz (headers, data, runners: xz makes the headers' hex text about 11 times
smaller); --no-pack leaves it unpacked in D/work. --check-build compiles the runners here
(against the driver stub) before packing. A seed that tilec or tilec-difftest fails on is a
finding of its own: it is listed in the manifest and left out of the runners.

The tilec may be any build (an older commit's, to show that the campaign finds a bug that commit
had): only its headers are used; the generator and tilec-difftest are this checkout's.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

HEADERS = [("def", []), ("p80", ["-arch", "sm_80"])]
C_TYPES = {"bool": "bool", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t", "u8": "uint8_t",
           "u16": "uint16_t", "u32": "uint32_t", "u64": "uint64_t", "f16": "float", "bf16": "float", "f32": "float",
           "f64": "double"}
KINDS = {"bool": ("Bool", 1), "i8": ("Int", 1), "i16": ("Int", 2), "i32": ("Int", 4), "i64": ("Int", 8),
         "u8": ("Int", 1), "u16": ("Int", 2), "u32": ("Int", 4), "u64": ("Int", 8), "f16": ("F16", 2),
         "bf16": ("BF16", 2), "f32": ("F32", 4), "f64": ("F64", 8)}


def run(cmd, timeout=300):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", f"timed out after {timeout} s"


def lowered_tags(text):
    """Kernel name -> tags from `--emit=tir-lowered`'s notes: tma_wgmma (the kernel has the
    sm_90a path), wgmma-a-registers (its wgmma takes A from registers: the RS form)."""
    tags, kernel = {}, None
    for line in text.splitlines():
        m = re.match(r"// kernel (\w+)(,|:)", line)
        if m:
            kernel = m.group(1)
            tags.setdefault(kernel, [])
            if line.startswith(f"// kernel {kernel}, tma_wgmma path"):
                tags[kernel].append("tma_wgmma")
            continue
        if line.startswith("kernel @"):
            kernel = None
        elif kernel and line.startswith("//") and "wgmma operand a from registers" in line:
            tags[kernel].append("wgmma-a-registers")
    return tags


def launch_params(header_text, name):
    """The parameter names of the dense launch `name` in a generated header, in order."""
    m = re.search(r"^CUresult " + re.escape(name) + r"\(CUstream stream, ([^)]*)\)", header_text, re.M)
    if not m:
        return None
    return [p.split()[-1] for p in m.group(1).split(",")]


def prepare_seed(seed, args, work):
    """Compiles and runs one seed's file here; returns its manifest entry."""
    folder = os.path.join(work, f"s{seed}")
    os.makedirs(folder, exist_ok=True)
    text, tags = gen.generate_tagged(seed)
    src = os.path.join(folder, "gen.tile")
    with open(src, "w") as f:
        f.write(text)
    entry = {"seed": seed, "kernels": [], "finding": None}
    for label, arch in HEADERS:
        prefix = f"s{seed}_" + ("" if label == "def" else label + "_")
        cmd = [args.tilec, src, "--fmad=false", "--prefix", prefix, "-o", os.path.join(folder, f"{label}.h")] + arch
        rc, out = run(cmd + ["-Wno-reduction-padding", "-Wno-wgmma"])
        if rc != 0 and "unknown" in out.lower():  # an older tilec without these warnings
            rc, out = run(cmd)
        if rc != 0:
            entry["finding"] = f"tilec ({label}) rc {rc}: " + next(
                (ln for ln in out.splitlines() if "error" in ln), out.strip()[:200])
            return entry
    rc, low = run([args.tilec, src, "--fmad=false", "--emit=tir-lowered", "-o", "-"])
    low_tags = lowered_tags(low) if rc == 0 else {}
    rc, out = run([args.difftest, src, "--seed", str(seed), "--out", folder])
    if rc != 0:
        entry["finding"] = f"tilec-difftest rc {rc}: " + (out.strip().splitlines() or [""])[0]
        return entry
    headers = {label: open(os.path.join(folder, f"{label}.h")).read() for label, _ in HEADERS}
    for kernel in sorted(tags):
        path = os.path.join(folder, f"{kernel}.json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            man = json.load(f)
        params = {p["name"]: p for p in man["params"]}
        for p in man["params"]:
            # An array the kernel does not write must come back as it went: its expected file
            # is its input file (one file less to carry).
            exp = os.path.join(folder, f"{kernel}.expected.{p['name']}.bin")
            if "extents" in p and not p["written"] and os.path.exists(exp):
                with open(exp, "rb") as a, open(os.path.join(folder, p["file"]), "rb") as b:
                    if a.read() == b.read():
                        os.remove(exp)
        launches = {}
        for label, _ in HEADERS:
            prefix = f"s{seed}_" + ("" if label == "def" else label + "_")
            launches[label] = launch_params(headers[label], prefix + kernel)
        entry["kernels"].append({
            "kernel": kernel, "tags": tags[kernel] + low_tags.get(kernel, []), "math": man.get("math", False),
            "ir_hash": man.get("ir_hash", ""), "dims": {d["name"]: d["value"] for d in man["dims"]},
            "params": man["params"], "launch": launches, "grid": man["grid"]})
    return entry


def cpp_test(entry, k, n, seed):
    """The C++ of one kernel's arrays and launch functions; returns (code, test initializers)."""
    kernel, arrays = k["kernel"], [p for p in k["params"] if "extents" in p]
    index = {p["name"]: i for i, p in enumerate(arrays)}
    scalars = {p["name"]: p for p in k["params"] if "extents" not in p}
    lines = [f"static const gpurun::Array A{n}[] = {{"]
    for p in arrays:
        kind, size = KINDS[p["dtype"]]
        exp = f"s{seed}/{kernel}.expected.{p['name']}.bin" if p["written"] else f"s{seed}/{p['file']}"
        ext = ", ".join(str(e) for e in (p["extents"] + [1] * 4)[:4])
        lines.append(f'  {{"{p["name"]}", "s{seed}/{p["file"]}", "{exp}", gpurun::Kind::{kind}, {size}, '
                     f'{len(p["extents"])}, {{{ext}}}}},')
    if not arrays:
        lines.append('  {"", "", "", gpurun::Kind::Int, 1, 0, {1, 1, 1, 1}},')
    lines.append("};")
    tests = []
    for label, names in k["launch"].items():
        if names is None:
            continue
        prefix = f"s{seed}_" + ("" if label == "def" else label + "_")
        args = []
        for name in names:
            if name in index:
                args.append(f"a[{index[name]}]")
            elif name in k["dims"]:
                args.append(f"(int64_t){k['dims'][name]}")
            elif name in scalars:
                s = scalars[name]
                v = s["value"]
                if s["dtype"] == "bool":
                    v = "true" if v else "false"
                elif s["dtype"].startswith("u"):
                    v = f"{v}u"
                args.append(f"({C_TYPES[s['dtype']]}){v}")
            else:
                raise RuntimeError(f"seed {seed} kernel {kernel}: launch parameter {name} not in the manifest")
        fn = f"L{n}_{label}"
        lines.append(f"static CUresult {fn}(const CUdeviceptr* a) {{ (void)a; return {prefix}{kernel}(nullptr{''.join(', ' + x for x in args)}); }}")
        tests.append(f'  {{{seed}, "{kernel}", "{label}", {fn}, A{n}, {len(arrays)}, {"true" if k["math"] else "false"}}},')
    return "\n".join(lines), tests


def write_runner(path, entries):
    seeds = sorted({e["seed"] for e, _ in entries})
    out = ["// Generated by tools/difftest/gpu_campaign.py prepare: one GPU runner (gpu_runner.h).",
           '#include "../gpu_runner.h"  // first: it defines TILEC_TRACE_LAUNCH for the headers']
    for s in seeds:
        for label, _ in HEADERS:
            out.append(f'#include "../s{s}/{label}.h"')
    tests = []
    for n, (e, k) in enumerate(entries):
        code, t = cpp_test(e, k, n, e["seed"])
        out.append(code)
        tests += t
    out.append("static const gpurun::Test tests[] = {")
    out += tests
    out.append("};")
    out.append("int main(int argc, char** argv) { return gpurun::run_tests(argc, argv, tests, int(sizeof tests / sizeof *tests)); }")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


BUILD_SH = r"""#!/usr/bin/env bash
# Builds the runners of this GPU campaign (tools/difftest/gpu_campaign.py): unpacks payload.tar.xz
# into work/ when needed, then g++ -O1 per runner, in parallel, against libcuda (the driver's, or
# the toolkit's stub where there is no driver).
set -euo pipefail
D=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_PATH:-/usr/local/cuda}
if [ ! -d "$D/work" ]; then
  if ! tar -xJf "$D/payload.tar.xz" -C "$D" 2>/dev/null; then
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$D/payload.tar.xz" "$D"
  fi
fi
mkdir -p "$D/work/bin"
ls "$D"/work/runners/*.cpp | xargs -P "$(nproc)" -I{} sh -c \
  'n=$(basename {} .cpp); g++ -O1 -std=c++17 -w -I"'"$cuda"'/include" {} -L"'"$cuda"'/lib64/stubs" -L"'"$cuda"'/lib64" -lcuda -lpthread -o "'"$D"'/work/bin/$n" || echo "BUILD FAILED: $n"'
echo "built $(ls "$D/work/bin" | wc -l) runners in $D/work/bin"
"""

RUN_SH = r"""#!/usr/bin/env bash
# Runs this GPU campaign (tools/difftest/gpu_campaign.py; docs/robustness.md): builds the runners,
# runs them (4 at a time; a runner that crashes, hangs or leaves its context unusable resumes
# after the test), runs the first runner again under compute-sanitizer memcheck, and writes
# results/*.txt, memcheck.txt and summary.md to $OUT/<this folder's name> (OUT defaults to
# this folder's out/).
#   bash D/run.sh [--no-memcheck]
set -uo pipefail
D=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_PATH:-/usr/local/cuda}
R=${OUT:-$D/out}/$(basename "$D")
[ -z "${OUT:-}" ] && R=$D/out
mkdir -p "$R/results"
start=$(date +%s)
bash "$D/build.sh" > "$R/build.txt" 2>&1 || { cat "$R/build.txt"; exit 1; }
echo "build: $(( $(date +%s) - start )) s" | tee "$R/times.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt" 2>&1 || true
run_runner() {  # runner name: every test, resuming after one that crashed or hung
  local n=$1 from=0 log=$R/results/$1.txt rc last_start last_done
  : > "$log"
  while :; do
    timeout "${TIMEOUT_S:-300}" "$D/work/bin/$n" "$D/work" --from "$from" >> "$log" 2>> "$R/results/$n.stderr"
    rc=$?
    [ $rc -eq 0 ] && break
    last_start=$(grep '^# start ' "$log" | tail -1)
    last_done=$(grep '^# done ' "$log" | tail -1 | awk '{print $3}')
    [ -z "$last_start" ] && { echo "$n: exit $rc before any test: $(tail -2 "$R/results/$n.stderr")" >> "$log"; break; }
    set -- $last_start
    if [ "$3" != "$last_done" ]; then  # no verdict: a crash or a hang (timeout)
      echo "$4 $5 $6 - CRASH (exit $rc$([ $rc -eq 124 ] && echo ": hung, killed after ${TIMEOUT_S:-300} s"))" >> "$log"
    fi
    from=$(( $3 + 1 ))
  done
}
export -f run_runner; export D R
ls "$D/work/bin" | xargs -P 4 -I{} bash -c 'run_runner {}'
echo "runs: $(( $(date +%s) - start )) s" | tee -a "$R/times.txt"
if [ "${1:-}" != "--no-memcheck" ] && [ -x "$cuda/bin/compute-sanitizer" ]; then
  first=$(ls "$D/work/bin" | head -1)
  timeout 300 "$cuda/bin/compute-sanitizer" --tool memcheck --error-exitcode 99 --print-limit 20 \
    "$D/work/bin/$first" "$D/work" --layouts a > "$R/memcheck.txt" 2>&1
  rc=$?
  echo "memcheck of $first: exit $rc ($(grep -c '^[0-9].* ok' "$R/memcheck.txt") ok, $(grep -c 'FAIL\|CRASH' "$R/memcheck.txt") failed; $(grep 'ERROR SUMMARY' "$R/memcheck.txt"))" | tee -a "$R/times.txt"
fi
echo "total: $(( $(date +%s) - start )) s" | tee -a "$R/times.txt"
if ! python3 "$D/gpu_campaign.py" summarize "$D" --results "$R" > "$R/summary.md" 2> "$R/summarize.err"; then
  echo "summarize failed: $(tail -1 "$R/summarize.err"); verdicts counted instead"
  cat "$R"/results/*.txt | grep -v '^#' | awk '{v=$5; c[v]++} END {for (v in c) print c[v], v}' > "$R/summary.md"
fi
cat "$R/summary.md"
"""


def prepare(args):
    d = os.path.abspath(args.dir)
    work = os.path.join(d, "work")
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(os.path.join(work, "runners"))
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        entries = list(pool.map(lambda s: prepare_seed(s, args, work), range(*args.seeds)))
    kernels = [(e, k) for e in entries for k in e["kernels"]]
    runners = []
    for i in range(0, len(kernels), args.per_runner):
        batch = kernels[i:i + args.per_runner]
        name = f"runner_{batch[0][0]['seed']}"
        write_runner(os.path.join(work, "runners", name + ".cpp"), batch)
        runners.append(name)
    shutil.copy(os.path.join(HERE, "gpu_runner.h"), os.path.join(work, "gpu_runner.h"))
    shutil.copy(os.path.abspath(__file__), os.path.join(d, "gpu_campaign.py"))
    for name in sorted(os.listdir(HERE)):  # summarize imports gen, and gen its gen_*.py modules
        if name.startswith("gen") and name.endswith(".py"):
            shutil.copy(os.path.join(HERE, name), os.path.join(d, name))
    rc, version = run([args.tilec, "--version"])
    rc, commit = run(["git", "-C", os.path.dirname(os.path.abspath(args.tilec)), "log", "-1", "--format=%h %s"])
    version = version.strip() + (f" (built from {commit.strip()[:100]})" if rc == 0 else "")
    manifest = {"seeds": args.seeds, "tilec": os.path.abspath(args.tilec), "tilec_version": version.strip(),
                "runners": runners, "entries": entries}
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    for name, text in (("build.sh", BUILD_SH), ("run.sh", RUN_SH)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        os.chmod(os.path.join(d, name), 0o755)
    findings = [e for e in entries if e["finding"]]
    print(f"{len(entries)} seeds, {len(kernels)} kernels, {len(runners)} runners; "
          f"{sum('tma_wgmma' in k['tags'] for _, k in kernels)} kernels with a tma_wgmma path, "
          f"{sum('wgmma-a-registers' in k['tags'] for _, k in kernels)} with wgmma's A from registers; "
          f"{len(findings)} seeds with a CPU-side finding ({time.time() - start:.0f} s)")
    for e in findings:
        print(f"  seed {e['seed']}: {e['finding']}")
    if args.check_build:
        rc, out = run(["bash", os.path.join(d, "build.sh")], timeout=3600)
        print(out.strip().splitlines()[-1] if out.strip() else f"build.sh rc {rc}")
        if rc != 0 or "BUILD FAILED" in out:
            print(out)
            return 1
        shutil.rmtree(os.path.join(work, "bin"))
    if not args.no_pack:
        # Headers first, compressed as one stream: xz finds the repeats between them.
        with tarfile.open(os.path.join(d, "payload.tar.xz"), "w:xz", preset=6) as tar:
            tar.add(work, arcname="work")
        shutil.rmtree(work)
    size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
    print(f"{d}: {size / 2**20:.1f} MiB ({size / 2**10 / max(1, len(entries)):.0f} KiB per seed)")
    return 0


def read_results(res):
    """The verdict lines of run.sh's results/*.txt under res: (rows, problems), where a row is
    (seed, kernel, header/layout, entry, verdict text) and a problem a line that is neither a
    comment nor a verdict."""
    rows, problems = [], []
    rdir = os.path.join(res, "results")
    for name in sorted(os.listdir(rdir)) if os.path.isdir(rdir) else []:
        if not name.endswith(".txt"):
            continue
        for line in open(os.path.join(rdir, name)):
            parts = line.rstrip("\n").split(" ", 4)
            if line.startswith("#"):
                continue
            if len(parts) < 5 or not parts[0].isdigit():
                problems.append(f"{name}: {line.strip()}")
                continue
            rows.append((int(parts[0]), parts[1], parts[2], parts[3], parts[4]))
    return rows, problems


def summarize(args):
    d = os.path.abspath(args.dir)
    res = args.results or os.path.join(d, "out")
    with open(os.path.join(d, "manifest.json")) as f:
        manifest = json.load(f)
    info = {}
    for e in manifest["entries"]:
        for k in e["kernels"]:
            info[(e["seed"], k["kernel"])] = k
    rows, problems = read_results(res)

    def verdict(v):
        if v == "ok":
            return "ok"
        if v.startswith("CRASH"):
            return "crash"
        return "FAIL (math)" if v.endswith("[math]") else "FAIL"

    cols = ["ok", "FAIL", "FAIL (math)", "crash"]
    out = [f"# GPU campaign {os.path.basename(d)}: seeds {manifest['seeds'][0]}-{manifest['seeds'][1] - 1}", "",
           f"tilec: {manifest['tilec_version'] or '?'}"]
    gpu = os.path.join(res, "gpu.txt")
    if os.path.exists(gpu):
        out.append(f"GPU: {open(gpu).read().strip()}")
    kernels = list(info.values())
    findings = [e for e in manifest["entries"] if e["finding"]]
    ran = {(s, k) for s, k, _, _, _ in rows}
    out += ["", f"- seeds: {len(manifest['entries'])} ({len(findings)} with a CPU-side finding, left out)",
            f"- kernels: {len(kernels)}, distinct IR: {len({k['ir_hash'] for k in kernels})}; with results: {len(ran)}",
            f"- kernels with a tma_wgmma path: {sum('tma_wgmma' in k['tags'] for k in kernels)}, "
            f"with wgmma's A from registers: {sum('wgmma-a-registers' in k['tags'] for k in kernels)}",
            f"- launches (kernel x header x layout): {len(rows)}"]
    wg = [r for r in rows if "_wgmma" in r[3]]
    wga = [r for r in wg if "wgmma-a-registers" in info.get((r[0], r[1]), {}).get("tags", [])]
    out.append(f"- launches that took a `_wgmma` entry: {len(wg)} ({len(wga)} with A from registers; "
               f"{sum(verdict(r[4]) != 'ok' for r in wga)} of those not ok)")
    missing = len(kernels) * len(HEADERS) * 2 - len(rows)
    if missing > 0:
        out.append(f"- launches without a result line (a runner that did not build or start?): {missing}")

    def table(title, key_of):
        counts = {}
        for r in rows:
            for key in key_of(r):
                c = counts.setdefault(key, {})
                c[verdict(r[4])] = c.get(verdict(r[4]), 0) + 1
        out.extend(["", f"| {title} | launches | " + " | ".join(cols) + " |", "|---" * (len(cols) + 2) + "|"])
        for key in sorted(counts):
            c = counts[key]
            out.append(f"| {key} | {sum(c.values())} | " + " | ".join(str(c.get(x, 0)) for x in cols) + " |")

    table("all", lambda r: ["all"])
    table("header/layout", lambda r: [r[2]])
    def path(r):  # PTX entries are the kernel's name (general variant) or it with _v16, _wgmma, ...
        if r[3] == "-":
            return ["no launch"]
        return [r[3][len(r[1]) + 1:] if r[3].startswith(r[1] + "_") else "general"]
    table("entry", path)
    table("construct", lambda r: info.get((r[0], r[1]), {}).get("tags", ["?"]))
    bad = [r for r in rows if r[4] != "ok"]
    if bad:
        out += ["", f"## Not ok ({len(bad)})", "", "| seed | kernel | header/layout | entry | verdict |", "|---|---|---|---|---|"]
        for r in bad[:200]:
            out.append(f"| {r[0]} | {r[1]} | {r[2]} | `{r[3]}` | {r[4]} |")
    if problems:
        out += ["", "## Runner problems", ""] + [f"- {p}" for p in problems[:50]]
    if findings:
        out += ["", "## CPU-side findings (seeds left out)", ""] + [f"- seed {e['seed']}: {e['finding']}" for e in findings]
    mc = os.path.join(res, "memcheck.txt")
    if os.path.exists(mc):
        text = open(mc).read()
        summary = [ln for ln in text.splitlines() if "ERROR SUMMARY" in ln]
        out += ["", f"memcheck: {summary[-1] if summary else 'no ERROR SUMMARY line'}"]
    print("\n".join(out))
    return 0


def run_here(args):
    """prepare, run.sh and summarize on one machine that has tilec and a GPU (one command).
    Exit status 0 when every launch is ok and no seed has a CPU-side finding."""
    args.no_pack, args.check_build = True, False
    if prepare(args) != 0:
        return 1
    d = os.path.abspath(args.dir)
    env = {k: v for k, v in os.environ.items() if k != "OUT"}  # results in D/out
    subprocess.run(["bash", os.path.join(d, "run.sh")] + (["--no-memcheck"] if args.no_memcheck else []),
                   env=env, stdout=subprocess.DEVNULL)
    print(open(os.path.join(d, "out", "summary.md")).read())
    rows, problems = read_results(os.path.join(d, "out"))
    with open(os.path.join(d, "manifest.json")) as f:
        findings = [e for e in json.load(f)["entries"] if e["finding"]]
    bad = [r for r in rows if r[4] != "ok"]
    print(f"{d}/out: {len(rows)} launches, {len(bad)} not ok, {len(problems)} runner problems, "
          f"{len(findings)} CPU-side findings")
    return 1 if bad or problems or findings or not rows else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--seeds", type=int, nargs=2, metavar=("FIRST", "END"), required=True)
    common.add_argument("--dir", required=True)
    common.add_argument("--tilec", default=os.path.join(ROOT, "build", "tilec"))
    common.add_argument("--difftest", default=os.path.join(ROOT, "build", "tools", "difftest", "tilec-difftest"))
    common.add_argument("--per-runner", type=int, default=40, help="kernels per runner (each from both headers)")
    common.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p = sub.add_parser("prepare", parents=[common], help="generate and compile here, pack for a GPU machine")
    p.add_argument("--check-build", action="store_true", help="compile the runners here (against the stub)")
    p.add_argument("--no-pack", action="store_true", help="leave work/ unpacked (no payload.tar.xz)")
    r = sub.add_parser("run", parents=[common], help="prepare, run and summarize here (a machine with a GPU)")
    r.add_argument("--no-memcheck", action="store_true")
    s = sub.add_parser("summarize")
    s.add_argument("dir")
    s.add_argument("--results", help="the folder run.sh wrote (default DIR/out)")
    args = ap.parse_args()
    return {"prepare": prepare, "run": run_here, "summarize": summarize}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
