"""A stand-in for the few parts of PyTorch that a module of `tilec --emit=torch` touches on import,
in load_kernels() and in its fake implementations' checks, so that lit can run them where PyTorch
is not installed (tests/lit/torch/*.test put this folder first on PYTHONPATH). It follows
PyTorch 2.10's behaviour for what those parts use, including the errors the old load_kernels hit:
torch.device("cuda:1", 0) and torch.device(1, 0) raise. Tensors are shapes with a dtype and a device.
"""
import types


class device:
    def __init__(self, type, index=None):
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): a torch.device takes no index")
            type, index = type.type, type.index
        elif isinstance(type, int):
            if index is not None:
                raise TypeError("device(): an index as the first argument takes no second one")
            type, index = "cuda", type
        elif ":" in type:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: {type}")
            type, text = type.split(":", 1)
            index = int(text)
        if type not in ("cuda", "cpu", "meta"):
            raise RuntimeError(f"Expected one of cpu, cuda, meta device type at start of device string: {type}")
        self.type, self.index = type, index

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    __repr__ = __str__


class dtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


for _name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"):
    globals()[_name] = dtype(_name)


class Tensor:
    def __init__(self, shape, dtype=None, device=None):
        self.shape = tuple(shape)
        self.dtype = dtype if dtype is not None else float32
        self.device = device if device is not None else globals()["device"]("cuda", 0)

    def dim(self):
        return len(self.shape)


def empty(shape, dtype=None, device=None):
    return Tensor(shape, dtype, device)


def _check(cond, message=None):
    if not cond:
        raise RuntimeError(message() if message else "Expected cond to be True")


def sym_min(a, b):
    return min(a, b)


def sym_max(a, b):
    return max(a, b)


def sym_not(a):
    return not a


class _Cuda:
    """torch.cuda: the current device, which tests set."""

    def __init__(self):
        self.current = 0

    def current_device(self):
        return self.current


cuda = _Cuda()


class _Namespace:
    """torch.ops.<ns>: records each call of an op as (name, args)."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args: self.calls.append((name, args))


class _Ops:
    def __init__(self):
        self.namespaces = {}

    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        return self.namespaces.setdefault(ns, _Namespace())


ops = _Ops()
library = types.SimpleNamespace(register_fake=lambda qualname, fake: None)
