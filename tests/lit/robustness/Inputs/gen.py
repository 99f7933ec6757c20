"""Writes malformed .tile inputs for the robustness tests: gen.py KIND PATH."""
import random
import sys

kind, path = sys.argv[1], sys.argv[2]
N = 100_000
rng = random.Random(1234)
text = {
    "empty": b"",
    "comments": b"# only a comment\n\n   # another, indented\n#",
    "junk": bytes(rng.randrange(256) for _ in range(200_000)),
    "nul": b"X = 1\x00\x00\n@kernel(grid=(1,))\ndef k(a: f32[n]):\n    x = \x00 1\n",
    "parens": b"x = " + b"(" * N + b"1" + b")" * N + b"\n",
    "brackets": b"x = " + b"[" * N + b"\n",
    "unary": b"x = " + b"-" * N + b"1\n",
    "nots": b"x = " + b"not " * N + b"True\n",
    "power": b"x = 2" + b" ** 2" * N + b"\n",
    "calls": b"x = f" + b"(1)" * (N // 4) + b"\n",
    "ifelse": b"x = " + b"1 if c else " * (N // 8) + b"0\n",
    "indent": b"".join(b" " * i + b"if x:\n" for i in range(300)) + b" " * 300 + b"pass\n",
    "giant": b"X = 1" + b" + 1" * 1_000_000 + b"\n",
    "wide": b"X = (" + b"1, " * 1_000_000 + b")\n",
    "longline": b"X = \"" + b"a" * 10_000_000 + b"\"\nY = 1 +\n",
    "longident": b"@kernel(grid=(1,))\ndef k(a: f32[n]):\n    y = " + b"v" * 1_000_000 + b" + 1\n",
    "bigint": b"X = " + b"9" * N + b"\n",
    "bigfloat": b"X = 1." + b"9" * N + b"e99999999999999999999\nY = 1e-99999\n",
    "hexint": b"X = 0x" + b"f" * 1000 + b"\n",
    "many_errors": b"x = $\n" * 50_000,
    "many_defs": b"".join(b"def f%d(x):\n    return f%d(x)\n" % (i, i + 1) for i in range(200))
                 + b"def f200(x):\n    return x\n@kernel(grid=(1,))\ndef k(a: f32[n]):\n    y = f0(1)\n",
    "doubling": b"".join(b"def h%d(x):\n    return h%d(x) + h%d(x)\n" % (i, i + 1, i + 1) for i in range(40))
                + b"def h40(x):\n    return x\n@kernel(grid=(1,))\ndef k(a: f32[n]):\n    y = h0(1)\n",
    "unterminated": b"@kernel(grid=(1,))\ndef k(a: f32[n]):\n    print(\"abc",
    "backslash": b"X = 1 + \\",
    "dedent_only": b"    x = 1\n  y = 2\nz = 3\n        w\n",
}[kind]
with open(path, "wb") as f:
    f.write(text)
