"""Inputs past the resource limits of one CTA (docs/robustness.md "Limits").

    gen_limits.py MODE OUT.tile
"""
import sys

mode, out = sys.argv[1:3]
K = "@kernel(grid=(1,){opts})\ndef k({params}):\n{body}"


def kernel(params, body, opts=""):
    return K.format(opts=opts, params=", ".join(params), body="".join(f"    {line}\n" for line in body))


def arrays(n):
    """n 1-D arrays of one extent n: 8 bytes of address and 8 of stride each, plus 8 for n."""
    return kernel([f"a{i}: f32[n]" for i in range(n)],
                  ["x = load(a0, index=(0,), shape=(64,))", f"store(a{n - 1}, index=(0,), tile=x)"])


def permute(rows, cols, warps):
    """A transpose staged in shared memory: (rows*cols + rows) * 4 bytes."""
    return kernel(["a: f32[n, m]", "b: f32[m, n]"],
                  [f"x = load(a, index=(0, 0), shape=({rows}, {cols}))",
                   "store(b, index=(0, 0), tile=x.permute((1, 0)))"], f", num_warps={warps}")


def tile(n, dtype, warps):
    return kernel([f"a: {dtype}[n]", f"b: {dtype}[n]"],
                  [f"x = load(a, index=(0,), shape=({n},))", "store(b, index=(0,), tile=x + x)"],
                  f", num_warps={warps}" if warps else "")


source = {
    "params_255": lambda: arrays(255),   # 255 * 16 + 8 = 4088 bytes: fits
    "params_256": lambda: arrays(256),   # 4104 bytes: one array too many
    "params_2000": lambda: arrays(2000),
    "smem_128k": lambda: permute(128, 256, 8),    # 131584 bytes: sm_80 and sm_90, not sm_86/sm_89
    "smem_257k": lambda: permute(256, 256, 16),   # 263168 bytes: no arch
    "regs_f32_ok": lambda: tile(65536, "f32", 0),     # 16 warps: 128 registers per thread
    "regs_f32": lambda: tile(1 << 20, "f32", 0),      # 2048 per thread
    "regs_f64": lambda: tile(16384, "f64", 1),        # 512 elements, 1024 registers
    "regs_f16_ok": lambda: tile(8192, "f16", 1),      # 256 elements, two to a register: 128
    "regs_f16": lambda: tile(16384, "f16", 1),        # 512 elements: 256 registers
    "regs_huge": lambda: tile(1 << 24, "f32", 0),     # the largest tile the checker allows
}[mode]()
with open(out, "w") as f:
    f.write(source)
