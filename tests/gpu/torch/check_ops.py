#!/usr/bin/env python3
"""GPU checks of the --emit=torch ops of every sample (tests/gpu/torch/run.sh builds them).

    python3 check_ops.py EXT_DIR [--json OUT.json]

EXT_DIR holds libtilec_torch_ops.so (every sample's generated .cpp in one library) and the
generated *_ops.py modules. For each op: the functional and the out form against a PyTorch
reference on fresh random inputs, contiguous and strided (transposed or sliced views, which take
the header's general variant); torch.library.opcheck on both forms (first dtype); the error paths (wrong
dtype, a CPU tensor, mismatched extents, aliased outputs, an expanded output, a launch the
header refuses) give the documented message and leave the outputs untouched. Prints one line per
check and a final 'N passed, N failed'.
"""
import argparse
import importlib
import json
import math
import os
import sys
import time
import traceback

import torch
import torch.nn.functional as F

DEV = "cuda"
RESULTS = []  # (group, name, ok, detail)


def record(group, name, ok, detail=""):
    RESULTS.append({"group": group, "name": name, "ok": bool(ok), "detail": detail})
    print(f"{'PASS' if ok else 'FAIL'} {group}: {name} {detail}", flush=True)


# Relative error tolerances: max |out - ref| / max |ref|.
TOL = {torch.float32: 2e-5, torch.float16: 4e-3, torch.bfloat16: 2e-2, torch.int32: 0, torch.int64: 0}


def rel_err(out, ref):
    out, ref = out.double(), ref.double()
    scale = ref.abs().max().item() if ref.numel() else 0.0
    return (out - ref).abs().max().item() / max(scale, 1e-30) if ref.numel() else 0.0


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, device=DEV, dtype=torch.float32).to(dtype)


def strided(t, kind="slice"):
    """The same values as a non-contiguous view: every other column of a wider tensor
    ('slice'), or the transpose of a contiguous transpose ('t', 2-D)."""
    if kind == "t" and t.dim() == 2:
        return t.t().contiguous().t()
    wide = torch.empty(*t.shape[:-1], t.shape[-1] * 2, device=t.device, dtype=t.dtype)
    view = wide[..., ::2]
    view.copy_(t)
    return view


# ---- the cases: (op, make inputs(dtype, strided) -> args, reference(args) -> outputs, dtypes) ----

def mm_inputs(M, N, K, dtype, s, bt=False):
    if dtype == torch.int8:
        A = torch.randint(-8, 8, (M, K), device=DEV, dtype=torch.int8)
        B = torch.randint(-8, 8, ((N, K) if bt else (K, N)), device=DEV, dtype=torch.int8)
    else:
        A, B = randn(M, K, dtype=dtype), randn(*((N, K) if bt else (K, N)), dtype=dtype)
    if s:
        A, B = strided(A, "t"), strided(B, "t")
    return A, B


