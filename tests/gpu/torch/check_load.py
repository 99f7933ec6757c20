#!/usr/bin/env python3
"""The documented build paths of docs/torch.md on a GPU machine, from the generated sources:
the torch.utils.cpp_extension.load one-liner (vector_add_ops.cpp), and the companion module's
load() that builds on first use (gelu_bias_ops). Each then runs its op.

    python3 check_load.py EXT_DIR
"""
import os
import shutil
import sys
import tempfile
import time

import torch
import torch.nn.functional as F
import torch.utils.cpp_extension

ext = sys.argv[1]
work = tempfile.mkdtemp()
for name in ("vector_add_ops", "gelu_bias_ops"):
    for suffix in (".cpp", ".py"):
        shutil.copy(os.path.join(ext, name + suffix), work)
sys.path.insert(0, work)
os.chdir(work)
results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(f"{'PASS' if ok else 'FAIL'} load: {name} {detail}", flush=True)


t0 = time.time()
from torch.utils.cpp_extension import include_paths, load  # noqa: E402

load("vector_add_ops", ["vector_add_ops.cpp"], extra_include_paths=include_paths("cuda"),
     extra_ldflags=["-ltorch_cuda", "-lcuda"], is_python_module=False)
import vector_add_ops  # noqa: E402

vector_add_ops.load()  # the library is loaded: only registers the fake implementations
a, b = torch.randn(1000, device="cuda"), torch.randn(1000, device="cuda")
check("cpp_extension.load one-liner", torch.equal(torch.ops.vector_add.vector_add(a, b), a + b),
      f"(build {time.time() - t0:.1f} s)")

t0 = time.time()
import gelu_bias_ops  # noqa: E402

gelu_bias_ops.load(build_directory=work)
x, w, bb = (torch.randn(5000, device="cuda") for _ in range(3))
y = torch.ops.gelu_bias.gelu_bias(x, w, bb)
check("companion load() builds on first use", torch.allclose(y, F.gelu(x * w + bb, approximate="tanh"), atol=1e-6),
      f"(build {time.time() - t0:.1f} s)")
f = torch.compile(lambda x, w, b: torch.ops.gelu_bias.gelu_bias(x, w, b) * 2, fullgraph=True)
check("torch.compile on the freshly built op", torch.allclose(f(x, w, bb), 2 * y))
print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
sys.exit(0 if all(results) else 1)
