# Issue 21 experiment driver (call 1): bench.py's offsets section with more tilec variants and
# Triton kernels in the column-fastest grid order. usage: drive.py LIB OUTDIR RUNS
import ctypes
import os
import statistics
import sys

sys.argv = [sys.argv[0], sys.argv[1], "/dev/null"] + sys.argv[2:]
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import bench as B  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

OUT = sys.argv[3]
RUNS = int(sys.argv[4])


@triton.jit
def stencil2d_cols_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # bench.stencil2d_kernel with program_id(0) along the columns
    rows = tl.program_id(1) * BM + tl.arange(0, BM)[:, None]
    cols = tl.program_id(0) * BN + tl.arange(0, BN)[None, :]
    in_r = rows < M
    in_c = cols < N
    centre = tl.load(x + rows * N + cols, mask=in_r & in_c, other=0.0)
    up = tl.load(x + (rows - 1) * N + cols, mask=(rows >= 1) & in_r & in_c, other=0.0)
    down = tl.load(x + (rows + 1) * N + cols, mask=(rows + 1 < M) & in_c, other=0.0)
    left = tl.load(x + rows * N + cols - 1, mask=in_r & (cols >= 1) & in_c, other=0.0)
    right = tl.load(x + rows * N + cols + 1, mask=in_r & (cols + 1 < N), other=0.0)
    tl.store(out + rows * N + cols, 4.0 * centre - (up + down) - (left + right), mask=in_r & in_c)


