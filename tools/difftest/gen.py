#!/usr/bin/env python3
"""Random valid .tile kernels, deterministic by seed (GitHub issue 37).

    gen.py --seed N [-o FILE]        one file of 1 to 3 kernels (stdout without -o)
    gen.py --seeds A B --dir DIR     files DIR/gen_A.tile ... DIR/gen_{B-1}.tile
    gen.py --histogram A B           how many kernels of seeds A..B-1 hold each construct

Each file starts with a `# difftest:` line giving the extents of its dimension symbols and
the values of its integer scalars, which tilec-difftest reads. The kernels are weighted
toward what lowers in different ways: loads at tile indices and at element offsets (negative,
past the end, unaligned), padding values, transposed loads (order=), elementwise arithmetic
and casts across every dtype but the restricted ones, math functions, broadcasts, reductions
and scans on each axis (keepdims too), where, mma loops (ragged K, operands at offsets, f32,
f16, i32 and f64 accumulators, tf32 operands, bias epilogues), batched mma on 3-D tiles, 3-D
tiles, shape operations and bitcast (gen_shape.py), gather/scatter/atomics/histogram, early
returns, nested loops with break and continue, `while` loops carrying tiles, persistent
num_sms() grids. Each kernel is tagged with the constructs it holds (generate_tagged; the
GPU campaign's summary counts launches per tag); the weights give every tag at least about
one kernel in 15 seeds (docs/robustness.md, "Differential testing").

Rules that keep every kernel deterministic and its results comparable bit for bit:
- a CTA stores only the tiles at its own tile index (bid), so no two CTAs write one element,
  except through integer atomics (commutative) whose old values are never read;
- scatters write distinct positions of the CTA's own tile; kernels read only inputs;
- no integer // or % by a value that can be 0 (divisors are `(e & 3) + 1`), no 0 ** -n;
- float products of many values are avoided (cumprod over floats only of powers of two; f16
  accumulators only of integer operands), so sums of the small dyadic inputs stay exact in
  any order;
- a NaN made by a bitcast from an integer is never bitcast back (gen_shape.py says why).
Every generated file must compile with tilec: an error on one is a generator bug or a
compiler bug, and either is a finding.
"""
import argparse
import os
import random

