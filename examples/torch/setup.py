"""The example's ops as an installable package, with tilec as a build step: build_ext runs
tilec --emit=torch for each kernel into tilec_example_ops/, then CUDAExtension compiles the
generated C++ into tilec_example_ops/_C.so beside the generated Python modules.

    pip install --no-build-isolation .        (or: python setup.py build_ext --inplace)

    import tilec_example_ops                  # loads _C.so, registers the fake implementations
    torch.ops.softmax.softmax(x)

TILEC names the compiler (default: tilec on PATH). The sources need no GPU to compile; where
there is none, set TORCH_CUDA_ARCH_LIST (for example 9.0), which CUDAExtension asks for.
"""
import os
import subprocess

from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CUDAExtension

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")
PKG = "tilec_example_ops"
# module name -> (.tile source, tilec flags)
KERNELS = {
    "layernorm_ops": ("samples/layernorm.tile", ["--dispatch", "T=f16,bf16"]),
    "matmul_bias_relu_ops": ("samples/matmul_bias_relu.tile", ["--dispatch", "T=f16,bf16"]),
    "softmax_ops": ("samples/softmax.tile", ["--dispatch", "T=f16,bf16,f32"]),
    "rmsnorm_grad_ops": ("examples/torch/rmsnorm_grad.tile", ["--dispatch", "T=f32,bf16,f64"]),
}


class TilecBuildExt(BuildExtension):
    """Runs tilec for every kernel, then compiles what it wrote."""

    def run(self):
        tilec = os.environ.get("TILEC", "tilec")
        for module, (source, flags) in KERNELS.items():
            out = os.path.join(HERE, PKG, module + ".cpp")
            subprocess.check_call([tilec, os.path.join(REPO, source), "--emit=torch", "-o", out] + flags)
        super().run()


setup(
    name=PKG,
    version="0.1.0",
    packages=[PKG],
    ext_modules=[
        CUDAExtension(
            f"{PKG}._C",
            [f"{PKG}/{m}.cpp" for m in KERNELS],
            extra_compile_args={"cxx": ["-O2"]},
            library_dirs=[os.path.join(CUDA_HOME or "/usr/local/cuda", "lib64", "stubs")],
            libraries=["cuda"],  # the header's launch functions call the driver API
            py_limited_api=False,
        )
    ],
    cmdclass={"build_ext": TilecBuildExt},
)
