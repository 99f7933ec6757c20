"""Lead, session 11, call 2: batched_matmul's stage-count isolation (non-persistent with 3
stages, as the persistent grid's TMA-store staging leaves; 128x128 tiles) beside the sample and
torch.bmm, and issue 16's unaligned-rows row: matmul bf16 4096^3 on views whose rows are 4099
elements apart (not 16-byte multiples: the general variant) beside torch.matmul on the same views.
    python3 lead11b.py LIB.so RESULTS.md"""
import ctypes
import statistics
import sys
import torch

sys.path.insert(0, "bench")
import bench  # noqa: E402
from bench import check_close, check_tilec_matmul, interleaved_times, paired_ratio, record, tilec_generic  # noqa

U64, I64 = ctypes.c_uint64, ctypes.c_int64


def table(wl, peer, fns, errs, flops, iters=50):
    times = interleaved_times(fns, iters=iters)
    ms = {k: statistics.median(v) for k, v in times.items()}
    for k in fns:
        note = f"{flops / ms[k] / 1e9:.0f} TFLOP/s"
        if k in errs:
            note += f", {ms[peer] / ms[k]:.3f}x {peer} ({paired_ratio(times, peer, k):.3f}x paired), rel err {errs[k]:.1e}"
        record(wl, k, ms[k], 0, note)


def batched():
    dev = torch.device("cuda")
    batch, n = 32, 2048
    wl = f"batched_matmul {batch} x {n}^3 bf16"
    a = torch.randn(batch, n, n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(batch, n, n, device=dev, dtype=torch.bfloat16)
    c = torch.empty(batch, n, n, device=dev, dtype=torch.bfloat16)
    ref = torch.bmm(a.float(), b.float())
    fns, errs = {"torch.bmm": lambda: torch.bmm(a, b, out=c)}, {}
    for label, prefix in [("tilec 128x256 persistent=False, 4 stages (sample)", "bmm_np_"),
                          ("tilec 128x256 persistent=False, num_stages=3", "bmm_np_s3_"),
                          ("tilec 128x128 persistent=False", "bmm_np128_"),
                          ("tilec 128x256 persistent (3 stages)", "bmm_p_")]:
        f = tilec_generic(prefix + "batched_matmul", [U64] * 3 + [I64] * 4)
        args = (a, b, c, batch, n, n, n)
        errs[label] = check_tilec_matmul(wl + " " + label, f, args, c, ref)
        fns[label] = lambda f=f, args=args: f(*args)
    table(wl, "torch.bmm", fns, errs, 2 * batch * n ** 3)
    del a, b, c, ref


def unaligned():
    dev = torch.device("cuda")
    n, ld = 4096, 4099
    wl = f"matmul bf16 {n}^3, rows {ld} elements apart (unaligned)"
    sa = torch.randn(n, ld, device=dev, dtype=torch.bfloat16)
    sb = torch.randn(n, ld, device=dev, dtype=torch.bfloat16)
    sc = torch.empty(n, ld, device=dev, dtype=torch.bfloat16)
    a, b, c = sa[:, :n], sb[:, :n], sc[:, :n]
    ref = a.float() @ b.float()
    f = getattr(bench.lib, "mmbf_matmul_strided")
    f.restype = ctypes.c_int
    arr = ctypes.c_int64 * 2
    shape, strides = arr(n, n), arr(ld, 1)
    f.argtypes = [ctypes.c_void_p] + [U64, ctypes.c_void_p, ctypes.c_void_p] * 3

    def run():
        r = f(torch.cuda.current_stream().cuda_stream, a.data_ptr(), shape, strides, b.data_ptr(), shape, strides,
              c.data_ptr(), shape, strides)
        if r != 0:
            raise RuntimeError(f"mmbf_matmul_strided returned {r}")
    sc.fill_(float("nan"))
    run()
    torch.cuda.synchronize()
    err = check_close(wl, c, ref, 1e-2)
    pad_ok = torch.isnan(sc[:, n:]).all().item()
    record(wl, "padding columns untouched", 0.0, 0, str(pad_ok))
    dense = tilec_generic("mmbf_matmul", [U64] * 3 + [I64] * 3)
    da, db, dc = a.contiguous(), b.contiguous(), torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    fns = {"torch.matmul on the same views": lambda: torch.matmul(a, b),
           "cuBLAS on contiguous copies (torch.matmul)": lambda: torch.matmul(da, db, out=dc),
           "tilec general variant (strided launch)": run,
           "tilec on contiguous copies (tma_wgmma)": lambda: dense(da, db, dc, n, n, n)}
    errs = {"tilec general variant (strided launch)": err,
            "tilec on contiguous copies (tma_wgmma)": check_tilec_matmul(wl + " dense", dense, (da, db, dc, n, n, n),
                                                                         dc, ref)}
    table(wl, "torch.matmul on the same views", fns, errs, 2 * n ** 3, iters=30)


if __name__ == "__main__":
    torch.manual_seed(int(__import__("time").time()))
    print(torch.cuda.get_device_name(), "torch", torch.__version__)
    for rep in range(2):
        batched()
        unaligned()
    with open(sys.argv[2], "w") as fh:
        fh.write(f"GPU: {torch.cuda.get_device_name()}; torch {torch.__version__}\n\n")
        fh.write("| workload | implementation | ms (median) | notes |\n|---|---|---|---|\n")
        for wl, impl, ms, _, note in bench.rows:
            fh.write(f"| {wl} | {impl} | {ms:.4f} | {note} |\n")
