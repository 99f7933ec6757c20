"""Builds the header that ships (tilec with the user's flags), compiles it into a shared library
and reads a kernel's metadata through ctypes. The structures follow tilec_kernel_metadata of the
generated header (docs/header.md; ABI 6 adds the configurations at its end)."""

import ctypes
import os
import re
import subprocess
from ctypes import POINTER, Structure, c_char_p, c_int, c_size_t, c_uint32, c_void_p


class ToolError(Exception):
    """A failure tilec-tune reports and stops on (str() is the message)."""


class ParamInfo(Structure):
    _fields_ = [("name", c_char_p), ("dtype", c_char_p), ("kind", c_int), ("elem_bytes", c_int),
                ("rank", c_int), ("dims", POINTER(c_char_p)), ("may_write", c_int)]


class ConstantInfo(Structure):
    _fields_ = [("name", c_char_p), ("value", c_char_p)]


class TensorMapInfo(Structure):
    _fields_ = [("param", c_int), ("rank", c_int), ("box", c_uint32 * 5)]


class PathInfo(Structure):
    _fields_ = [("name", c_char_p), ("arch", c_char_p), ("num_warps", c_int), ("num_stages", c_int),
                ("threads_per_cta", c_int), ("dynamic_shared_bytes", c_int), ("cluster_dims", c_int * 3),
                ("num_variants", c_int), ("variant_entries", POINTER(c_char_p)), ("num_tensor_maps", c_int),
                ("tensor_maps", POINTER(TensorMapInfo)), ("persistent", c_int), ("num_divisors", c_int),
                ("divisors", POINTER(c_char_p)), ("divisor_dtypes", POINTER(c_char_p))]


class ConfigInfo(Structure):
    _fields_ = [("label", c_char_p), ("grid", c_char_p * 3), ("num_paths", c_int), ("paths", POINTER(PathInfo))]


class MetadataV5(Structure):
    """tilec_kernel_metadata up to ABI 5."""
    _fields_ = [("abi_version", c_int), ("name", c_char_p), ("source", c_char_p), ("tilec_version", c_char_p),
                ("cuda_version", c_char_p), ("num_params", c_int), ("params", POINTER(ParamInfo)),
                ("num_dim_symbols", c_int), ("dim_symbols", POINTER(c_char_p)), ("num_constants", c_int),
                ("constants", POINTER(ConstantInfo)), ("grid", c_char_p * 3), ("num_paths", c_int),
                ("paths", POINTER(PathInfo)), ("num_archs", c_int), ("archs", POINTER(c_char_p)),
                ("ptx_arch", c_char_p), ("image", c_void_p), ("image_bytes", c_size_t)]


class MetadataV6(MetadataV5):
    """ABI 6 appends the configurations (docs/tuning.md)."""
    _fields_ = [("num_configs", c_int), ("configs", POINTER(ConfigInfo)), ("config_space", c_char_p),
                ("num_tuning_sections", c_int)]


TILEC_PARAM_ARRAY = 0


class Param:
    """A kernel parameter as the tool uses it: an array (dtype, element bytes, dims: a symbol
    name or an int each, written or not) or a scalar (dtype)."""

    def __init__(self, info):
        self.name = info.name.decode()
        self.dtype = info.dtype.decode()
        self.is_array = info.kind == TILEC_PARAM_ARRAY
        self.elem_bytes = info.elem_bytes
        dims = [info.dims[i].decode() for i in range(info.rank)] if self.is_array else []
        self.dims = [int(d) if re.fullmatch(r"[0-9]+", d) else d for d in dims]
        self.may_write = bool(info.may_write)

    def extents(self, values):
        return [d if isinstance(d, int) else values[d] for d in self.dims]

    def nbytes(self, values):
        n = self.elem_bytes
        for e in self.extents(values):
            n *= e
        return n


