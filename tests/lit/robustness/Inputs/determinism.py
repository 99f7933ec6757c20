"""Deterministic output (docs/robustness.md): every sample that compiles gives byte-identical
PTX, cubin, fatbin and header when compiled again, from another working folder, and with the
input named by another relative path: the outputs name the source file without its folder
(the header's banner and metadata, device asserts); only -lineinfo's .file directives, not
used here, hold the path as given.

    determinism.py TILEC SAMPLES_DIR OUT_DIR
"""
import os
import shutil
import subprocess
import sys

tilec, samples, out = sys.argv[1:4]
shutil.rmtree(out, ignore_errors=True)
KINDS = {"tir": "--emit=tir-lowered", "ptx": "--emit=ptx", "cubin": "--emit=cubin", "fatbin": "--emit=fatbin", "h": "--emit=header"}
ARGS = ["-arch", "sm_80"]  # one arch keeps cubin legal; the fatbin and header get the same


def compile_all(cwd, rel_input, tag, kinds):
    """Compiles `rel_input` (relative to `cwd`) to each kind; returns {kind: bytes} or None."""
    result = {}
    for kind in kinds:
        dest = os.path.join(out, "results", f"{tag}.{kind}")
        r = subprocess.run([tilec, rel_input, *ARGS, KINDS[kind], "-o", dest], cwd=cwd,
                           capture_output=True)
        if r.returncode != 0:
            return None, r
        with open(dest, "rb") as f:
            result[kind] = f.read()
    return result, None


# Two copies of the samples in two unrelated folders; the compiler runs in each.
for tree in ("one", "two/deeper"):
    shutil.copytree(samples, os.path.join(out, tree, "in"))
os.makedirs(os.path.join(out, "results"))
failures, compiled, skipped, with_asserts = [], [], [], []
for name in sorted(f[:-5] for f in os.listdir(samples) if f.endswith(".tile")):
    rel = os.path.join("in", name + ".tile")
    first, err = compile_all(os.path.join(out, "one"), rel, name + ".1", KINDS)
    if first is None:
        if err.returncode != 1 or b"error:" not in err.stderr:
            failures.append(f"{name}: exit {err.returncode}: {err.stderr.decode()[:300]}")
        skipped.append(name)
        continue
    compiled.append(name)
    # The same command again, then in another folder with the same relative path.
    again, _ = compile_all(os.path.join(out, "one"), rel, name + ".2", KINDS)
    moved, _ = compile_all(os.path.join(out, "two/deeper"), rel, name + ".3", KINDS)
    for kind in KINDS:
        if again is None or again[kind] != first[kind]:
            failures.append(f"{name}: .{kind} differs between two identical runs")
        if moved is None or moved[kind] != first[kind]:
            failures.append(f"{name}: .{kind} differs when compiled in another folder")
    # Another spelling of the same file (through another folder, with ..): identical bytes of
    # every kind, since the outputs name the file without its folder.
    other = os.path.join(".", "in", "..", "in", name + ".tile")
    third, _ = compile_all(os.path.join(out, "one"), other, name + ".4", KINDS)
    if third is None:
        failures.append(f"{name}: does not compile as {other}")
        continue
    for kind in KINDS:
        if third[kind] != first[kind]:
            failures.append(f"{name}: .{kind} differs when named {other}")
    if b"assertfail" in first["ptx"]:
        with_asserts.append(name)

print(f"compiled: {', '.join(compiled)}")
print(f"with device asserts (the file name in the PTX): {', '.join(with_asserts)}")
if not with_asserts:
    failures.append("no sample has a device assert: the test no longer covers their file name")
print(f"not compilable yet (exit 1 with an error): {', '.join(skipped)}")
if len(compiled) < 3:
    failures.append(f"only {len(compiled)} samples compile; the test needs at least 3")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
