"""silu(gate) * up and RMSNorm as PyTorch ops, compiled ahead of time by tilec (setup.py):

    import tile_ops_example
    torch.ops.silu_mul.silu_mul(gate, up)        # CUDA tensors, f16, bf16 or f32
    torch.ops.rms_norm.rms_norm(X, W)

Importing loads the library of ops and registers their fake implementations (torch.compile).
"""
import ctypes
import os

import torch  # noqa: F401  (its libraries, which the ops library links against, load first)

from . import rms_norm_ops, silu_mul_ops

# The CUDA driver, whose functions the kernels' launch code calls. The library links no libcuda
# stub (none is needed to build it): loading the driver by name into the global scope lets the
# dynamic loader resolve those calls when the library is loaded below.
try:
    ctypes.CDLL("libcuda.so.1", mode=ctypes.RTLD_GLOBAL)
except OSError as e:
    raise ImportError(f"tile_ops_example needs the NVIDIA driver (libcuda.so.1): {e}") from None

_library = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libtile_ops.so")
for _module in (silu_mul_ops, rms_norm_ops):
    _module.load(library=_library)
