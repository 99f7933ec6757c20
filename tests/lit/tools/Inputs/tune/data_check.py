"""Checks of tools/tune/tune_data.py (tune_data.test): the dtype encodings against values worked
out by hand from the formats (bf16: the top half of an f32; OCP 8-bit floats E4M3 and E5M2), and
the comparison's tolerance."""
import struct
import sys

sys.path.insert(0, sys.argv[1])
import tune_data  # noqa: E402

# bf16 rounds to nearest even: 1 + 2^-8 lies halfway between 0x3F80 and 0x3F81.
assert tune_data._bf16_bits(1.0) == 0x3F80
assert tune_data._bf16_bits(1 + 2 ** -8) == 0x3F80
assert tune_data._bf16_bits(1 + 3 * 2 ** -8) == 0x3F82
assert list(tune_data.decode("bf16", struct.pack("<2H", 0x3F80, 0xC040))) == [1.0, -3.0]

e4m3 = dict(tune_data._f8_all("f8e4m3"))
assert e4m3[0x38] == 1.0 and e4m3[0x7E] == 448.0 and e4m3[0x01] == 2.0 ** -9 and e4m3[0xB8] == -1.0
assert e4m3[0x7F] != e4m3[0x7F]  # the one NaN per sign; no infinities
e5m2 = dict(tune_data._f8_all("f8e5m2"))
assert e5m2[0x3C] == 1.0 and e5m2[0x7B] == 57344.0 and e5m2[0x7C] == float("inf") and e5m2[0x7D] != e5m2[0x7D]
for dtype, table in (("f8e4m3", e4m3), ("f8e5m2", e5m2)):
    values = [table[b] for b in tune_data.random_bytes(dtype, 1, 1000, 3)]
    assert all(0.125 <= abs(v) <= 2 for v in values), dtype

# Random inputs: the size asked for, the same for the same seed, small.
a = tune_data.random_bytes("f32", 4, 70000, 1)
assert len(a) == 280000 and a == tune_data.random_bytes("f32", 4, 70000, 1) != tune_data.random_bytes("f32", 4, 70000, 2)
assert max(abs(x) for x in tune_data.decode("f32", a)) <= 1
assert len(tune_data.random_bytes("i16", 2, 5, 0)) == 10 and len(tune_data.random_bytes("bool", 1, 0, 0)) == 0

# The tolerance is a fraction of the reference's largest magnitude.
ref = struct.pack("<4f", 100.0, 1.0, -2.0, 0.5)
assert tune_data.compare("f32", ref, ref, "configuration 0") is None
near = struct.pack("<4f", 100.0, 1.005, -2.0, 0.5)  # 0.005 <= 1e-4 * 100
assert tune_data.compare("f32", ref, near, "configuration 0") is None
far = struct.pack("<4f", 100.0, 1.0, -2.0, 0.52)
assert tune_data.compare("f32", ref, far, "configuration 1") == (
    "element 3 is 0.52, configuration 1 gives 0.5 (off by 0.0002 of the largest magnitude 100; tolerance 0.0001)")
nan = struct.pack("<4f", 100.0, 1.0, float("nan"), 0.5)
assert tune_data.compare("f32", ref, nan, "configuration 0") == "element 2 is nan, configuration 0 gives -2.0"
# Integers compare exactly.
assert tune_data.compare("i32", struct.pack("<2i", 1, 2), struct.pack("<2i", 1, 3), "configuration 0") == (
    "byte 4 differs from configuration 0's (dtype i32: no tolerance)")
print("tune_data ok")
