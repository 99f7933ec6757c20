#!/usr/bin/env bash
# Compile time of every sample (issue 20): the median of N wall-clock runs of
#   tilec samples/X.tile -o x.h                          (header, default arch)
#   tilec samples/X.tile -arch sm_90a -arch sm_80 -o x.h (header, two archs)
#   tilec samples/X.tile --emit=ptx -o x.ptx             (no ptxas)
# and, from `tilec -v` in the same runs, the longest chain of ptxas runs one arch needs (its
# register-cap retry follows its first run), which bounds a header's time however many cores
# there are.
#
#   bench/compile_time.sh OUTFILE [BASE_REV]
#
# OUTFILE gets a Markdown table. With BASE_REV (a git revision, e.g. the commit before the
# change) that revision's tilec is built in a temporary worktree and timed too, its runs
# interleaved with the new ones, for before/after columns. Environment: TILEC (the compiler
# to time, default build/tilec), BASE_TILEC (BASE_REV's compiler, already built: skips the
# build), RUNS (default 3), PTX_RUNS (runs of --emit=ptx, default RUNS; with a base, both
# compilers' runs interleaved), BASE_HEADERS (0: time only the base's --emit=ptx, for a change
# that leaves ptxas's work alone; default 1), JOBS (passed as -j when set; default: tilec's own,
# one ptxas job per CPU), SAMPLES (names to time, "softmax layernorm"; default: every sample).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '2,20p' "$0"; exit 2; }
OUT=$1
BASE_REV=${2:-}
TILEC=${TILEC:-build/tilec}
RUNS=${RUNS:-3}
[ -x "$TILEC" ] || { echo "no compiler at $TILEC (build it, or set TILEC)"; exit 2; }

work=$(mktemp -d)
cleanup() {
  [ -d "$work/src" ] && git worktree remove --force "$work/src"
  rm -rf "$work"
}
trap cleanup EXIT

BASE=${BASE_TILEC:-}
if [ -n "$BASE_REV" ] && [ -z "$BASE" ]; then
  git worktree add -q --detach "$work/src" "$BASE_REV"
  cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEC_TESTS=OFF > /dev/null
  cmake --build "$work/build" --target tilec -j "$(nproc)" > /dev/null
  BASE=$work/build/tilec
fi

python3 - "$OUT" "$TILEC" "$BASE" "$BASE_REV" "$RUNS" "${JOBS:-}" "$work" "${PTX_RUNS:-$RUNS}" "${BASE_HEADERS:-1}" <<'EOF'
import glob, os, re, statistics, subprocess, sys, time

out, new, base, base_rev, runs, jobs, work, ptx_runs, base_headers = sys.argv[1:]
runs, ptx_runs = int(runs), int(ptx_runs)
base_headers = bool(base) and base_headers != "0"
samples = sorted(glob.glob("samples/*.tile"))
if os.environ.get("SAMPLES"):
    samples = [f"samples/{n}.tile" for n in os.environ["SAMPLES"].split()]
configs = {"header": [], "2arch": ["-arch", "sm_90a", "-arch", "sm_80"]}
# Samples that need a newer arch than sm_80 (f8 mma: sm_89): timed for that arch alone, as
# tests/gpu builds them; their 2-arch columns stay empty.
ONLY_ARCH = {"matmul_f8": "sm_90a"}
jflag = ["-j", jobs] if jobs else []

