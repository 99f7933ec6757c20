"""Array contents for tilec-tune: small random inputs of each dtype, and the comparison of a
configuration's outputs with configuration 0's (tolerances per dtype, docs/tuning.md)."""

import array
import math
import random
import struct

try:  # optional: faster random inputs and comparisons of large arrays
    import numpy
except ImportError:
    numpy = None

# How far a configuration's output may be from configuration 0's, as a fraction of the largest
# magnitude of configuration 0's output: configurations sum in other orders and may round
# (split-K partials) differently; a wrong tile is off by far more. Integers and bool: exact.
TOLERANCE = {"f64": 1e-9, "f32": 1e-4, "tf32": 1e-4, "f16": 4e-3, "bf16": 3e-2, "f8e4m3": 0.25, "f8e5m2": 0.5}

# Random data repeats after this many elements when numpy is absent (a prime, so a tile that
# reads the wrong place does not find the same values there); generating every element in
# Python would take seconds per array.
_PERIOD = 65521


def _f8_values(bias, mantissa_bits, finite):
    """The byte patterns of an 8-bit float with magnitude in [1/8, 2], and their values."""
    out = []
    for b in range(256):
        exp, man = (b >> mantissa_bits) & ((1 << (7 - mantissa_bits)) - 1), b & ((1 << mantissa_bits) - 1)
        if exp == 0 or not finite(exp, man):
            continue
        v = (1 + man / (1 << mantissa_bits)) * 2.0 ** (exp - bias) * (-1 if b & 0x80 else 1)
        if 0.125 <= abs(v) <= 2:
            out.append((b, v))
    return out


_F8 = {"f8e4m3": _f8_values(7, 3, lambda e, m: not (e == 15 and m == 7)),
       "f8e5m2": _f8_values(15, 2, lambda e, m: e != 31)}


def _bf16_bits(x):
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even


def _encode(dtype, rng, count):
    """`count` random elements of `dtype` as bytes."""
    if dtype in ("f32", "tf32"):
        return struct.pack(f"<{count}f", *(rng.uniform(-1, 1) for _ in range(count)))
    if dtype == "f64":
        return struct.pack(f"<{count}d", *(rng.uniform(-1, 1) for _ in range(count)))
    if dtype == "f16":
        return struct.pack(f"<{count}e", *(rng.uniform(-1, 1) for _ in range(count)))
    if dtype == "bf16":
        return struct.pack(f"<{count}H", *(_bf16_bits(rng.uniform(-1, 1)) for _ in range(count)))
    if dtype in _F8:
        return bytes(rng.choice(_F8[dtype])[0] for _ in range(count))
    if dtype == "bool":
        return bytes(rng.randrange(2) for _ in range(count))
    bits = int(dtype[1:])
    lo, hi = (-8, 8) if dtype[0] == "i" else (0, 15)
    return struct.pack(f"<{count}{_INT_CODES[(dtype[0], bits)]}", *(rng.randint(lo, hi) for _ in range(count)))


_INT_CODES = {("i", 8): "b", ("i", 16): "h", ("i", 32): "i", ("i", 64): "q",
              ("u", 8): "B", ("u", 16): "H", ("u", 32): "I", ("u", 64): "Q"}


