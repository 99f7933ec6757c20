"""Calls load_kernels of a generated module with every form of device it takes, against the
stand-in torch (stand_in/torch), and prints the device index each call passed to the op
tilec_load, or the error.
  PYTHONPATH=Inputs/stand_in python3 load_kernels.py <folder> <module>
"""
import importlib
import sys

import torch

sys.path.insert(0, sys.argv[1])
ops = importlib.import_module(sys.argv[2])
torch.cuda.current = 2  # the current device, which None and "cuda" mean
for device in (None, "cuda", "cuda:1", 3, torch.device("cuda", 1), torch.device("cuda"), "cuda:0", "cpu",
               torch.device("cpu"), "gpu"):
    calls = getattr(torch.ops, ops.NAMESPACE).calls
    calls.clear()
    try:
        ops.load_kernels(device)
        print(f"{device!r}: {calls}")
    except Exception as e:
        print(f"{device!r}: {type(e).__name__}: {e}")
