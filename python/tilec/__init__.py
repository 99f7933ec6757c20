"""tilec, the ahead-of-time compiler for .tile GPU kernels, as pip installs it.

The wheel holds the `tilec` executable (tilec/bin/tilec), its man pages and the CMake function
(tilec/share/tilec/cmake/TilecKernel.cmake). This package finds them, and runs the compiler for
build scripts that list tilec as a build requirement (docs/pip.md):

    import tilec
    tilec.compile("kernels/softmax.tile", "-o", "build/softmax_ops.cpp", "--emit=torch")

Nothing here is needed at run time by what tilec generates: headers and PyTorch ops never import
this package.
"""
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["executable", "compile", "cmake_dir", "cuda_include_dir"]

_HERE = Path(__file__).resolve().parent


def executable() -> str:
    """The path of the tilec executable installed with this package."""
    return str(_HERE / "bin" / "tilec")


def compile(source, *flags, check=True, **run_args) -> subprocess.CompletedProcess:
    """Runs `tilec SOURCE FLAGS...` (flags as on the command line: "-o", "k.h", "-arch", "sm_90a").

    Returns the CompletedProcess; `run_args` go to subprocess.run (capture_output=True, cwd=...).
    With check=True (the default) a failing compile raises subprocess.CalledProcessError, whose
    stderr holds tilec's diagnostics when they were captured."""
    argv = [executable(), os.fspath(source)] + [os.fspath(f) for f in flags]
    return subprocess.run(argv, check=check, **run_args)


def cmake_dir() -> str:
    """The folder of TilecKernel.cmake, for CMAKE_MODULE_PATH (`include(TilecKernel)` then
    runs this package's tilec)."""
    return str(_HERE / "share" / "tilec" / "cmake")


def cuda_include_dir():
    """The folder holding cuda.h, which generated headers and PyTorch ops include: NVIDIA's
    nvidia-cuda-runtime wheel first (pip install 'tilec[cuda]'; PyTorch's CUDA wheels bring it
    too) in any folder of sys.path, then $CUDA_PATH, $CUDA_HOME and /usr/local/cuda (the order
    in which tilec looks for ptxas). None when there is no cuda.h in any of them."""
    places = [Path(p) / "nvidia" / "cu13" / "include" for p in sys.path if p]
    places += [Path(os.environ[v]) / "include" for v in ("CUDA_PATH", "CUDA_HOME") if os.environ.get(v)]
    places.append(Path("/usr/local/cuda/include"))
    for place in places:
        if (place / "cuda.h").is_file():
            return str(place)
    return None
