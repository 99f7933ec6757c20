# Median wall-clock ms of N interleaved runs of `tilec X --emit=ptx` for each compiler given.
#   ptx_times.py N SAMPLES_DIR TILEC...   (prints a Markdown table)
import glob, os, statistics, subprocess, sys, time
n, samples, tilecs = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
ONLY = {"matmul_f8": ["-arch", "sm_90a"]}
rows = []
for f in sorted(glob.glob(os.path.join(samples, "*.tile"))):
    name = os.path.basename(f)[:-5]
    times = [[] for _ in tilecs]
    for _ in range(n):
        for i, t in enumerate(tilecs):
            s = time.perf_counter()
            subprocess.run([t, f, *ONLY.get(name, []), "--emit=ptx", "-o", os.devnull], check=True)
            times[i].append((time.perf_counter() - s) * 1000)
    rows.append((name, [statistics.median(x) for x in times]))
print("| sample | " + " | ".join(os.path.basename(os.path.dirname(os.path.dirname(t))) or t for t in tilecs) + " |")
print("|---|" + "---:|" * len(tilecs))
for name, m in rows:
    print(f"| {name} | " + " | ".join(f"{x:.1f}" for x in m) + " |")
