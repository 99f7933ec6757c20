#!/usr/bin/env python3
"""Differential-testing campaign over generated kernels (GitHub issue 37), CPU only.

    campaign.py --tilec BUILD/tilec --difftest BUILD/tools/difftest/tilec-difftest \
                --seeds FIRST END [--arch sm_90a --arch sm_80] [--emit ptx|fatbin] [--keep DIR]

For each seed: gen.py writes a file; tilec compiles it for every --arch together (--emit
fatbin runs ptxas too; ptx stops before it); tilec-difftest runs every kernel in the reference
interpreter at -O0 and optimized and compares. A seed fails on: a tilec crash or signal, an
"internal compiler error", any tilec error on a generated file (generated files are valid by
construction: either the generator or the compiler is wrong), a ptxas failure, an interpreter
error, an optimizer-on/off mismatch, a value the language leaves unspecified. Failing inputs
are kept (in --keep, default a temporary folder that is printed) with the tool's output beside
them. Exit status: 0 when every seed passes, 1 otherwise.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", f"timed out after {timeout} s: {' '.join(cmd)}"


def check_seed(seed, args, folder):
    """Returns None when the seed passes, else a one-line reason (the files stay in folder)."""
    src = os.path.join(folder, f"gen_{seed}.tile")
    with open(src, "w") as f:
        f.write(gen.generate(seed))
    out = os.path.join(folder, f"gen_{seed}.{args.emit}")
    cmd = [args.tilec, src, "--emit", args.emit, "-o", out, "-Wno-reduction-padding"]
    for a in args.arch:
        cmd += ["-arch", a]
    rc, text = run(cmd, args.timeout)
    if rc != 0:
        with open(src + ".tilec.txt", "w") as f:
            f.write(f"$ {' '.join(cmd)}\n{text}")
        if rc == "timeout" or (isinstance(rc, int) and (rc < 0 or rc > 1)):
            what = "tilec crashed or timed out"
        elif "internal compiler error" in text:
            what = "internal compiler error"
        elif "ptxas" in text:
            what = "ptxas failed"
        else:
            what = "tilec rejected a generated file"
        first = next((ln for ln in text.splitlines() if "error" in ln), text.strip()[:200])
        return f"{what} (rc {rc}): {first}"
    if os.path.exists(out):
        os.remove(out)
    rc, text = run([args.difftest, src, "--seed", str(seed)], args.timeout)
    if rc != 0:
        with open(src + ".difftest.txt", "w") as f:
            f.write(text)
        return f"tilec-difftest rc {rc}: {text.strip().splitlines()[0] if text.strip() else ''}"
    os.remove(src)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilec", required=True)
    ap.add_argument("--difftest", required=True)
    ap.add_argument("--seeds", type=int, nargs=2, metavar=("FIRST", "END"), default=[0, 40])
    ap.add_argument("--arch", action="append")
    ap.add_argument("--emit", choices=["ptx", "fatbin"], default="fatbin")
    ap.add_argument("--keep", help="folder for failing inputs (default: a new temporary folder)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per tool run")
    args = ap.parse_args()
    args.arch = args.arch or ["sm_90a", "sm_80"]
    folder = args.keep or tempfile.mkdtemp(prefix="tilec-difftest-")
    os.makedirs(folder, exist_ok=True)
    start = time.time()
    failures = []
    for seed in range(*args.seeds):
        reason = check_seed(seed, args, folder)
        if reason:
            failures.append(seed)
            print(f"seed {seed}: {reason}")
    n = args.seeds[1] - args.seeds[0]
    print(f"{n - len(failures)} of {n} seeds pass ({time.time() - start:.1f} s); "
          f"{'failing inputs in ' + folder if failures else 'no failure'}")
    if not failures and not args.keep:
        os.rmdir(folder)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
