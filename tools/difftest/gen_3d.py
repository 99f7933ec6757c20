"""gen.py's 3-D kernels: 3-D arrays and tiles (loads at tile indices, at element offsets and
through a transposed view, elementwise trees, a reduction with keepdims along any axis, a scan,
a permuted store), and batched mma (language.md §7.9: a batch of one, `(1, M, K)` tiles, as
samples/batched_matmul.tile; on sm_90a with 3-D tensor maps)."""
from gen_dtypes import Expr, is_float


def kernel_tile3d(g, name):
    """One (bb, bm, bn) tile per CTA of a 3-D grid."""
    g.tag("3d")
    ext = [g.dim(f"z_{name}", 1, 6), g.dim(f"m_{name}", 1, 40), g.dim(f"n_{name}", 1, 40)]
    tile = [g.pick(1, 2, 4), g.pick(1, 2, 4, 8), g.pick(4, 8, 16, 32)]
    d = g.dtype()
    acc = d if d == "f64" else "f32" if is_float(d) else ("u32" if d.startswith("u") else "i32")
    axis = g.r.randrange(3)
    red = g.pick("sum", "max", "min", "argmax", "argmin")
    g.tag(red)
    blocks = f"nb_{name}"  # the reduced axis of the reduction's array: one entry per tile
    g.header[blocks] = -(-g.header[ext[axis]] // tile[axis])
    red_ext = [blocks if a == axis else e for a, e in enumerate(ext)]
    red_dt = "i32" if red.startswith("arg") else acc
    perm = g.pick((0, 2, 1), (2, 1, 0), (1, 0, 2), (1, 2, 0), (2, 0, 1))
    out = g.dtype()
    shape = ", ".join(map(str, tile))
    params = [f"a: {d}[{', '.join(ext)}]", f"out: {out}[{', '.join(ext)}]",
              f"red: {red_dt}[{', '.join(red_ext)}]", f"scan: {acc}[{', '.join(ext)}]",
              f"pt: {d}[{', '.join(ext[p] for p in perm)}]"]
    g.lines.append(f"@kernel(grid=({', '.join(f'cdiv({e}, {t})' for e, t in zip(ext, tile))}))")
    g.lines.append(f"def {name}({', '.join(params)}):")
    form = g.weighted([(2, "index"), (1, "offset"), (1, "order")])
    if form == "index":
        g.emit(f"x = load(a, index=(bid(0), bid(1), bid(2)), shape=({shape}))")
    elif form == "offset":
        g.tag("load-offset")
        offs = ", ".join(f"bid({a}) * {t} + ({g.pick(0, 0, -1, 1, 3)})" for a, t in enumerate(tile))
        g.emit(f"x = load(a, offset=({offs}), shape=({shape}), padding={g.literal(d).text})")
    else:
        g.tag("transposed-load")
        order = g.pick((0, 2, 1), (2, 1, 0), (1, 0, 2))
        inv = tuple(order.index(a) for a in range(3))
        g.emit(f"xt = load(a, index=({', '.join(f'bid({o})' for o in order)}), "
               f"shape=({', '.join(str(tile[o]) for o in order)}), order={order})")
        g.emit(f"x = permute(xt, {inv})")
    g.early_return(g.pick(0, 1, 2))
    e = g.expr([Expr("x", d)], 3)
    g.emit(f"store(out, index=(bid(0), bid(1), bid(2)), tile={g.cast(e, out).text})")
    g.emit(f"y = x.astype({acc})")
    g.emit(f"store(red, index=(bid(0), bid(1), bid(2)), tile={red}(y, axis={axis}, keepdims=True))")
    scan = "cumsum" if is_float(acc) else g.pick("cumsum", "cumprod")
    g.tag(scan)
    scan_axis = g.r.randrange(3) - 3 * g.r.randrange(2)  # negative axes count from the end
    g.emit(f"store(scan, index=(bid(0), bid(1), bid(2)), tile={scan}(y, axis={scan_axis}))")
    g.tag("permute")
    g.emit(f"store(pt, index=({', '.join(f'bid({p})' for p in perm)}), tile=permute(x, {perm}))")


def kernel_mma_batched(g, name):
    """acc = mma(a, b, acc) on (1, M, K) tiles over a K loop, one batch entry per grid row: B
    stored K-major or N-major (a transposed view), A at tile indices or at offsets; a third
    are shaped for the tma_wgmma path (64- or 128-row tiles, extents multiples of 8)."""
    tma = g.r.random() < 0.35
    z = g.dim(f"z_{name}", 1, 4)
    if tma:
        g.tag("mma_tma")
        for x in ("m", "k", "n"):
            g.header[f"{x}_{name}"] = g.r.randint(1, 25) * 8
        m, k, n = f"m_{name}", f"k_{name}", f"n_{name}"
        bm, bn, bk, warps = g.pick(64, 128), g.pick(64, 128), 64, g.pick(4, 8)
        d, acc = g.pick("f16", "bf16"), "f32"
    else:
        m, k, n = g.dim(f"m_{name}", 1, 80), g.dim(f"k_{name}", 1, 80), g.dim(f"n_{name}", 1, 80)
        bm, bn, bk, warps = g.pick(16, 32, 64), g.pick(16, 32), g.pick(16, 32), 4
        d, acc = g.weighted([(2, ("f16", "f32")), (1, ("bf16", "f32")), (1, ("i8", "i32"))])
        if d == "i8":
            bk = 32
    g.tag(f"mma-{d}")
    b_nmajor = g.r.random() < 0.3
    b_param = f"b: {d}[{z}, {n}, {k}]" if b_nmajor else f"b: {d}[{z}, {k}, {n}]"
    g.lines.append(f"@kernel(grid=({z}, cdiv({m}, {bm}), cdiv({n}, {bn})), num_warps={warps})")
    g.lines.append(f"def {name}(a: {d}[{z}, {m}, {k}], {b_param}, c: {acc}[{z}, {m}, {n}]):")
    g.emit(f"acc = zeros((1, {bm}, {bn}), {acc})")
    g.emit(f"for kk in range(cdiv({k}, {bk})):")
    if g.r.random() < 0.35:
        g.tag("mma-a-offset")
        dr, dk = g.pick(0, -1, 3), g.pick(0, 8, -8) if tma else g.pick(0, 8, -2, 1)
        g.emit(f"x = load(a, offset=(bid(0), bid(1) * {bm} + ({dr}), kk * {bk} + ({dk})), shape=(1, {bm}, {bk}))", 2)
    else:
        g.emit(f"x = load(a, index=(bid(0), bid(1), kk), shape=(1, {bm}, {bk}))", 2)
    if b_nmajor:
        g.tag("transposed-load")
        g.emit(f"y = load(b, index=(bid(0), kk, bid(2)), shape=(1, {bk}, {bn}), order=(0, 2, 1))", 2)
    else:
        g.emit(f"y = load(b, index=(bid(0), kk, bid(2)), shape=(1, {bk}, {bn}))", 2)
    g.emit("acc = mma(x, y, acc)", 2)
    g.emit(f"store(c, index=(bid(0), bid(1), bid(2)), tile={g.pick('acc', 'maximum(acc, 0)', 'acc * 2')})")