@triton.jit
def silu_gate_flat_kernel(x, out, D, NB, BLOCK: tl.constexpr):
    # bench.silu_gate_kernel on a 1-D grid, the column blocks of a row consecutive
    pid = tl.program_id(0)
    row = (pid // NB).to(tl.int64)
    cols = (pid % NB) * BLOCK + tl.arange(0, BLOCK)
    m = cols < D
    g = tl.load(x + row * 2 * D + cols, mask=m).to(tl.float32)
    u = tl.load(x + row * 2 * D + D + cols, mask=m).to(tl.float32)
    tl.store(out + row * D + cols, (g * tl.sigmoid(g) * u).to(out.dtype.element_ty), mask=m)


STENCIL = [("", "base 8x256 4w (rows fastest)"), ("sb4_", "base mc4"), ("ss_", "swap 8x256 4w"),
           ("ss4_", "swap mc4 8x256 4w"), ("ss8w_", "swap mc4 8x256 8w"), ("ss16_", "swap mc2 16x256 8w"),
           ("ss4x256_", "swap mc4 4x256 4w"), ("ss4x512_", "swap mc4 4x512 8w"), ("ss8x512_", "swap mc2 8x512 4w"),
           ("sf4_", "flat mc4 8x256 4w"), ("ss4cs_", "swap mc4 8x256 4w .cs")]
SILU = [("", "base 2048 8w (rows fastest)"), ("gf_", "flat 2048 8w"), ("gf4k_", "flat 4096 8w"),
        ("gf1k_", "flat 1024 4w"), ("gf2k4w_", "flat 2048 4w"), ("gs_", "swap 2048 8w"),
        ("gfz_", "flat 2048 8w ftz"), ("gfcs_", "flat 2048 8w .cs"), ("gfz4k_", "flat 4096 8w ftz")]

sass = open(os.path.join(OUT, "triton_sass.txt"), "w")


def dump_sass(label, compiled):
    try:
        sass.write(f"==== {label}\n{compiled.asm['sass']}\n")
    except Exception as e:  # noqa: BLE001
        sass.write(f"==== {label}: no sass ({e})\n")


def main():
    dev = torch.device("cuda")
    U64, I64 = ctypes.c_uint64, ctypes.c_int64
    torch.manual_seed(20261202)
    M, N = 8192, 8192
    wl = f"stencil2d {M}x{N} f32"
    x = torch.randn(M, N, device=dev)
    y = torch.empty_like(x)
    xp = torch.nn.functional.pad(x.double(), (1, 1, 1, 1))
    ref = 4 * x.double() - (xp[:-2, 1:-1] + xp[2:, 1:-1]) - (xp[1:-1, :-2] + xp[1:-1, 2:])
    del xp

    def eager():
        xp = torch.nn.functional.pad(x, (1, 1, 1, 1))
        return 4 * x - (xp[:-2, 1:-1] + xp[2:, 1:-1]) - (xp[1:-1, :-2] + xp[1:-1, 2:])
    errs, tritons, tilecs = {}, {}, {}
    for (bm, bn, nw) in [(16, 128, 4), (32, 128, 4), (8, 256, 4), (32, 256, 8)]:
        for cols in (False, True):
            if cols and (bm, bn) not in [(8, 256), (16, 128)]:
                continue
            label = f"Triton {bm}x{bn}, {nw} warps" + (" cols first" if cols else "")
            if cols:
                fn = (lambda bm, bn, nw: lambda: stencil2d_cols_kernel[(triton.cdiv(N, bn), triton.cdiv(M, bm))](
                    x, y, M, N, BM=bm, BN=bn, num_warps=nw))(bm, bn, nw)
            else:
                fn = (lambda bm, bn, nw: lambda: B.stencil2d_kernel[(triton.cdiv(M, bm), triton.cdiv(N, bn))](
                    x, y, M, N, BM=bm, BN=bn, num_warps=nw))(bm, bn, nw)
            y.fill_(float("nan"))
            if (bm, bn) == (8, 256):
                k = (stencil2d_cols_kernel if cols else B.stencil2d_kernel)[(1, 1)](x, y, M, N, BM=bm, BN=bn, num_warps=nw)
                dump_sass(label, k)
            y.fill_(float("nan"))
            fn()
            B.check_close(wl + " " + label, y, ref, 1e-6)
            tritons[label] = fn
    for prefix, label in STENCIL:
        f = B.tilec_generic(prefix + "stencil2d", [U64, U64, I64, I64])
        fn = (lambda f: lambda: f(x, y, M, N))(f)
        y.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        errs["tilec " + label] = B.check_close(wl + " tilec " + label, y, ref, 1e-6)
        tilecs["tilec " + label] = fn
    for run in range(RUNS):
        print(f"-- run {run + 1}", flush=True)
        B.time_offset_workload(wl, 2 * x.numel() * 4, lambda: y.copy_(x), eager, tritons, tilecs, errs)
    del x, y, ref
    for (M, D) in [(8192, 4096), (4096, 14336)]:
        wl = f"silu_gate {M}x{D} bf16"
        x = torch.randn(M, 2 * D, device=dev, dtype=torch.bfloat16) * 3
        y = torch.empty(M, D, device=dev, dtype=torch.bfloat16)
        xf = x.float()
        ref = torch.nn.functional.silu(xf[:, :D]) * xf[:, D:]
        del xf
        src = torch.empty(M * D * 3 // 2, device=dev, dtype=torch.bfloat16)
        dst = torch.empty_like(src)

        def eager():
            return torch.nn.functional.silu(x[:, :D]) * x[:, D:]
        errs, tritons, tilecs = {}, {}, {}
        for (block, nw) in [(1024, 4), (2048, 8), (4096, 8)]:
            for flat in (False, True):
                label = f"Triton BLOCK={block}, {nw} warps" + (" flat" if flat else "")
                nb = triton.cdiv(D, block)
                if flat:
                    fn = (lambda block, nw, nb: lambda: silu_gate_flat_kernel[(M * nb,)](
                        x, y, D, nb, BLOCK=block, num_warps=nw))(block, nw, nb)
                else:
                    fn = (lambda block, nw: lambda: B.silu_gate_kernel[(M, triton.cdiv(D, block))](
                        x, y, D, BLOCK=block, num_warps=nw))(block, nw)
                y.fill_(float("nan"))
                fn()
                B.check_close(wl + " " + label, y, ref, 1e-2)
                tritons[label] = fn
                if D == 4096 and block >= 2048 and not flat:
                    dump_sass(label, B.silu_gate_kernel[(1, 1)](x, y, D, BLOCK=block, num_warps=nw))
        for prefix, label in SILU:
            f = B.tilec_generic(prefix + "silu_gate", [U64, U64, I64, I64, I64])
            fn = (lambda f: lambda: f(x, y, M, 2 * D, D))(f)
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            errs["tilec " + label] = B.check_close(wl + " tilec " + label, y, ref, 1e-2)
            tilecs["tilec " + label] = fn
        for run in range(RUNS):
            print(f"-- run {run + 1}", flush=True)
            B.time_offset_workload(wl, 3 * M * D * 2, lambda: dst.copy_(src), eager, tritons, tilecs, errs)
        del x, y, ref, src, dst
    sass.close()


main()