def run(tilec, args, extra=()):
    t = time.perf_counter()
    p = subprocess.run([tilec, *args, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return time.perf_counter() - t, p

def chain_of(p):
    # The new compiler's -v line: "ptxas: R runs for M modules (...); longest chain N ms (arch)"
    m = re.search(r"longest chain (\d+) ms", p.stderr)
    return int(m.group(1)) / 1000 if m else None

def ms(x):
    return "" if x is None else f"{x * 1000:.0f}"


def ratio(x):
    return "" if x is None else f"{x:.2f}"


def quotient(a, b):
    return "" if a is None or b is None else f"{a / b:.2f}"

rows = []
load_before = os.getloadavg()
for s in samples:
    name = os.path.basename(s)[:-5]
    row = {"name": name}
    arch = ["-arch", ONLY_ARCH[name]] if name in ONLY_ARCH else []
    ptx, ptx_base = [], []
    for _ in range(ptx_runs):  # interleaved, so that a busy moment hits both alike
        if base:
            ptx_base.append(run(base, [s, *arch, "--emit=ptx", "-o", f"{work}/b.ptx"])[0])
        ptx.append(run(new, [s, *arch, "--emit=ptx", "-o", f"{work}/x.ptx"])[0])
    row["ptx"] = statistics.median(ptx)
    if base:
        row["ptx_base"] = statistics.median(ptx_base)
        row["ptx_same"] = open(f"{work}/b.ptx", "rb").read() == open(f"{work}/x.ptx", "rb").read()
    for cfg, flags in configs.items():
        if arch:
            if cfg != "header":
                row[cfg] = row[cfg + "_chain"] = row[cfg + "_ratio"] = row[cfg + "_base"] = None
                row[cfg + "_same"] = True
                continue
            flags = arch
        t_new, t_base, chains, ratios = [], [], [], []
        for _ in range(runs):  # interleaved, so that a busy moment hits both alike
            if base_headers:
                t_base.append(run(base, [s, *flags, "-o", f"{work}/b.h"])[0])
            # -v for the chain of this very run (the trace costs well under a millisecond)
            t, p = run(new, [s, *flags, *jflag, "-o", f"{work}/n.h", "-v"])
            if p.returncode != 0:
                sys.exit(f"{s} {cfg}: tilec failed:\n{p.stderr}")
            t_new.append(t)
            chains.append(chain_of(p))
            ratios.append(t / chains[-1])
        if base_headers:
            same = open(f"{work}/b.h", "rb").read() == open(f"{work}/n.h", "rb").read()
            row[cfg + "_same"] = same
            row[cfg + "_base"] = statistics.median(t_base)
        row[cfg] = statistics.median(t_new)
        row[cfg + "_chain"] = statistics.median(chains)
        row[cfg + "_ratio"] = statistics.median(ratios)
    rows.append(row)
    print(name, {k: v for k, v in row.items() if k != "name"}, file=sys.stderr)
load_after = os.getloadavg()

def version(tilec):
    return subprocess.run([tilec, "--version"], capture_output=True, text=True).stdout.strip()

rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
ptxas = subprocess.run(["sh", "-c", "ptxas --version 2>/dev/null || ${CUDA_PATH:-/usr/local/cuda}/bin/ptxas --version"],
                       capture_output=True, text=True).stdout
cuda = re.search(r"release ([0-9.]+), V([0-9.]+)", ptxas)
with open(out, "w") as f:
    cmd = "bench/compile_time.sh " + out + (" " + base_rev if base_rev else "")
    f.write(f"# Compile time of the samples ({time.strftime('%Y-%m-%d')}, {len(os.sched_getaffinity(0))} CPUs)\n\n")
    f.write(f"Made by `{cmd}` (RUNS={runs}, PTX_RUNS={ptx_runs}{', BASE_HEADERS=0' if base and not base_headers else ''}"
            f"{', JOBS=' + jobs if jobs else ''}) at {rev}: "
            f"{version(new)}, CUDA {cuda.group(2) if cuda else 'unknown'}; "
            f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after.\n"
            f"Wall-clock milliseconds, median of {runs} runs of `tilec samples/X.tile -o x.h` (header: "
            f"the default arch) and with `-arch sm_90a -arch sm_80` (2 archs); `--emit=ptx` runs no "
            f"ptxas. *chain*: the longest chain of ptxas runs of one arch in the same runs (`tilec -v`: "
            f"its first run, then a register-cap retry), the least a header can take however many cores "
            f"run its jobs; *x chain*: the median of header time / chain (issue 20's goal: at most 1.3 on "
            f"a multi-core host).\n\n")
    if base:
        same = all(r["ptx_same"] for r in rows)
        if base_headers:
            same = same and all(r['header_same'] and r['2arch_same'] for r in rows)
        f.write(f"*before*: {base_rev or base}; *after*: this tree. Every {'header and ' if base_headers else ''}"
                f"PTX file was the same bytes before and after: {'yes' if same else 'NO'}.\n\n")
    if base_headers:
        f.write("| sample | --emit=ptx before | after | header before | after | after/before | chain | x chain | "
                "2 archs before | after | after/before | chain | x chain |\n")
        f.write("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            f.write(f"| {r['name']} | {ms(r['ptx_base'])} | {ms(r['ptx'])} | {ms(r['header_base'])} | {ms(r['header'])} | "
                    f"{quotient(r['header'], r['header_base'])} | {ms(r['header_chain'])} | {ratio(r['header_ratio'])} | "
                    f"{ms(r['2arch_base'])} | {ms(r['2arch'])} | {quotient(r['2arch'], r['2arch_base'])} | "
                    f"{ms(r['2arch_chain'])} | {ratio(r['2arch_ratio'])} |\n")
        tb = sum(r["header_base"] for r in rows); tn = sum(r["header"] for r in rows)
        ab = sum(r["2arch_base"] or 0 for r in rows); an = sum(r["2arch"] or 0 for r in rows)
        f.write(f"| **all samples** | {ms(sum(r['ptx_base'] for r in rows))} | {ms(sum(r['ptx'] for r in rows))} | "
                f"{ms(tb)} | {ms(tn)} | {tn / tb:.2f} | | | {ms(ab)} | {ms(an)} | {an / ab:.2f} | | |\n")
    else:
        before = "--emit=ptx before | after" if base else "--emit=ptx"
        f.write(f"| sample | {before} | header | chain | x chain | 2 archs | chain | x chain |\n"
                f"|---|{'---:|' * (2 if base else 1)}---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            ptx_cols = f"{ms(r['ptx_base'])} | {ms(r['ptx'])}" if base else ms(r['ptx'])
            f.write(f"| {r['name']}{' (' + ONLY_ARCH[r['name']] + ')' if r['name'] in ONLY_ARCH else ''} | {ptx_cols} | "
                    f"{ms(r['header'])} | {ms(r['header_chain'])} | {ratio(r['header_ratio'])} | {ms(r['2arch'])} | "
                    f"{ms(r['2arch_chain'])} | {ratio(r['2arch_ratio'])} |\n")
print(f"wrote {out}", file=sys.stderr)
EOF