def cases():
    ops = torch.ops
    c = []
    # name, op namespace object, functional args maker, reference, dtypes, out-arg maker
    c.append(dict(name="vector_add", op=ops.vector_add.vector_add, dtypes=[torch.float32],
                  make=lambda dt, s: tuple(strided(randn(100003)) if s else randn(100003) for _ in range(2)),
                  ref=lambda a, b: a + b))
    c.append(dict(name="gelu_bias", op=ops.gelu_bias.gelu_bias, dtypes=[torch.float32],
                  make=lambda dt, s: tuple(strided(randn(5000)) if s else randn(5000) for _ in range(3)),
                  ref=lambda x, w, b: F.gelu(x * w + b, approximate="tanh")))
    c.append(dict(name="softmax", op=ops.softmax.softmax, dtypes=[torch.float16, torch.bfloat16, torch.float32],
                  make=lambda dt, s: ((strided(randn(37, 1000, dtype=dt), "t") if s else randn(37, 1000, dtype=dt) * 4),),
                  ref=lambda x: torch.softmax(x.float(), -1).to(x.dtype)))

    def ln_ref(X, W, B):
        x = X.float()
        mean = x.mean(1)
        rstd = torch.rsqrt(x.var(1, unbiased=False) + 1e-5)
        return (F.layer_norm(x, (X.shape[1],), W.float(), B.float(), 1e-5).to(X.dtype), mean, rstd)
    ln_make = lambda dt, s: ((strided(randn(33, 777, dtype=dt), "t") if s else randn(33, 777, dtype=dt)),
                             randn(777, dtype=dt), randn(777, dtype=dt))
    for k in ("layernorm", "layernorm_long"):
        c.append(dict(name=k, op=getattr(ops.layernorm, k), dtypes=[torch.float16, torch.bfloat16, torch.float32],
                      make=ln_make, ref=ln_ref))

    def rms_ref(X, W):
        x = X.float()
        return (x * torch.rsqrt((x * x).mean(1, keepdim=True) + 1e-6) * W.float()).to(X.dtype)
    for k in ("rmsnorm", "rmsnorm_long"):
        c.append(dict(name=k, op=getattr(ops.rmsnorm, k), dtypes=[torch.float16, torch.bfloat16, torch.float32],
                      make=lambda dt, s: ((strided(randn(29, 1500, dtype=dt)) if s else randn(29, 1500, dtype=dt)),
                                          randn(1500, dtype=dt)), ref=rms_ref))

    def mm_ref(A, B):
        if A.dtype == torch.int8:
            return (A.double() @ B.double()).to(torch.int32)
        return (A.float() @ B.float()).to(A.dtype)
    c.append(dict(name="matmul", op=ops.matmul.matmul, dtypes=[torch.float16, torch.bfloat16, torch.float32, torch.int8],
                  make=lambda dt, s: mm_inputs(200, 136, 72, dt, s), ref=mm_ref,
                  tol={torch.float32: 5e-3}))  # f32 runs on tf32 tensor cores
    c.append(dict(name="matmul_bias_relu", op=ops.matmul_bias_relu.matmul_bias_relu,
                  dtypes=[torch.float16, torch.bfloat16],
                  make=lambda dt, s: mm_inputs(200, 136, 72, dt, s) + (randn(136, dtype=dt),),
                  ref=lambda A, B, b: torch.relu(A.float() @ B.float() + b.float()).to(A.dtype)))
    c.append(dict(name="matmul_bt", op=ops.matmul_bt.matmul_bt, dtypes=[torch.float16, torch.bfloat16],
                  make=lambda dt, s: mm_inputs(200, 136, 72, dt, s, bt=True),
                  ref=lambda A, B: (A.float() @ B.float().t()).to(A.dtype)))
    c.append(dict(name="batched_matmul", op=ops.batched_matmul.batched_matmul, dtypes=[torch.float16, torch.bfloat16],
                  make=lambda dt, s: ((randn(3, 130, 72, dtype=dt), randn(3, 72, 66, dtype=dt)) if not s else
                                      (strided(randn(3, 130, 72, dtype=dt)), strided(randn(3, 72, 66, dtype=dt)))),
                  ref=lambda A, B: torch.bmm(A.float(), B.float()).to(A.dtype)))
    # attention: Q [B, H, S, D] on grouped K/V heads [B, HK, S, D] (H = 4, HK = 2); "strided": the
    # transposed views of PyTorch's [B, S, H, D] tensors. attention_lse also returns the natural
    # log-sum-exp of each row's scaled scores, [B, H, S].
    def att_make(dt, s):
        def one(heads):
            return randn(2, 200, heads, 64, dtype=dt).transpose(1, 2) if s else randn(2, heads, 200, 64, dtype=dt)
        return one(4), one(2), one(2), 0.125

    def att_ref(Q, K, V, sc, lse=False):
        o = F.scaled_dot_product_attention(Q.float(), K.float(), V.float(), scale=sc, enable_gqa=True).to(Q.dtype)
        if not lse:
            return o
        k = K.double().repeat_interleave(Q.shape[1] // K.shape[1], dim=1)
        return o, torch.logsumexp(Q.double() @ k.transpose(-1, -2) * sc, dim=-1)
    c.append(dict(name="attention", op=ops.attention.attention, dtypes=[torch.float16, torch.bfloat16],
                  make=att_make, ref=att_ref))
    c.append(dict(name="attention_lse", op=ops.attention.attention_lse, dtypes=[torch.float16, torch.bfloat16],
                  make=att_make, ref=lambda Q, K, V, sc: att_ref(Q, K, V, sc, lse=True)))
    c.append(dict(name="cumsum_rows", op=ops.cumsum_rows.cumsum_rows, dtypes=[torch.float32],
                  make=lambda dt, s: ((strided(randn(45, 3000)) if s else randn(45, 3000)),),
                  ref=lambda X: X.double().cumsum(1), tol={torch.float32: 1e-5}))
    c.append(dict(name="sum_rows", op=ops.sum_rows.sum_rows, dtypes=[torch.float32],
                  make=lambda dt, s: ((strided(randn(45, 3000), "t") if s else randn(45, 3000)),),
                  ref=lambda X: X.double().sum(1), tol={torch.float32: 1e-5}))
    c.append(dict(name="embedding_gather", op=ops.embedding_gather.embedding_gather,
                  dtypes=[torch.float32, torch.float16, torch.bfloat16],
                  make=lambda dt, s: ((strided(randn(500, 300, dtype=dt)) if s else randn(500, 300, dtype=dt)),
                                      torch.randint(0, 500, (77,), device=DEV, dtype=torch.int32)),
                  ref=lambda T, ids: T[ids.long()]))
    for k in ("transpose", "transpose_tiles"):
        c.append(dict(name=k, op=getattr(ops.transpose, k), dtypes=[torch.float32, torch.float16, torch.bfloat16],
                      make=lambda dt, s: ((strided(randn(300, 170, dtype=dt), "t") if s else randn(300, 170, dtype=dt)),),
                      ref=lambda x: x.t().contiguous(), tol={torch.float32: 0, torch.float16: 0, torch.bfloat16: 0}))
    return c


def as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def check_case(case):
    name, op = case["name"], case["op"]
    for dt in case["dtypes"]:
        tol = case.get("tol", {}).get(dt, TOL.get(dt, 0))
        for s in (False, True):
            tag = f"{name} {str(dt).replace('torch.', '')} {'strided' if s else 'contiguous'}"
            try:
                torch.manual_seed(len(RESULTS))
                args = case["make"](dt, s)
                refs = as_tuple(case["ref"](*args))
                outs = as_tuple(op(*args))
                errs = [rel_err(o, r) for o, r in zip(outs, refs)]
                shapes_ok = all(o.shape == r.shape and o.dtype == (r.dtype if r.dtype != torch.float64 else o.dtype)
                                for o, r in zip(outs, refs))
                # The out form into fresh outputs (strided ones when s) gives the same values.
                outs2 = tuple(strided(torch.full_like(o, float("nan") if o.is_floating_point() else -7), "slice")
                              if s else torch.full_like(o, float("nan") if o.is_floating_point() else -7) for o in outs)
                op.out(*_with_outputs(op, args, outs2))
                errs2 = [rel_err(o, r) for o, r in zip(outs2, refs)]
                ok = shapes_ok and max(errs + errs2) <= tol
                record("correctness", tag, ok, f"rel_err={max(errs + errs2):.2e} (tol {tol:g})")
            except Exception as e:  # noqa: BLE001
                record("correctness", tag, False, f"{type(e).__name__}: {e}".splitlines()[0][:300])
        # opcheck on both forms (contiguous inputs), once per op: schema, fake implementation
        # and functionalization do not depend on the build.
        if dt != case["dtypes"][0]:
            continue
        try:
            torch.manual_seed(1)
            args = case["make"](dt, False)
            torch.library.opcheck(op.default, args)
            outs = tuple(torch.empty_like(o) for o in as_tuple(op(*args)))
            torch.library.opcheck(op.out, _with_outputs(op, args, outs))
            record("opcheck", f"{name} {str(dt).replace('torch.', '')}", True)
        except Exception as e:  # noqa: BLE001
            record("opcheck", f"{name} {str(dt).replace('torch.', '')}", False,
                   f"{type(e).__name__}: {e}".splitlines()[0][:300])


def _with_outputs(op, args, outs):
    """The out form's arguments: the functional form's arguments with the outputs put back at
    their places in the kernel's parameter list (from the out schema)."""
    schema = op.out._schema
    args, outs = list(args), list(outs)
    full = []
    for a in schema.arguments:
        is_out = a.alias_info is not None and a.alias_info.is_write
        full.append(outs.pop(0) if is_out else args.pop(0))
    return tuple(full)


def check_histogram():
    x = torch.randn(1 << 20, device=DEV)
    lo, hi, nbins = -3.0, 3.0, 256
    scale = torch.tensor(nbins, dtype=torch.float32) / (torch.tensor(hi, dtype=torch.float32) -
                                                        torch.tensor(lo, dtype=torch.float32))
    inside = (x >= lo) & (x < hi)
    b = torch.minimum(torch.floor((x - lo) * scale.to(DEV)).to(torch.int64), torch.tensor(nbins - 1, device=DEV))
    ref = torch.bincount(b[inside], minlength=nbins).to(torch.int32)
    for k in ("histogram", "histogram_atomic"):
        op = getattr(torch.ops.histogram, k)
        for s in (False, True):
            xs = strided(x) if s else x
            bins = torch.zeros(nbins, device=DEV, dtype=torch.int32)
            op.out(xs, bins, lo, hi)
            op.out(xs, bins, lo, hi)  # launches accumulate
            # Values within an ulp of a bin edge may fall either way between this f32 replica
            # of the kernel's arithmetic and the kernel: allow a few in a million.
            diff = (bins - 2 * ref).abs().sum().item()
            record("correctness", f"{k} f32 {'strided' if s else 'contiguous'}", diff <= 2 * x.numel() // 10**5,
                   f"bins differing by {diff} counts in total of {2 * x.numel()}")
        try:
            bins = torch.zeros(nbins, device=DEV, dtype=torch.int32)
            torch.library.opcheck(op.out, (x[:4096], bins, lo, hi))
            record("opcheck", f"{k}.out f32", True)
        except Exception as e:  # noqa: BLE001
            record("opcheck", f"{k}.out f32", False, f"{type(e).__name__}: {e}".splitlines()[0][:300])


def expect_error(tag, fn, fragment, untouched=()):
    """`fn` raises RuntimeError containing `fragment`, and the tensors in `untouched` keep their
    values (nothing was launched)."""
    before = [t.clone() for t in untouched]
    try:
        fn()
        torch.cuda.synchronize()
        record("errors", tag, False, "no error")
        return
    except RuntimeError as e:
        msg = str(e)
    torch.cuda.synchronize()
    same = all(torch.equal(a, b) or (a.is_floating_point() and torch.equal(a.isnan(), b.isnan()) and
                                     torch.equal(a.nan_to_num(), b.nan_to_num())) for a, b in zip(untouched, before))
    record("errors", tag, fragment in msg and same, f"message: {msg.splitlines()[0][:240]!r}" +
           ("" if same else " (an output changed)"))


def check_errors():
    va = torch.ops.vector_add.vector_add
    a, b = randn(1000), randn(1000)
    c = torch.full((1000,), 7.0, device=DEV)
    expect_error("wrong dtype", lambda: va.out(a.double(), b, c),
                 "vector_add::vector_add.out (tilec kernel 'vector_add'): argument 'a' must have dtype torch.float32 "
                 "(the kernel's f32), got torch.float64", [c])
    expect_error("CPU tensor", lambda: va.out(a, b.cpu(), c),
                 "argument 'b' must be a CUDA tensor, got one on cpu", [c])
    expect_error("all CPU (CPU dispatch key)", lambda: va(a.cpu(), b.cpu()), "argument 'a' must be a CUDA tensor")
    expect_error("mismatched extents", lambda: va.out(a, b[:999], c),
                 "extent 0 of argument 'b' [n] is 999, but extent 0 of argument 'a' [n] is 1000: both are the "
                 "dimension symbol n", [c])
    expect_error("wrong rank", lambda: va.out(a.view(10, 100), b, c), "argument 'a' must have 1 dimensions [n], got 2", [c])
    expect_error("expanded output", lambda: va.out(a, b, torch.zeros(1, device=DEV).expand(1000)),
                 "argument 'c' is written by the kernel, but its dimension 0 has stride 0")
    ln = torch.ops.layernorm.layernorm
    X, W = randn(8, 64, dtype=torch.float16), randn(64, dtype=torch.float16)
    Y = torch.full((8, 64), 3.0, device=DEV, dtype=torch.float16)
    stats = torch.full((16,), 5.0, device=DEV)
    expect_error("aliased outputs", lambda: ln.out(X, W, W, Y, stats[:8], stats[4:12]),
                 "argument 'Mean' and argument 'Rstd' are both written by the kernel and overlap in memory", [Y, stats])
    expect_error("partial overlap of input and output", lambda: va.out(c[:999], b[:999], c[1:]),
                 "argument 'c' is written by the kernel and partially overlaps argument 'a'", [c])
    expect_error("dtype of another build", lambda: ln(X, W.bfloat16(), W),
                 "argument 'W' must have dtype torch.float16 (the kernel's f16 in the build T=f16), got torch.bfloat16")
    expect_error("dtype no build has", lambda: ln(X.double(), W, W),
                 "argument 'X' must have dtype torch.float16 (the kernel's f16 in the build T=f16) or torch.bfloat16")
    expect_error("fnuz float8", lambda: torch.ops.softmax.softmax(torch.zeros(4, 8, device=DEV, dtype=torch.float8_e4m3fnuz)),
                 "got torch.float8_e4m3fnuz; the fnuz float8 types (another exponent bias, one NaN) are not the kernel's")
    expect_error("constant extent",
                 lambda: torch.ops.attention.attention(*(randn(1, 2, 16, 32, dtype=torch.float16),) * 3, 1.0),
                 "extent 3 of argument 'Q' [B, H, S, 64] must be 64 (a constant of the kernel's signature), got 32")
    q = randn(1, 70000, 1, 64, dtype=torch.float16)
    out = torch.full_like(q, 2.0)
    expect_error("launch refused by the header (grid y > 65535)", lambda: torch.ops.attention.attention.out(q, q, q, out, 1.0),
                 "the launch failed with CUDA_ERROR_INVALID_VALUE", [out])
    # In-place (the same view read and written) is allowed.
    c2 = a.clone()
    va.out(c2, b, c2)
    record("errors", "in-place call (same view) is accepted", torch.allclose(c2, a + b))
    # Empty tensors launch nothing and succeed.
    e = va(randn(0), randn(0))
    record("errors", "empty tensors", e.shape == (0,))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("ext")
    p.add_argument("--json")
    args = p.parse_args()
    sys.path.insert(0, args.ext)
    lib = os.path.join(args.ext, "libtilec_torch_ops.so")
    t0 = time.time()
    for f in sorted(os.listdir(args.ext)):
        if f.endswith("_ops.py"):
            importlib.import_module(f[:-3]).load(library=lib)
    print(f"loaded in {time.time() - t0:.2f} s on {torch.cuda.get_device_name()}, torch {torch.__version__}")
    for case in cases():
        check_case(case)
    check_histogram()
    check_errors()
    passed = sum(r["ok"] for r in RESULTS)
    failed = len(RESULTS) - passed
    if args.json:
        with open(args.json, "w") as f:
            json.dump(RESULTS, f, indent=1)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
