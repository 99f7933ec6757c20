"""tilec's example ops, built by setup.py: loads _C (every generated source compiled into one
library), then each generated module registers its fake implementations."""
import glob
import importlib
import os

_here = os.path.dirname(os.path.abspath(__file__))
_library = glob.glob(os.path.join(_here, "_C*.so"))[0]
for _name in ("layernorm_ops", "matmul_bias_relu_ops", "softmax_ops", "rmsnorm_grad_ops"):
    importlib.import_module(f"{__name__}.{_name}").load(library=_library)
