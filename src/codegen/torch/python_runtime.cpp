// The fixed Python part of every --emit=torch companion module: the loader and the checks of
// the fake implementations, the same as the C++ Call's (cpp_runtime.cpp) with the same
// messages, written with torch._check so that they hold on symbolic shapes.
#include "codegen/torch/runtime.h"

namespace tilec::codegen::torch {

std::string_view python_runtime_section() {
  return R"PY(
_loaded = False


def load(library=None, **build_options):
    """Loads the operators, then registers their fake implementations (torch.compile).

    `library` names an already built library (the .so of SOURCE) to load with
    torch.ops.load_library. Without it, SOURCE is compiled with torch.utils.cpp_extension.load
    (cached in its build folder, rebuilt when the source changes); `build_options` go to that
    call (verbose=True, build_directory=...). Calling it again does nothing.
    """
    global _loaded
    if _loaded:
        return
    if library is not None:
        _torch.ops.load_library(library)
    elif not _tilec_ops_exist():
        from torch.utils import cpp_extension

        # A C++ source that needs cuda.h, libcuda and the CUDA part of the stable shim
        # (libtorch_cuda: the current stream), not the CUDA runtime or nvcc.
        ldflags = ["-ltorch_cuda", "-lcuda"]
        if cpp_extension.CUDA_HOME:  # link against the driver stub where no driver is installed
            ldflags.insert(0, "-L" + _os.path.join(cpp_extension.CUDA_HOME, "lib64", "stubs"))
        options = dict(name=MODULE, sources=[SOURCE], extra_include_paths=cpp_extension.include_paths("cuda"),
                       extra_cflags=["-O2"], extra_ldflags=ldflags, is_python_module=False)
        options.update(build_options)
        cpp_extension.load(**options)
    for qualname, fake in _FAKES:
        _torch.library.register_fake(qualname, fake)
    _loaded = True


def load_kernels(device=None):
    """Loads every kernel onto `device`: None or "cuda" (the current CUDA device), an index (1),
    "cuda:1" or torch.device("cuda", 1).

    Call it for each device before capturing a CUDA graph that launches these ops: a launch
    inside capture must not load code (docs/header.md, "Graph capture").
    """
    getattr(_torch.ops, NAMESPACE).tilec_load(_tilec_cuda_index(device))


def _tilec_cuda_index(device):
    """The index of a CUDA device given as load_kernels takes it; "cuda" without an index, like
    None, is the current device, as for tensors."""
    if device is None:
        return _torch.cuda.current_device()
    if isinstance(device, int) and not isinstance(device, bool):
        device = _torch.device("cuda", device)
    try:
        device = _torch.device(device)
    except (RuntimeError, TypeError) as e:
        raise ValueError(f"load_kernels: {device!r} is not a device ({e})") from None
    if device.type != "cuda":
        raise ValueError(f"load_kernels: the kernels run on CUDA devices, not on {device}")
    return _torch.cuda.current_device() if device.index is None else device.index


def _tilec_ops_exist():
    return hasattr(getattr(_torch.ops, NAMESPACE), "tilec_load")


def _tilec_floordiv(a, b):
    """a // b as the header's launch function computes it: a zero divisor gives -2**63 (a
    symbolic divisor gets a guard that it is not 0, as PyTorch's own sizes 0 and 1 do)."""
    return a // b if b != 0 else -(2**63)


def _tilec_mod(a, b):
    """a % b as the header's launch function computes it: a zero divisor gives a."""
    return a % b if b != 0 else a


def _tilec_wrap(x, bits, signed):
    """x cast to an integer of `bits` bits, wrapping as the device does (no branch: no guard)."""
    if signed:
        return (x + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)
    return x % 2**bits


class _TilecKernel:
    """A kernel's tables: dimension symbols, arrays (name, extents, written), builds."""

    def __init__(self, name, dims, arrays, builds):
        self.name = name
        self.qualname = NAMESPACE + "::" + name
        self.dims = dims
        self.arrays = arrays    # (name, extents: symbol or int, written)
        self.builds = builds    # (defines, torch dtypes, .tile dtypes, asserts: (condition(e), message))

    def fail(self, overload, what):
        raise RuntimeError(f"{self.qualname}{overload} (tilec kernel '{self.name}'): {what}")

    def shape_text(self, i):
        return "[" + ", ".join(str(e) for e in self.arrays[i][1]) + "]"

    def expected_dtype(self, b, i):
        defines, dtypes, tile_dtypes, _ = self.builds[b]
        text = f"{dtypes[i]} (the kernel's {tile_dtypes[i]}"
        if len(self.builds) > 1:
            text += f" in the build {defines}"
        return text + ")"

    def pick_build(self, overload, tensors):
        for b, (_, dtypes, _, _) in enumerate(self.builds):
            if all(t is None or t.dtype == d for t, d in zip(tensors, dtypes)):
                return b
        alive = list(range(len(self.builds)))
        for i, t in enumerate(tensors):
            if t is None:
                continue
            left = [b for b in alive if self.builds[b][1][i] == t.dtype]
            if left:
                alive = left
                continue
            want = " or ".join(self.expected_dtype(b, i) for b in alive)
            hint = ""
            if t.dtype in (_torch.float8_e4m3fnuz, _torch.float8_e5m2fnuz):
                hint = "; the fnuz float8 types (another exponent bias, one NaN) are not the kernel's f8e4m3/f8e5m2"
            self.fail(overload, f"argument '{self.arrays[i][0]}' must have dtype {want}, got {t.dtype}{hint}")
        self.fail(overload, "no build matches the dtypes")

    def check(self, overload, tensors, sizes=None):
        """The checks of the C++ Call; returns (build, extents, device)."""
        first = None
        for i, t in enumerate(tensors):
            if t is None:
                continue
            name = self.arrays[i][0]
            if t.device.type != "cuda":
                self.fail(overload, f"argument '{name}' must be a CUDA tensor, got one on {t.device}")
            if first is None:
                first = i
            elif t.device != tensors[first].device:
                self.fail(overload, f"argument '{name}' is on {t.device}, but argument '{self.arrays[first][0]}' is on "
                          f"{tensors[first].device}: every tensor must be on one CUDA device")
        for i, t in enumerate(tensors):
            if t is not None and t.dim() != len(self.arrays[i][1]):
                self.fail(overload, f"argument '{self.arrays[i][0]}' must have {len(self.arrays[i][1])} dimensions "
                          f"{self.shape_text(i)}, got {t.dim()}")
        build = self.pick_build(overload, tensors)
        extents, origin = {}, {}
        for s, value in (sizes or {}).items():
            _torch._check(value >= 0, lambda: f"{self.qualname}{overload} (tilec kernel '{self.name}'): argument "
                          f"'{s}' is an extent and must not be negative, got {value}")
            extents[s], origin[s] = value, f"argument '{s}'"
        for i, t in enumerate(tensors):
            if t is None:
                continue
            for d, e in enumerate(self.arrays[i][1]):
                who = f"extent {d} of argument '{self.arrays[i][0]}' {self.shape_text(i)}"
                got = t.shape[d]
                if isinstance(e, int):
                    _torch._check(got == e, lambda: f"{self.qualname}{overload} (tilec kernel '{self.name}'): {who} "
                                  f"must be {e} (a constant of the kernel's signature), got {got}")
                elif e in extents:
                    _torch._check(got == extents[e], lambda: f"{self.qualname}{overload} (tilec kernel '{self.name}'): "
                                  f"{who} is {got}, but {origin[e]} is {extents[e]}: both are the dimension symbol {e}")
                else:
                    extents[e], origin[e] = got, who
        # The kernel's asserts on extents, which the header's launch function checks: under
        # torch.compile they fail while tracing, with the C++ op's message.
        for condition, message in self.builds[build][3]:
            _torch._check(condition(extents), lambda: f"{self.qualname}{overload} (tilec kernel '{self.name}'): the "
                          f"kernel's assert on extents failed: {message}")
        device = tensors[first].device if first is not None else _torch.device("cuda")
        return build, extents, device

    def functional(self, tensors, sizes=None):
        """Checks the inputs and allocates the outputs (the None entries), contiguous."""
        build, extents, device = self.check("", tensors, sizes)
        outputs = []
        for i, t in enumerate(tensors):
            if t is None:
                shape = [e if isinstance(e, int) else extents[e] for e in self.arrays[i][1]]
                outputs.append(_torch.empty(shape, dtype=self.builds[build][1][i], device=device))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)
)PY";
}

}  // namespace tilec::codegen::torch
