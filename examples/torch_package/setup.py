"""The build of tile_ops_example: tilec --emit=torch for each kernel of kernels/, then the
generated C++ compiled into one library of ops (tile_ops_example/libtile_ops.so) beside the
generated Python modules (fake implementations for torch.compile).

tilec and torch are build requirements only (pyproject.toml): the wheel holds no compiler, its
modules never import tilec, and its library links against PyTorch's libraries (never copied into
the wheel) and no libcuda: the package's __init__ loads the driver, libcuda.so.1, by name (see
there). The wheel is tagged py3-none-manylinux_<glibc of the build machine>: the library is
loaded by torch.ops.load_library and uses no CPython API, so one wheel serves every Python.
"""
import glob
import os
import platform
import shutil

from setuptools import Extension, setup
try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1
    from wheel.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext

PKG = "tile_ops_example"
LIBRARY = "libtile_ops.so"
# generated module -> (.tile source, tilec flags)
KERNELS = {
    "silu_mul_ops": ("kernels/silu_mul.tile", ["--dispatch", "T=f16,bf16,f32"]),
    "rms_norm_ops": ("kernels/rms_norm.tile", ["--dispatch", "T=f16,bf16,f32"]),
}


class BuildTileOps(build_ext):
    """Runs tilec for every kernel, then compiles what it wrote with the build machine's C++
    compiler against the installed torch's headers and the cuda.h tilec finds."""

    def run(self):
        import tilec  # a build requirement: never imported by the package itself
        from torch.utils import cpp_extension

        ext = self.extensions[0]
        out_dir = os.path.dirname(self.get_ext_fullpath(ext.name))
        gen_dir = os.path.join(self.build_temp, "tilec")
        os.makedirs(gen_dir, exist_ok=True)
        os.makedirs(out_dir, exist_ok=True)
        for module, (source, flags) in KERNELS.items():
            cpp = os.path.join(gen_dir, module + ".cpp")
            tilec.compile(source, "--emit=torch", "-o", cpp, *flags)
            shutil.copy(os.path.join(gen_dir, module + ".py"), out_dir)
        cuda_include = tilec.cuda_include_dir()
        if cuda_include is None:
            raise RuntimeError("no cuda.h: pip install 'tilec[cuda]' (the nvidia-cuda-runtime wheel) or set CUDA_PATH")
        ext.sources = sorted(glob.glob(os.path.join(gen_dir, "*.cpp")))
        ext.include_dirs = cpp_extension.include_paths() + [cuda_include]
        ext.library_dirs = cpp_extension.library_paths()
        # torch_cpu: the stable C shim and the op registry; torch_cuda: the current CUDA stream.
        # No -lcuda: the cu* calls of the embedded headers resolve against the driver that
        # __init__ loads (RTLD_GLOBAL) before this library, so no stub is needed to link.
        ext.libraries = ["torch_cpu", "torch_cuda"]
        ext.extra_compile_args = ["-O2", "-std=c++17"]
        super().run()

    def get_ext_filename(self, fullname):
        # A plain library, not a Python extension module: no ABI suffix in its name.
        return os.path.join(*fullname.split(".")[:-1], LIBRARY)


class Wheel(bdist_wheel):
    def get_tag(self):
        # PEP 600: a manylinux_X_Y wheel built where glibc is X.Y runs where glibc is X.Y or newer.
        major, minor = os.confstr("CS_GNU_LIBC_VERSION").split()[1].split(".")[:2]
        return "py3", "none", f"manylinux_{major}_{minor}_{platform.machine()}"


setup(
    ext_modules=[Extension(f"{PKG}.libtile_ops", sources=[])],
    cmdclass={"build_ext": BuildTileOps, "bdist_wheel": Wheel},
)