from gen_dtypes import DTYPE_WEIGHTS, Expr, is_float, is_int, paren
import gen_3d
import gen_shape


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.header = {}   # dimension symbols and integer scalars -> value
        self.lines = []
        self.tags = {}     # kernel name -> constructs it holds (gpu_campaign.py's summary)
        self.kernel = None
        self.base = 0      # extra indentation of emit()'s lines (a persistent loop's body)

    def tag(self, *names):
        self.tags.setdefault(self.kernel, set()).update(names)

    # ---- helpers ----------------------------------------------------------------------------
    def pick(self, *choices):
        return self.r.choice(choices)

    def weighted(self, pairs):
        total = sum(w for w, _ in pairs)
        x = self.r.uniform(0, total)
        for w, v in pairs:
            x -= w
            if x <= 0:
                return v
        return pairs[-1][1]

    def dtype(self):
        """A random dtype, by DTYPE_WEIGHTS."""
        return self.weighted([(w, d) for d, w in DTYPE_WEIGHTS])

    def dim(self, name, lo=1, hi=70):
        self.header[name] = self.r.randint(lo, hi)
        return name

    def cast(self, e, d):
        return e if e.dtype == d else Expr(f"{paren(e.text)}.astype({d})", d)

    def literal(self, d):
        if d == "bool":
            return Expr(self.pick("True", "False"), d)
        if is_float(d):
            return Expr(self.pick("0.5", "-1.25", "2.0", "0.125", "3.0"), d)
        if d.startswith("u"):
            return Expr(str(self.r.randint(0, 9)), d)
        return Expr(str(self.r.randint(-5, 9)), d)

    # ---- elementwise expressions ----------------------------------------------------------
    def expr(self, leaves, depth):
        """A random expression over `leaves` (Exprs of one shape)."""
        if depth <= 0 or self.r.random() < 0.25:
            return self.r.choice(leaves)
        kind = self.weighted([(4, "arith"), (2, "cast"), (2, "where"), (2, "minmax"), (1, "unary"),
                              (2, "intop"), (1, "div"), (1, "fma"), (1, "cmp"), (1, "math"), (1, "lit")])
        a = self.expr(leaves, depth - 1)
        if kind == "cast":
            return self.cast(a, self.dtype())
        if kind == "unary":
            if a.dtype == "bool":
                return Expr(f"~{paren(a.text)}", "bool")
            return Expr(self.pick(f"-{paren(a.text)}", f"abs({a.text})", f"floor({a.text})"), a.dtype) \
                if not a.dtype.startswith("u") else Expr(f"abs({a.text})", a.dtype)
        if kind == "math":
            return self.math(a)
        b = self.expr(leaves, depth - 1)
        if kind == "lit":
            b = self.literal(a.dtype if a.dtype != "bool" else "i32")
            a = self.cast(a, "i32") if a.dtype == "bool" else a
            return Expr(f"({a.text} {self.pick('+', '-', '*')} {b.text})", a.dtype)
        d = self.common(a.dtype, b.dtype)
        a, b = self.cast(a, d), self.cast(b, d)
        if kind == "where":
            c = self.compare(leaves, depth - 1)
            return Expr(f"where({c.text}, {a.text}, {b.text})", d)
        if kind == "cmp":
            c = Expr(f"({a.text} {self.pick('<', '<=', '==', '!=', '>')} {b.text})", "bool")
            return c
        if d == "bool":
            return Expr(f"({a.text} {self.pick('&', '|', '^')} {b.text})", "bool")
        if kind == "minmax":
            return Expr(f"{self.pick('minimum', 'maximum')}({a.text}, {b.text})", d)
        if kind == "fma" and is_float(d):
            c = self.cast(self.expr(leaves, depth - 1), d)
            return Expr(f"fma({a.text}, {b.text}, {c.text})", d)
        if kind == "intop" and is_int(d):
            op = self.pick("&", "|", "^", "<<", ">>", "//", "%")
            if op in ("<<", ">>"):
                count = self.pick(f"({b.text} & 7)", str(self.r.randint(0, 70)))
                if d.startswith("i") and self.r.random() < 0.3:
                    count = f"(({b.text} & 7) - 4)"  # negative counts shift by 0 (§5.4)
                return Expr(f"({a.text} {op} {count})", d)
            if op in ("//", "%"):
                return Expr(f"({a.text} {op} (({b.text} & 3) + 1))", d)
            return Expr(f"({a.text} {op} {b.text})", d)
        if kind == "div":
            if is_int(d):  # true division gives f32 (f64 for 64-bit operands)
                return Expr(f"({a.text} / (({b.text} & 3) + 1))", "f64" if d in ("i64", "u64") else "f32")
            return Expr(f"({a.text} / (abs({b.text}) + 1.0))", d)
        return Expr(f"({a.text} {self.pick('+', '-', '*')} {b.text})", d)

    def math(self, a):
        """A math function of `a` (§7.7): computed in f32 for f16/bf16; f64 has only sqrt and
        rsqrt. Arguments stay where the results are finite (log, sqrt, rsqrt of |x| + 1)."""
        self.tag("math")
        f = self.cast(a, self.weighted([(3, "f32"), (2, "f16"), (2, "bf16"), (1, "f64")]))
        fns = ["sqrt", "rsqrt"] if f.dtype == "f64" else \
            ["exp", "exp2", "tanh", "sigmoid", "sqrt", "rsqrt", "sin", "cos", "log", "log2", "erf"]
        fn = self.r.choice(fns)
        positive = fn in ("sqrt", "rsqrt", "log", "log2")
        arg = f"abs({f.text}) + 1" if positive else f.text
        return Expr(f"{fn}({arg})", f.dtype)

    def compare(self, leaves, depth):
        a = self.expr(leaves, depth)
        if a.dtype == "bool":
            return a
        return Expr(f"({a.text} {self.pick('<', '>', '!=')} {self.literal(a.dtype).text})", "bool")

    def common(self, x, y):
        """A dtype both operands are cast to (promotion would reject u8 with i8, f16 with bf16)."""
        if x == y:
            return x
        if x == "bool":
            return y
        if y == "bool":
            return x
        return self.pick(x, y)

    # ---- kernels ----------------------------------------------------------------------------
    def emit(self, line, indent=1):
        self.lines.append("    " * (indent + self.base) + line)

    def early_return(self, axis=0):
        if self.r.random() < 0.25:
            self.tag("early-return")
            self.emit(f"if bid({axis}) == {self.r.randint(0, 2)}:")
            self.emit("return", 2)

    def scalar_loops(self, bound):
        """A scalar s computed by nested loops with break and continue; returns its name."""
        self.tag("scalar-loops")
        self.emit("s = 0")
        self.emit(f"for t in range({bound}):")
        self.emit(f"if t % {self.r.randint(2, 3)} == 1:", 2)
        self.emit("continue", 3)
        self.emit("s += t", 2)
        if self.r.random() < 0.6:
            self.emit("w = 0", 2)
            self.emit("while w < 4:", 2)
            self.emit("w += 1", 3)
            self.emit("if w == s:", 3)
            self.emit("break", 4)
            self.emit("s += w", 3)
        if self.r.random() < 0.4:
            self.emit(f"if s > {self.r.randint(3, 9)}:", 2)
            self.emit("break", 3)
        return "s"

    def load_1d(self, arr, size, d):
        pad = self.literal(d).text if self.r.random() < 0.4 else None
        padding = f", padding={pad}" if pad else ""
        if pad:
            self.tag("padding")
        if self.r.random() < 0.5:
            return f"load({arr}, index=(i,), shape=({size},){padding})"
        self.tag("load-offset")
        shift = self.r.choice([-3, -1, 1, 2, 5, -size])
        return f"load({arr}, offset=(i * {size} + ({shift}),), shape=({size},){padding})"

    def kernel_elementwise(self, name):
        """1-D or 2-D elementwise kernel: loads at indices and offsets, casts, broadcasts. A
        fifth are persistent: a grid of num_sms() CTAs walks the tiles (`for i in range(bid(0),
        tiles, num_blocks(0))`), so the results must not depend on the device's SM count (the
        interpreter takes 4)."""
        n = self.dim(f"n_{name}")
        size = self.pick(16, 32, 64, 128)
        dts = [self.dtype() for _ in range(self.r.randint(1, 3))]
        out = self.dtype()
        params = [f"a{k}: {d}[{n}]" for k, d in enumerate(dts)] + [f"out: {out}[{n}]", f"r_{name}: i32"]
        self.header[f"r_{name}"] = self.r.randint(0, 6)
        persistent = self.r.random() < 0.25
        grid = "num_sms()," if persistent else f"cdiv({n}, {size}),"
        self.lines.append(f"@kernel(grid=({grid}))")
        self.lines.append(f"def {name}({', '.join(params)}):")
        if persistent:
            self.tag("num-sms")
            self.emit(f"for i in range(bid(0), cdiv({n}, {size}), num_blocks(0)):")
            self.base = 1
        else:
            self.emit("i = bid(0)")
        leaves = []
        for k, d in enumerate(dts):
            self.emit(f"x{k} = {self.load_1d(f'a{k}', size, d)}")
            leaves.append(Expr(f"x{k}", d))
        if self.r.random() < 0.5:
            s = self.scalar_loops(f"r_{name}")
            leaves.append(Expr(f"arange({size})", "i32"))
            leaves.append(Expr(s, "i32"))
        if persistent:  # which tiles a CTA skips must not depend on the grid: skip by tile
            if self.r.random() < 0.3:
                self.tag("loop-exit")
                self.emit(f"if i == {self.r.randint(0, 2)}:")
                self.emit("continue", 2)
        else:
            self.early_return()
        e = self.expr(leaves, 4)
        if self.r.random() < 0.3:  # a broadcast through 2-D and back: row vector + column
            self.tag("broadcast")
            row = f"({self.cast(e, 'f32').text} + zeros(({size},), f32))"  # e may be a scalar
            self.emit(f"m = {row}[None, :] + zeros((2, {size}), f32)")
            e = Expr("sum(m, axis=0)", "f32")
        self.emit(f"store(out, index=(i,), tile={self.cast(e, out).text})")
        self.base = 0

    def kernel_reduce(self, name):
        """2-D tiles over a column loop (`for`, or `while` carrying the tiles, some with a
        condition on a reduction of them): reductions along the rows (accumulated) and along
        the columns (stored per column block, some with keepdims), scans on either axis
        (cumprod over floats on powers of two only, so any order is exact), transposed loads."""
        m, n = self.dim(f"m_{name}"), self.dim(f"n_{name}")
        bm, bn = self.pick(1, 2, 4, 8, 16), self.pick(4, 8, 16, 32)
        d = self.dtype()
        acc = d if d == "f64" else "f32" if is_float(d) else ("u32" if d.startswith("u") else "i32")
        red, red2 = (self.pick("sum", "max", "min", "argmax", "argmin") for _ in range(2))
        col = "i32" if red2.startswith("arg") else acc
        mb = f"mb_{name}"  # the column reductions' rows: one per row block
        self.header[mb] = -(-self.header[m] // bm)
        params = [f"a: {d}[{m}, {n}]", f"out: {acc}[{m}]", f"scan: {acc}[{m}, {n}]", f"col: {col}[{mb}, {n}]"]
        self.lines.append(f"@kernel(grid=(cdiv({m}, {bm}),))")
        self.lines.append(f"def {name}({', '.join(params)}):")
        self.emit("i = bid(0)")
        self.early_return()
        self.emit(f"acc = zeros(({bm},), {acc})")
        loop = self.weighted([(2, "for"), (1, "while"), (1, "while-cond")])
        if loop == "for":
            self.emit(f"for j in range(cdiv({n}, {bn})):")
        else:
            self.tag("while-tiles")
            self.emit("j = 0")
            cond = f"j < cdiv({n}, {bn})"
            if loop == "while-cond":  # a uniform scalar from the carried tile steers the loop
                self.tag("while-tile-cond")
                cond += f" and sum(acc) {self.pick('<', '<=', '!=')} {self.r.randint(0, 40)}"
            self.emit(f"while {cond}:")
        if self.r.random() < 0.4:  # the same tile through a transposed view
            self.tag("transposed-load")
            self.emit(f"xt = load(a, index=(j, i), shape=({bn}, {bm}), order=(1, 0))", 2)
            self.emit("x = permute(xt, (1, 0))", 2)
        else:
            self.emit(f"x = load(a, index=(i, j), shape=({bm}, {bn}))", 2)
        self.emit(f"y = x.astype({acc})", 2)
        if red in ("argmax", "argmin"):
            self.emit(f"acc += {red}(y, axis=1).astype({acc})", 2)
        elif red == "sum":
            self.emit("acc += sum(y, axis=1)", 2)
        else:
            self.emit(f"acc = {'maximum' if red == 'max' else 'minimum'}(acc, {red}(y, axis=1))", 2)
        if self.r.random() < 0.5:
            self.tag("keepdims")
            self.emit(f"store(col, index=(i, j), tile={red2}(y, axis=0, keepdims=True))", 2)
        else:
            self.emit(f"store(col, index=(i, j), tile={red2}(y, axis=0)[None, :])", 2)
        scan = self.weighted([(2, "cumsum"), (3, "cumprod")])
        z = "y"
        if scan == "cumprod" and is_float(acc):  # ±2, ±1/2, 1: products exact in any order
            self.tag("cumprod-float")
            z = f"where(y > 0, 2.0, where(y < -1, -0.5, 1.0)).astype({acc})"
        self.emit(f"store(scan, index=(i, j), tile={scan}({z}, axis={self.pick(0, 1)}))", 2)
        self.tag(red, red2, scan)
        if loop != "for":
            self.emit("j += 1", 2)
        if self.r.random() < 0.3:
            self.tag("loop-exit")
            self.emit(f"if j == {self.r.randint(0, 2) + (loop != 'for')}:", 2)
            self.emit(self.pick("break", "continue"), 3)
        self.emit("store(out, index=(i,), tile=acc)")

    def kernel_mma(self, name):
        """acc = mma(a, b, acc) over a K loop: ragged K, operands at offsets, every accumulator
        the language has (f16/bf16 -> f32, f16 -> f16, i8 -> i32, f64 -> f64, and tf32 from f32
        arrays), epilogues (a bias row at an element offset, relu, scaling)."""
        m, k, n = self.dim(f"m_{name}", 1, 80), self.dim(f"k_{name}", 1, 80), self.dim(f"n_{name}", 1, 80)
        bm, bn, bk = self.pick(16, 32, 64), self.pick(16, 32, 64), self.pick(16, 32)
        d, acc = self.weighted([(1, ("f16", "f32")), (1, ("bf16", "f32")), (1, ("i8", "i32")),
                                (1, ("f16", "f16")), (1, ("f64", "f64")), (1, ("tf32", "f32"))])
        if d == "i8":
            bk = 32
        if d == "f64":  # m8n8k4, 64-bit registers: smaller tiles
            bm, bn = self.pick(16, 32), self.pick(16, 32)
        stored = "f32" if d == "tf32" else d  # tf32 operands come from f32 arrays
        bias = self.r.random() < 0.3
        params = [f"a: {stored}[{m}, {k}]", f"b: {stored}[{k}, {n}]", f"c: {acc}[{m}, {n}]"]
        if bias:
            params.append(f"bias: {acc}[{n}]")
        self.lines.append(f"@kernel(grid=(cdiv({m}, {bm}), cdiv({n}, {bn})))")
        self.lines.append(f"def {name}({', '.join(params)}):")
        self.early_return(self.pick(0, 1))
        self.emit(f"acc = zeros(({bm}, {bn}), {acc})")
        self.emit(f"for kk in range(cdiv({k}, {bk})):")
        self.tag(f"mma-{d}" if acc != "f16" else "mma-f16-f16")
        if self.r.random() < 0.5:
            self.tag("mma-a-offset")
            dr, dk = self.pick(0, 0, -1, 3), self.pick(0, 8, -2, 1)
            self.emit(f"x = load(a, offset=(bid(0) * {bm} + ({dr}), kk * {bk} + ({dk})), shape=({bm}, {bk}))", 2)
        else:
            self.emit(f"x = load(a, index=(bid(0), kk), shape=({bm}, {bk}))", 2)
        self.emit(f"y = load(b, index=(kk, bid(1)), shape=({bk}, {bn}))", 2)
        if d == "tf32":
            self.emit("acc = mma(x.astype(tf32), y.astype(tf32), acc)", 2)
        elif acc == "f16":  # integer operands: every partial sum is exact in f16, in any order
            self.emit("acc = mma(floor(x), floor(y), acc)", 2)
        else:
            self.emit("acc = mma(x, y, acc)", 2)
        epi = self.pick("acc", f"maximum(acc, {self.pick('0', '1')})", "acc * 2")
        if bias:
            self.tag("epilogue-bias")
            self.emit(f"t = load(bias, offset=(bid(1) * {bn} + ({self.pick(0, 0, 1, -2)}),), shape=({bn},))")
            epi = f"{epi} + t[None, :]"
        self.emit(f"store(c, index=(bid(0), bid(1)), tile={epi})")

    def kernel_mma_tma(self, name):
        """An f16/bf16 mma loop shaped for sm_90a's tma_wgmma path (language.md §7.9): a 64- or
        128-row accumulator, B at tile indices or at offsets whose innermost part is a multiple of
        16 bytes (a TMA copy), and A at tile indices (TMA), at run-time offsets (scalar
        parameters: wgmma's A from registers unless the offset is a known multiple of 16 bytes)
        or at constant unaligned offsets (registers). Extents are mostly multiples of 8, so every
        row is 16-byte aligned and the launch takes the `_wgmma` entry on a 9.0 device."""
        def extent(lo, hi):
            v = self.r.randint(lo, hi)
            return v - v % 8 + 8 if self.r.random() < 0.8 else v
        m, k, n = f"m_{name}", f"k_{name}", f"n_{name}"
        self.header[m] = self.r.randint(1, 200)
        self.header[k] = extent(1, 200)
        self.header[n] = extent(1, 200)
        bm, bn = self.pick(64, 128, 128), self.pick(64, 128)
        warps = self.pick(4, 8, 8)
        d = self.pick("f16", "bf16")
        a_form = self.weighted([(1, "runtime"), (1, "unaligned"), (1, "index"), (1, "aligned")])
        bk = 64 if a_form in ("index", "aligned") else self.pick(16, 32, 64)
        if self.r.random() < 0.15:  # tests/gpu/offsets_mm.tile's mm_a_off (issue 35's register-A case)
            bm, bn, warps, bk, d, a_form = 128, 128, 8, 64, d, "runtime"
        self.tag(f"mma-{d}", f"mma-a-{a_form}")
        params = [f"a: {d}[{m}, {k}]", f"b: {d}[{k}, {n}]", f"c: f32[{m}, {n}]"]
        if a_form == "runtime":
            params += [f"r0_{name}: i64", f"c0_{name}: i64"]
            self.header[f"r0_{name}"] = self.r.randint(-3, 5)
            # an aligned run-time offset (c0 % 8 == 0) still takes registers: only known
            # multiples of 16 bytes get a TMA box
            self.header[f"c0_{name}"] = self.pick(0, 0, 8, 1, 3, -1, 5, -8)
        b_off = self.r.random() < 0.45
        if b_off:
            params.append(f"t0_{name}: i64")
            self.header[f"t0_{name}"] = self.r.randint(-3, 5)
            self.tag("mma-b-offset")
        self.lines.append(f"@kernel(grid=(cdiv({m}, {bm}), cdiv({n}, {bn})), num_warps={warps})")
        self.lines.append(f"def {name}({', '.join(params)}):")
        if self.r.random() < 0.15:
            self.early_return(self.pick(0, 1))
        self.emit(f"acc = zeros(({bm}, {bn}), f32)")
        self.emit(f"for kk in range(cdiv({k}, {bk})):")
        if a_form == "runtime":
            self.emit(f"x = load(a, offset=(r0_{name} + bid(0) * {bm}, c0_{name} + kk * {bk}), shape=({bm}, {bk}))", 2)
        elif a_form == "unaligned":
            dr, dk = self.pick(0, -1, 2), self.pick(1, -2, 3, 4, -5)
            self.emit(f"x = load(a, offset=(bid(0) * {bm} + ({dr}), kk * {bk} + ({dk})), shape=({bm}, {bk}))", 2)
        elif a_form == "aligned":
            dr, dk = self.pick(0, -1, 3), self.pick(0, 8, -8, 16)
            self.emit(f"x = load(a, offset=(bid(0) * {bm} + ({dr}), kk * {bk} + ({dk})), shape=({bm}, {bk}))", 2)
        else:
            self.emit(f"x = load(a, index=(bid(0), kk), shape=({bm}, {bk}))", 2)
        if b_off:
            self.emit(f"y = load(b, offset=(t0_{name} + kk * {bk}, bid(1) * {bn}), shape=({bk}, {bn}))", 2)
        else:
            self.emit(f"y = load(b, index=(kk, bid(1)), shape=({bk}, {bn}))", 2)
        self.emit("acc = mma(x, y, acc)", 2)
        epi = self.pick("acc", "maximum(acc, 0)", "acc * 2", "acc + 1.5")
        self.emit(f"store(c, index=(bid(0), bid(1)), tile={epi})")

    def kernel_memory(self, name):
        """gather at computed indices (some out of range, masked), scatter to distinct positions
        of the CTA's own tile, integer atomics whose old values are not read, a histogram."""
        n = self.dim(f"n_{name}")
        size = self.pick(16, 32, 64)
        d = self.dtype()
        self.lines.append(f"@kernel(grid=(cdiv({n}, {size}),))")
        self.lines.append(f"def {name}(x: {d}[{n}], y: {d}[{n}], cnt: i32[16], hist: i32[8]):")
        self.emit("i = bid(0)")
        self.emit(f"e = i * {size} + arange({size})")
        shift = self.r.randint(-5, 5)
        mask = self.pick("", ", mask=(e % 3) != 1")
        pad = f", padding={self.literal(d).text}" if self.r.random() < 0.5 else ""
        self.tag("gather", "scatter", "atomic", "histogram")
        self.emit(f"g = gather(x, e * {self.pick(1, 2, -1)} + ({shift}){mask}{pad})")
        self.emit(f"rev = i * {size} + ({size - 1} - arange({size}))")
        self.emit(f"scatter(y, rev, g{self.pick('', ', mask=e < ' + str(self.r.randint(0, 80)))})")
        v = self.cast(Expr("g", d), "i32").text
        op = self.pick("atomic_add", "atomic_max", "atomic_min", "atomic_or", "atomic_xor")
        self.emit(f"{op}(cnt, (e % 16), {v})")
        self.emit(f"h = histogram(({v}) & 7, 8)")
        self.emit("atomic_add(hist, arange(8), h)")

    def file(self, seed):
        kinds = [(2, "elementwise", self.kernel_elementwise), (2.5, "reduce", self.kernel_reduce),
                 (3, "mma", self.kernel_mma), (2.5, "mma_tma", self.kernel_mma_tma),
                 (1, "memory", self.kernel_memory), (2, "shape", lambda k: gen_shape.kernel_shape(self, k)),
                 (1, "tile3d", lambda k: gen_3d.kernel_tile3d(self, k)),
                 (1, "mma_batched", lambda k: gen_3d.kernel_mma_batched(self, k))]
        for k in range(self.r.randint(1, 3)):
            what, make = self.weighted([(w, (what, make)) for w, what, make in kinds])
            self.kernel = f"k{k}"
            self.tag(what)
            make(self.kernel)
            self.lines.append("")
        head = " ".join(f"{key}={v}" for key, v in sorted(self.header.items()))
        return f"# generated by tools/difftest/gen.py --seed {seed}\n# difftest: {head}\n\n" + "\n".join(self.lines)


def generate(seed):
    return Gen(seed).file(seed)


def generate_tagged(seed):
    """The file of `seed` and, per kernel name, the sorted list of constructs it holds."""
    g = Gen(seed)
    text = g.file(seed)
    return text, {k: sorted(v) for k, v in g.tags.items()}


def histogram(first, end):
    """Per construct tag, the number of kernels of seeds first..end-1 that hold it, rarest
    first, as text."""
    counts, kernels = {}, 0
    for seed in range(first, end):
        for tags in generate_tagged(seed)[1].values():
            kernels += 1
            for t in tags:
                counts[t] = counts.get(t, 0) + 1
    lines = [f"{end - first} seeds, {kernels} kernels"]
    lines += [f"{n:6d}  {t}" for t, n in sorted(counts.items(), key=lambda tn: (tn[1], tn[0]))]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int)
    ap.add_argument("-o", "--output")
    ap.add_argument("--seeds", type=int, nargs=2, metavar=("FIRST", "END"))
    ap.add_argument("--dir")
    ap.add_argument("--histogram", type=int, nargs=2, metavar=("FIRST", "END"))
    args = ap.parse_args()
    if args.histogram:
        print(histogram(*args.histogram), end="")
        return
    if args.seeds:
        os.makedirs(args.dir or ".", exist_ok=True)
        for s in range(*args.seeds):
            with open(os.path.join(args.dir or ".", f"gen_{s}.tile"), "w") as f:
                f.write(generate(s))
        return
    text = generate(args.seed if args.seed is not None else 1)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
