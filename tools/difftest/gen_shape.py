"""gen.py's shape-operation kernels (language.md §7.4, §7.5): a 2-D tile goes through a chain
of cat, extract, reshape, transpose, permute (through 3-D), expand_dims/broadcast_to and
bitcast steps, each of which ends at the tile's own shape again, and is stored at the CTA's
tile index. Padding moves with the data, so the stored tile holds padding values too.

bitcast keeps the results comparable bit for bit only while no NaN is read as an integer: the
interpreter holds a float as a double, so a NaN's payload does not survive it (the oracles
compare NaNs of float arrays without their payload). So a float becomes an integer by bitcast
only while it cannot be a NaN: loaded values and what the steps compute from them, not the
result of an integer-to-float bitcast (whose bits may be any NaN: -1 as f32)."""
from gen_dtypes import SAME_WIDTH, Expr, is_float, width


class Tile:
    """The chain's current tile: its name, dtype, and whether it may hold a NaN read from
    integer bits."""

    def __init__(self, name, dtype):
        self.name, self.dtype, self.any_bits = name, dtype, False


def kernel_shape(g, name):
    m, n = g.dim(f"m_{name}"), g.dim(f"n_{name}")
    bm, bn = g.pick(2, 4, 8, 16), g.pick(2, 4, 8, 16, 32)
    d = g.dtype()
    steps = [g.weighted([(2, step_cat_extract), (2, step_halves), (2, step_reshape_transpose),
                         (1, step_permute_3d), (1, step_flatten), (2, step_broadcast), (1, step_extract_row),
                         (2, step_bitcast)]) for _ in range(g.r.randint(1, 3))]
    t = Tile("x", d)
    pad = f", padding={g.literal(d).text}" if g.r.random() < 0.4 else ""
    if pad:
        g.tag("padding")
    body = [f"x = load(a, index=(bid(0), bid(1)), shape=({bm}, {bn}){pad})",
            f"w = load(b, index=(bid(0), bid(1)), shape=({bm}, {bn}))"]
    for k, step in enumerate(steps):
        body += step(g, t, k, bm, bn, d)
    g.lines.append(f"@kernel(grid=(cdiv({m}, {bm}), cdiv({n}, {bn})))")
    g.lines.append(f"def {name}(a: {d}[{m}, {n}], b: {d}[{m}, {n}], out: {t.dtype}[{m}, {n}]):")
    for line in body:
        g.emit(line)
    g.emit(f"store(out, index=(bid(0), bid(1)), tile={t.name})")


def renamed(t, out, lines):
    """`lines`, after which the chain's tile is `out`."""
    t.name = out
    return lines


def other(g, t, d):
    """The second operand of a cat: the tile `w`, as the chain's dtype."""
    if t.dtype == d:
        return "w"
    return g.cast(Expr("w", d), t.dtype).text


def step_cat_extract(g, t, k, bm, bn, d):
    """cat with w along an axis, then the whole half of either operand back."""
    g.tag("cat", "extract")
    axis, q = g.pick(0, 1), g.pick(0, 1)
    pair = (t.name, other(g, t, d)) if g.r.random() < 0.5 else (other(g, t, d), t.name)
    index = (q, 0) if axis == 0 else (0, q)
    out = f"c{k}"
    lines = [f"{out}2 = cat({pair[0]}, {pair[1]}, axis={axis})",
             f"{out} = extract({out}2, index={index}, shape=({bm}, {bn}))"]
    t.name = out
    return lines


