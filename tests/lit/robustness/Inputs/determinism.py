"""Deterministic output (docs/robustness.md): every sample that compiles gives byte-identical
PTX, cubin, fatbin and header when compiled again, from another working folder, and with the
input named by another relative path, where the path may appear only where the docs say: the
header's banner and metadata and the file name of device asserts (and -lineinfo's .file, not
used here).

    determinism.py TILEC SAMPLES_DIR OUT_DIR
"""
import os
import re
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


def ptx_bytes(path):
    """The path as ptx/debug.cpp spells a string constant: `[N] = {b0, b1, ..., 0}`."""
    data = path.encode()
    return f"[{len(data) + 1}] = {{{''.join(f'{b}, ' for b in data)}0}}".encode()


def without_path(kind, data, path):
    """`data` with the path masked; for a header also the embedded image (which holds the PTX,
    so its bytes and size change with the path), its size and the configuration hash (of the
    header's text, so it changes with the image)."""
    data = data.replace(path.encode(), b"<PATH>")
    if kind == "ptx":
        data = data.replace(ptx_bytes(path), b"<PATH>")
    if kind == "h":
        data = re.sub(rb"/\* The fatbin \(\d+ bytes\).*?\n};\n", b"<IMAGE>", data, flags=re.S)
        # The configuration hash (of the whole header, image included) in names and the guard.
        data = re.sub(rb"_tilec_[0-9a-f]{12}", b"_tilec_<CONFIG>", data)
        data = re.sub(rb"_TILEC_CONFIG( != |\s)0x[0-9a-f]{12}", rb"_TILEC_CONFIG\1<CONFIG>", data)
        data = re.sub(rb"_tilec_<CONFIG>_image, \d+}", b"_tilec_<CONFIG>_image, <SIZE>}", data)
    return data


# Two copies of the samples in two unrelated folders; the compiler runs in each.
for tree in ("one", "two/deeper"):
    shutil.copytree(samples, os.path.join(out, tree, "in"))
os.makedirs(os.path.join(out, "results"))
failures, compiled, skipped, path_in_ptx = [], [], [], []
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
    # Another spelling of the same file: identical once the path is masked; and where the PTX
    # does not mention the path at all, the binaries are identical too.
    other = os.path.join(".", "in", "..", "in", name + ".tile")
    third, _ = compile_all(os.path.join(out, "one"), other, name + ".4", KINDS)
    if third is None:
        failures.append(f"{name}: does not compile as {other}")
        continue
    for kind in ("ptx", "h"):
        if without_path(kind, third[kind], other) != without_path(kind, first[kind], rel):
            failures.append(f"{name}: .{kind} differs beyond the source path when named {other}")
    if third["ptx"] == first["ptx"]:
        for kind in ("cubin", "fatbin"):
            if third[kind] != first[kind]:
                failures.append(f"{name}: .{kind} differs when named {other} although the PTX does not")
    else:
        path_in_ptx.append(name)

print(f"compiled: {', '.join(compiled)}")
print(f"the source path is in the PTX (device asserts): {', '.join(path_in_ptx)}")
print(f"not compilable yet (exit 1 with an error): {', '.join(skipped)}")
if len(compiled) < 3:
    failures.append(f"only {len(compiled)} samples compile; the test needs at least 3")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
