#!/usr/bin/env python3
"""Checks what a wheel of examples/torch_package holds: the library of ops and the generated
modules; no tilec (executable, package or module importing it); no copy of a PyTorch or CUDA
library; a library that needs no libcuda (DT_NEEDED) and names PyTorch's libraries it links
against; a py3-none-manylinux tag. Prints each finding; exits 1 when one fails.

    python3 inspect_user_wheel.py tile_ops_example-0.1.0-py3-none-manylinux_2_36_x86_64.whl
"""
import re
import subprocess
import sys
import tempfile
import zipfile

path = sys.argv[1]
failures = []


def expect(ok, what):
    print(f"{'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures.append(what)


tag = re.search(r"-(py3-none-[^.]+)\.whl$", path)
expect(tag and re.fullmatch(r"py3-none-manylinux_\d+_\d+_x86_64", tag.group(1)), f"tag {tag and tag.group(1)}")
with zipfile.ZipFile(path) as whl:
    names = whl.namelist()
    for n in names:
        print("     ", n)
    libs = [n for n in names if n.endswith(".so") or ".so." in n]
    expect(libs == ["tile_ops_example/libtile_ops.so"], "one library, the ops': " + ", ".join(libs))
    for module in ("silu_mul_ops", "rms_norm_ops"):
        expect(f"tile_ops_example/{module}.py" in names, f"the generated module {module}.py")
    expect(not any("tilec/" in n or n.endswith("/tilec") for n in names), "no tilec in the wheel")
    sources = [whl.read(n).decode() for n in names if n.endswith(".py")]
    expect(not any(re.search(r"^\s*(import|from)\s+tilec\b", s, re.M) for s in sources), "no module imports tilec")
    with tempfile.TemporaryDirectory() as tmp:
        lib = whl.extract("tile_ops_example/libtile_ops.so", tmp)
        dynamic = subprocess.run(["readelf", "-d", lib], capture_output=True, text=True).stdout
needed = re.findall(r"\(NEEDED\).*\[(.*)\]", dynamic)
print("      DT_NEEDED:", " ".join(needed))
expect(not any(n.startswith("libcuda.") for n in needed), "no libcuda among the library's DT_NEEDED")
expect({"libtorch_cpu.so", "libtorch_cuda.so"} <= set(needed), "links PyTorch's libtorch_cpu and libtorch_cuda (not copied)")
sys.exit(1 if failures else 0)