def step_halves(g, t, k, bm, bn, d):
    """cat with w, then two pieces half as long along an axis (any two, the same one too)
    joined along that axis."""
    g.tag("cat", "extract")
    axis = g.pick(0, 1)
    big = (2 * bm, bn) if axis == 0 else (bm, 2 * bn)
    split = g.pick(*[a for a, e in ((0, bm), (1, bn)) if e >= 2])
    piece = (bm // 2, bn) if split == 0 else (bm, bn // 2)
    counts = (big[0] // piece[0], big[1] // piece[1])
    picks = [(g.r.randrange(counts[0]), g.r.randrange(counts[1])) for _ in range(2)]
    out = f"h{k}"
    lines = [f"{out}c = cat({t.name}, {other(g, t, d)}, axis={axis})"]
    for p, (r, c) in enumerate(picks):
        lines.append(f"{out}{p} = {out}c.extract(({r}, {c}), ({piece[0]}, {piece[1]}))" if g.r.random() < 0.5 else
                     f"{out}{p} = extract({out}c, index=({r}, {c}), shape=({piece[0]}, {piece[1]}))")
    return renamed(t, out, lines + [f"{out} = cat({out}0, {out}1, axis={split})"])


def step_reshape_transpose(g, t, k, bm, bn, d):
    """reshape to another 2-D shape of the same size, transpose, reshape back."""
    g.tag("reshape", "transpose")
    size = bm * bn
    rows = g.pick(*[1 << e for e in range(size.bit_length()) if (1 << e) <= size])
    out = f"r{k}"
    tr = g.pick(f"transpose({out}a)", f"{out}a.transpose()", f"permute({out}a, (1, 0))")
    return renamed(t, out, [f"{out}a = reshape({t.name}, ({rows}, {size // rows}))",
                            f"{out} = {tr}.reshape(({bm}, {bn}))"])


def step_permute_3d(g, t, k, bm, bn, d):
    """Through a 3-D tile: split the rows or the columns in two, permute the three axes."""
    g.tag("reshape", "permute", "3d")
    shape = (2, bm // 2, bn) if bm >= 2 and g.r.random() < 0.5 else (bm, 2, bn // 2)
    perm = g.pick((1, 0, 2), (2, 1, 0), (0, 2, 1), (1, 2, 0), (2, 0, 1))
    out = f"p{k}"
    return renamed(t, out, [f"{out}a = reshape({t.name}, {shape})",
                            f"{out} = permute({out}a, {perm}).reshape(({bm}, {bn}))"])


def step_flatten(g, t, k, bm, bn, d):
    """To 1-D and back, with an elementwise step against arange on the way."""
    g.tag("reshape")
    size = bm * bn
    out = f"f{k}"
    if t.dtype == "bool":
        op = f"{out}a ^ ((arange({size}) % 3) == 0)"
    elif is_float(t.dtype):
        op = f"{out}a * 2 - arange({size}).astype({t.dtype})"  # may be a NaN: it stays one
    else:
        op = f"{out}a + (arange({size}) & 3).astype({t.dtype})"
    lines = [f"{out}a = reshape({t.name}, (-1,))" if g.r.random() < 0.5 else f"{out}a = {t.name}.reshape(({size},))",
             f"{out} = reshape({op}, ({bm}, {bn}))"]
    t.name = out
    return lines


def step_broadcast(g, t, k, bm, bn, d):
    """A new leading axis, broadcast to 2, reduced away again (max: the tile itself)."""
    g.tag("expand-broadcast")
    out = f"e{k}"
    ex = g.pick(f"expand_dims({t.name}, 0)", f"{t.name}[None, :, :]", f"{t.name}.expand_dims(-3)")
    return renamed(t, out, [f"{out}a = broadcast_to({ex}, (2, {bm}, {bn}))",
                            f"{out} = {g.pick('max', 'min')}({out}a, axis=0)"])


def step_extract_row(g, t, k, bm, bn, d):
    """A column or a row of the tile, broadcast back against the tile."""
    g.tag("extract", "broadcast")
    out = f"v{k}"
    if g.r.random() < 0.5:
        piece, index = f"({bm}, 1)", f"(0, {g.r.randrange(bn)})"
    else:
        piece, index = f"(1, {bn})", f"({g.r.randrange(bm)}, 0)"
    op = "^" if t.dtype == "bool" else g.pick("-", "+", "*") if is_float(t.dtype) else g.pick("-", "+", "^", "&")
    return renamed(t, out, [f"{out}a = extract({t.name}, index={index}, shape={piece})",
                            f"{out} = {t.name} {op} {out}a"])


def step_bitcast(g, t, k, bm, bn, d):
    """The same bits as another dtype of the width: between signed and unsigned, between the
    16-bit floats, from a float that cannot be a NaN to an integer, from an integer to a float
    (which then may be any NaN: no bitcast after it)."""
    if t.dtype == "bool" or t.any_bits:
        return step_cat_extract(g, t, k, bm, bn, d)
    g.tag("bitcast")
    to = g.r.choice([x for x in SAME_WIDTH[width(t.dtype)] if x != t.dtype])
    out = f"b{k}"
    line = f"{out} = {t.name}.bitcast({to})" if g.r.random() < 0.5 else f"{out} = bitcast({t.name}, {to})"
    if is_float(to) and not is_float(t.dtype):
        t.any_bits = True
    t.name, t.dtype = out, to
    return [line]
