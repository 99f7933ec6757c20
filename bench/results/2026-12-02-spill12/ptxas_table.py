"""ptxas -v registers and spill-store bytes of every entry of every sample variant that
tests/lit/backend/check_sample_spills.py builds, for each -arch it uses, with two tilec
builds (before, after), and whether each entry's PTX is byte-identical between them.

    ptxas_table.py TILEC_BEFORE TILEC_AFTER SAMPLES_DIR OUT.md [extra.tile:-D,X=Y ...]
"""
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../tests/lit/backend"))
ARCHS = ["sm_80", "sm_86", "sm_89", "sm_90a"]
ONLY_ARCHS = {"matmul_f8": ["sm_90a"]}
src = open(os.path.join(os.path.dirname(__file__), "../../../tests/lit/backend/check_sample_spills.py")).read()
VARIANTS = eval(re.search(r"^VARIANTS = (\{.*?\n\})", src, re.S | re.M).group(1))

before, after, samples, out = sys.argv[1:5]
tmp = tempfile.mkdtemp()
ENTRY = re.compile(r"^\.(?:visible )?\.entry (\w+)\(", re.M)


def entries(ptx):
    """entry name -> its text (from .entry to the next .entry or the end)."""
    marks = [(m.start(), m.group(1)) for m in ENTRY.finditer(ptx)]
    return {n: ptx[s:(marks[i + 1][0] if i + 1 < len(marks) else len(ptx))] for i, (s, n) in enumerate(marks)}


def ptxas(ptx_path, arch):
    r = subprocess.run(["ptxas", "-v", "-arch", arch, ptx_path, "-o", "/dev/null"], capture_output=True, text=True)
    res, cur = {}, None
    for line in r.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            cur = m.group(1)
        m = re.search(r"(\d+) bytes spill stores", line)
        if m and cur:
            res.setdefault(cur, {})["spill"] = int(m.group(1))
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            res.setdefault(cur, {})["regs"] = int(m.group(1))
    return res


def job(j):
    name, defines, arch, i = j
    got = {}
    for tag, tilec in (("b", before), ("a", after)):
        p = os.path.join(tmp, f"{name}.{i}.{arch}.{tag}.ptx")
        r = subprocess.run([tilec, os.path.join(samples, name + ".tile"), *defines, "-arch", arch, "--emit=ptx", "-o", p],
                           capture_output=True, text=True)
        if r.returncode:
            return (name, defines, arch, None, r.stderr[:300])
        got[tag] = (open(p).read(), ptxas(p, arch))
    eb, ea = entries(got["b"][0]), entries(got["a"][0])
    rows = []
    for e in ea:
        rows.append((e, got["b"][1].get(e, {}), got["a"][1].get(e, {}), eb.get(e) == ea[e]))
    return (name, defines, arch, rows, "")


jobs = []
for f in sorted(os.listdir(samples)):
    if not f.endswith(".tile"):
        continue
    name = f[:-5]
    for i, d in enumerate(VARIANTS.get(name, [[]])):
        for arch in ONLY_ARCHS.get(name, ARCHS):
            jobs.append((name, d, arch, i))
with ThreadPoolExecutor(max_workers=2) as pool:
    results = list(pool.map(job, jobs))
lines = ["| sample | -D | arch | entry | regs before | regs after | spill before | spill after | PTX |",
         "|---|---|---|---|---:|---:|---:|---:|---|"]
worse = []
for name, d, arch, rows, err in results:
    if rows is None:
        lines.append(f"| {name} | {' '.join(d[1::2])} | {arch} | (tilec failed: {err.strip()[:80]}) | | | | | |")
        continue
    for e, b, a, same in rows:
        lines.append(f"| {name} | {' '.join(d[1::2])} | {arch} | {e} | {b.get('regs')} | {a.get('regs')} | "
                     f"{b.get('spill')} | {a.get('spill')} | {'identical' if same else 'changed'} |")
        if (a.get("spill") or 0) > (b.get("spill") or 0) or (not same and (a.get("regs") or 0) > (b.get("regs") or 0)):
            worse.append(lines[-1])
open(out, "w").write("\n".join(lines) + "\n")
print(f"{len(lines) - 2} rows; changed PTX: {sum(1 for l in lines if l.endswith('changed |'))}")
print("more registers or spills after:")
print("\n".join(worse) or "(none)")
