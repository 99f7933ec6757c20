"""Lead, session 14, call 4: TMA boxes at element offsets cost what boxes at tile indices cost.
samples/matmul.tile (bf16, tile indices) beside mm_offsets.tile (the same kernel with both
operands at element offsets) and cuBLAS (torch.matmul), interleaved rounds (bench.py's
interleaved_times), medians, TFLOP/s; every output checked against torch first (A's rows
shifted by s for mm_offsets: 0 outside A).
    probe8.py LIB ROUNDS"""
import ctypes
import statistics
import sys

LIB, ROUNDS = sys.argv[1], int(sys.argv[2])
sys.argv = [sys.argv[0], LIB, "/dev/null"]
sys.path.insert(0, "bench")
import bench as B  # noqa: E402
import torch  # noqa: E402

U64, I64 = ctypes.c_uint64, ctypes.c_int64
lib = ctypes.CDLL(LIB)
mm_index = lib.matmul
mm_index.argtypes = [ctypes.c_void_p, U64, U64, U64, I64, I64, I64]
mm_off = lib.mm_offsets
mm_off.argtypes = [ctypes.c_void_p, U64, U64, U64, I64, I64, I64, I64, I64]
stream = lambda: torch.cuda.current_stream().cuda_stream  # noqa: E731
for (M, N, K) in [(4096, 4096, 4096), (8192, 8192, 8192), (1000, 3000, 520)]:
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    ref = (a.float() @ b.float())
    for label, fn in [("index", lambda: mm_index(stream(), a.data_ptr(), b.data_ptr(), c.data_ptr(), M, K, N)),
                      ("offsets s=0", lambda: mm_off(stream(), a.data_ptr(), b.data_ptr(), c.data_ptr(), M, K, N, M, 0))]:
        c.fill_(float("nan"))
        r = fn()
        torch.cuda.synchronize()
        assert r == 0, (label, r)
        B.check_close(f"{M}x{N}x{K} {label}", c, ref, 1e-2)
    for s in (-37, 501):
        shifted = torch.zeros(M, K, device="cuda", dtype=torch.float32)
        lo, hi = max(0, -s), min(M, M - s)
        shifted[lo:hi] = a.float()[lo + s:hi + s]
        c.fill_(float("nan"))
        assert mm_off(stream(), a.data_ptr(), b.data_ptr(), c.data_ptr(), M, K, N, M, s) == 0
        torch.cuda.synchronize()
        err = B.check_close(f"{M}x{N}x{K} offsets s={s}", c, shifted @ b.float(), 1e-2)
        print(f"{M}x{N}x{K} offsets s={s}: rel err {err:.2e}")
    fns = {"cublas": lambda: torch.matmul(a, b, out=c),
           "tilec index": lambda: mm_index(stream(), a.data_ptr(), b.data_ptr(), c.data_ptr(), M, K, N),
           "tilec offsets": lambda: mm_off(stream(), a.data_ptr(), b.data_ptr(), c.data_ptr(), M, K, N, M, 0)}
    t = B.interleaved_times(fns, iters=ROUNDS)
    flop = 2 * M * N * K
    line = f"{M}x{N}x{K}: " + ", ".join(f"{k} {flop / statistics.median(v) / 1e9:.0f} TFLOP/s" for k, v in t.items())
    r = [x / y for x, y in zip(t["tilec index"], t["tilec offsets"])]
    print(line + f"; index / offsets per round: {statistics.median(r):.4f}", flush=True)
    del a, b, c, ref
