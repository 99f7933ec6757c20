"""Runs the fake implementation's checks of asserts_ops.py (from Inputs/asserts.tile) over a grid
of extents and prints one line per case: the extents, then "ok" or the error's message; the
C++ check (run_asserts.cpp) prints the same lines when the two agree.
  PYTHONPATH=Inputs/stand_in python3 fake_asserts.py <folder of asserts_ops.py>
"""
import importlib
import itertools
import sys

import torch

sys.path.insert(0, sys.argv[1])
ops = importlib.import_module("asserts_ops")

# The grid, in the order of the kernel's dimension symbols (m, n, h, d, hk); run_asserts.cpp has
# the same lists.
GRID = ([0, 1, 600000], [0, 7, 9, 256, 257, 65543, 65545], [0, 8, 12, 64], [1, 300], [0, 3, 4])
for m, n, h, d, hk in itertools.product(*GRID):
    tensors = (torch.empty([m, n]), torch.empty([h, d]), torch.empty([hk, d]), torch.empty([m, n]))
    try:
        ops._tilec_fake_k_out(*tensors)
        result = "ok"
    except RuntimeError as e:
        result = str(e)
    print(f"m={m} n={n} h={h} d={d} hk={hk}: {result}")