class Kernel:
    """What the tool reads of one kernel's metadata, plus the library that defines it."""

    def __init__(self, lib, sym, md):
        self.lib = lib
        self.sym = sym  # the public symbol: --prefix + the kernel's name
        self.name = md.name.decode()
        self.source = md.source.decode()
        self.abi_version = md.abi_version
        self.params = [Param(md.params[i]) for i in range(md.num_params)]
        self.symbols = [md.dim_symbols[i].decode() for i in range(md.num_dim_symbols)]
        self.arrays = [p for p in self.params if p.is_array]
        self.scalars = {p.name: p.dtype for p in self.params if not p.is_array}
        if md.abi_version >= 6:
            md6 = MetadataV6.in_dll(lib, sym + "_metadata")
            # A dropped configuration (failed to build, left out by -D) has no label: not a candidate.
            self.configs = [(i, md6.configs[i].label.decode()) for i in range(md6.num_configs)
                            if md6.configs[i].label is not None]
            self.num_configs = md6.num_configs
            # NULL for a kernel without configs=: one configuration, nothing for a table to choose.
            self.space = md6.config_space.decode() if md6.config_space is not None else None
            self.num_tuning_sections = md6.num_tuning_sections
        else:
            self.configs, self.num_configs, self.space, self.num_tuning_sections = [], 0, None, 0


def find_tilec(explicit, command):
    """--tilec, else the tilec beside `command` (bin/tilec-tune of an installation), else the
    one on PATH."""
    if explicit:
        return explicit
    beside = os.path.join(os.path.dirname(os.path.abspath(command)), "tilec")
    return beside if os.access(beside, os.X_OK) else "tilec"


def cuda_home():
    return os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"


def build_header(tilec, source, flags, header):
    """Runs tilec on `source` with the user's `flags` (no --tuning: the table is what this run
    makes) into `header`; tilec's diagnostics pass through."""
    cmd = [tilec, source, "-o", header] + flags
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise ToolError(f"cannot run tilec ('{tilec}'): {e.strerror}; give its path with --tilec") from e
    if r.returncode != 0:
        raise ToolError(r.stderr.rstrip() + f"\ntilec-tune: tilec failed (exit status {r.returncode}): {' '.join(cmd)}")
    return cmd


def compile_library(header, library, cc):
    """Compiles `header` into the shared library `library` (cc -O2 -shared -fPIC). libcuda is
    not linked: its symbols resolve against the driver load_driver put in the global scope."""
    unit = os.path.splitext(library)[0] + ".c"
    with open(unit, "w") as f:
        f.write(f'#include "{os.path.abspath(header)}"\n')
    cmd = [cc, "-O2", "-shared", "-fPIC", "-x", "c", unit, "-o", library, "-I" + os.path.join(cuda_home(), "include"),
           "-lpthread"]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise ToolError(r.stderr.rstrip() + f"\ntilec-tune: the C compiler failed: {' '.join(cmd)}")


def load_driver():
    """libcuda, loaded into the global scope so that the header's library resolves against it,
    and None; without a driver, the toolkit's stub (enough to read metadata, never to call) and
    why the driver did not load."""
    try:
        return ctypes.CDLL("libcuda.so.1", mode=ctypes.RTLD_GLOBAL), None
    except OSError as e:
        stub = os.path.join(cuda_home(), "lib64", "stubs", "libcuda.so")
        if not os.path.exists(stub):
            raise ToolError(f"cannot load the CUDA driver (libcuda.so.1), nor the stub {stub}: {e}") from e
        return ctypes.CDLL(stub, mode=ctypes.RTLD_GLOBAL), str(e)


def kernel_symbols(header):
    """The public symbols of the header's kernels, in header order."""
    with open(header) as f:
        text = f.read()
    return re.findall(r"^extern const tilec_kernel_metadata (\w+)_metadata\b", text, re.M)


def load_kernel(library, header, name):
    """The kernel `name` (its name in the source; None: the header's only kernel) of `library`."""
    try:
        lib = ctypes.CDLL(os.path.abspath(library))
    except OSError as e:
        raise ToolError(f"cannot load the compiled header: {e}") from e
    kernels = [Kernel(lib, sym, MetadataV5.in_dll(lib, sym + "_metadata")) for sym in kernel_symbols(header)]
    if name is None and len(kernels) == 1:
        return kernels[0]
    names = " ".join(k.name for k in kernels)
    if name is None:
        raise ToolError(f"the file has {len(kernels)} kernels ({names}): choose one with --kernel")
    for k in kernels:
        if k.name == name:
            return k
    raise ToolError(f"the file has no kernel '{name}' (its kernels: {names})")