def random_bytes(dtype, elem_bytes, count, seed):
    """`count` small random elements of `dtype`, the same for the same seed."""
    if numpy is not None and dtype in ("f32", "tf32", "f64", "f16"):
        g = numpy.random.default_rng(seed)
        np_type = {"f32": numpy.float32, "tf32": numpy.float32, "f64": numpy.float64, "f16": numpy.float16}[dtype]
        return g.uniform(-1, 1, count).astype(np_type).tobytes()
    rng = random.Random(seed)
    block = _encode(dtype, rng, min(count, _PERIOD))
    reps = -(-count // _PERIOD) if count else 0
    return (block * reps)[: count * elem_bytes]


def decode(dtype, data):
    """The elements of `data` as Python floats (integers for integer dtypes)."""
    if dtype in ("f32", "tf32"):
        return array.array("f", data)
    if dtype == "f64":
        return array.array("d", data)
    if dtype == "f16":
        return struct.unpack(f"<{len(data) // 2}e", data)
    if dtype == "bf16":
        halves = array.array("H", data)
        return array.array("f", struct.pack(f"<{len(halves)}I", *(h << 16 for h in halves)))
    if dtype in _F8:
        table = {b: v for b, v in _f8_all(dtype)}
        return [table[b] for b in data]
    if dtype == "bool":
        return list(data)
    bits = int(dtype[1:])
    return array.array(_INT_CODES[(dtype[0], bits)], data)


def _f8_all(dtype):
    bias, mbits = (7, 3) if dtype == "f8e4m3" else (15, 2)
    for b in range(256):
        exp, man = (b >> mbits) & ((1 << (7 - mbits)) - 1), b & ((1 << mbits) - 1)
        sign = -1 if b & 0x80 else 1
        nan = (exp == 15 and man == 7) if dtype == "f8e4m3" else (exp == 31 and man != 0)
        if nan:
            yield b, math.nan
        elif dtype == "f8e5m2" and exp == 31:
            yield b, sign * math.inf
        elif exp == 0:
            yield b, sign * man / (1 << mbits) * 2.0 ** (1 - bias)
        else:
            yield b, sign * (1 + man / (1 << mbits)) * 2.0 ** (exp - bias)


def compare(dtype, reference, candidate, reference_name):
    """None when `candidate` (bytes of an output) agrees with `reference` (the output of
    `reference_name`) within the dtype's tolerance, else a sentence saying where and by how
    much it does not."""
    if reference == candidate:
        return None
    tol = TOLERANCE.get(dtype)
    if tol is None:
        first = next(i for i, (a, b) in enumerate(zip(reference, candidate)) if a != b)
        return f"byte {first} differs from {reference_name}'s (dtype {dtype}: no tolerance)"
    if numpy is not None and dtype in _NUMPY_TYPES:
        return _compare_numpy(dtype, reference, candidate, tol, reference_name)
    ref, got = decode(dtype, reference), decode(dtype, candidate)
    for i, (a, b) in enumerate(zip(ref, got)):
        if math.isnan(a) != math.isnan(b) or (math.isinf(a) or math.isinf(b)) and a != b:
            return f"element {i} is {b}, {reference_name} gives {a}"
    scale = max((abs(x) for x in ref if math.isfinite(x)), default=0.0) or 1.0
    for i, (a, b) in enumerate(zip(ref, got)):
        if math.isfinite(a) and abs(a - b) > tol * scale:
            return _off(i, b, a, scale, tol, reference_name)
    return None


def _off(i, got, ref, scale, tol, reference_name):
    return (f"element {i} is {got:.6g}, {reference_name} gives {ref:.6g} (off by {abs(got - ref) / scale:.3g} "
            f"of the largest magnitude {scale:.3g}; tolerance {tol:g})")


_NUMPY_TYPES = {"f32": "<f4", "tf32": "<f4", "f64": "<f8", "f16": "<f2", "bf16": None}


def _numpy_floats(dtype, data):
    if dtype == "bf16":
        return (numpy.frombuffer(data, "<u2").astype(numpy.uint32) << 16).view(numpy.float32).astype(numpy.float64)
    return numpy.frombuffer(data, _NUMPY_TYPES[dtype]).astype(numpy.float64)


def _compare_numpy(dtype, reference, candidate, tol, reference_name):
    """compare() for float dtypes, vectorized: the same verdicts and messages."""
    ref, got = _numpy_floats(dtype, reference), _numpy_floats(dtype, candidate)
    bad = (numpy.isnan(ref) != numpy.isnan(got)) | ((numpy.isinf(ref) | numpy.isinf(got)) & (ref != got))
    if bad.any():
        i = int(numpy.argmax(bad))
        return f"element {i} is {got[i]}, {reference_name} gives {ref[i]}"
    finite = numpy.isfinite(ref)
    scale = float(numpy.abs(ref[finite]).max()) if finite.any() else 0.0
    scale = scale or 1.0
    off = finite & (numpy.abs(ref - got) > tol * scale)
    if off.any():
        i = int(numpy.argmax(off))
        return _off(i, float(got[i]), float(ref[i]), scale, tol, reference_name)
    return None
