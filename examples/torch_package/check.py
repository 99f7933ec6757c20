#!/usr/bin/env python3
"""Checks the installed tile_ops_example on a GPU: each op against PyTorch for every dtype it
was built for, contiguous and strided inputs, both forms (functional and .out);
torch.library.opcheck on both forms of each op and dtype; the ops under torch.compile
(fullgraph); that the package's modules did not import tilec. Prints one line per check and
'N passed, N failed'; exits 1 when any failed.

    python3 check.py
"""
import sys

import torch
import torch.nn.functional as F

import tile_ops_example  # noqa: F401  (loads the ops)

DTYPES = (torch.float16, torch.bfloat16, torch.float32)
TOL = {torch.float32: 2e-5, torch.float16: 4e-3, torch.bfloat16: 2e-2}  # max |out - ref| / max |ref|
results = []


def record(name, ok, detail=""):
    results.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {name} {detail}", flush=True)


def rel_err(out, ref):
    return ((out.double() - ref.double()).abs().max() / ref.double().abs().max().clamp_min(1e-30)).item()


def randn(*shape, dtype):
    return torch.randn(*shape, device="cuda").to(dtype)


def every_other_column(t):
    """The same values as a non-contiguous view (every other column of a wider tensor)."""
    wide = torch.empty(*t.shape[:-1], 2 * t.shape[-1], device=t.device, dtype=t.dtype)
    wide[..., ::2].copy_(t)
    return wide[..., ::2]


def rms_norm_ref(X, W):
    x = X.float()
    return (x * torch.rsqrt((x * x).mean(1, keepdim=True) + 1e-6) * W.float()).to(X.dtype)


CASES = [
    ("silu_mul", torch.ops.silu_mul.silu_mul, lambda dt: (randn(37, 3000, dtype=dt), randn(37, 3000, dtype=dt)),
     lambda g, u: (F.silu(g.float()) * u.float()).to(g.dtype)),
    ("rms_norm", torch.ops.rms_norm.rms_norm, lambda dt: (randn(29, 1500, dtype=dt), randn(1500, dtype=dt)),
     rms_norm_ref),
]

for name, op, make, ref in CASES:
    for dt in DTYPES:
        tag = f"{name} {str(dt).replace('torch.', '')}"
        torch.manual_seed(0)
        args = make(dt)
        for kind, call_args in (("contiguous", args), ("strided", (every_other_column(args[0]),) + args[1:])):
            err = rel_err(op(*call_args), ref(*call_args))
            record(f"{tag} {kind}", err <= TOL[dt], f"rel err {err:.2e}")
        out = torch.empty_like(args[0])
        op.out(*args, out)
        err = rel_err(out, ref(*args))
        record(f"{tag} .out", err <= TOL[dt], f"rel err {err:.2e}")
        try:
            torch.library.opcheck(op.default, args)
            torch.library.opcheck(op.out, args + (torch.empty_like(args[0]),))
            record(f"{tag} opcheck", True)
        except Exception as e:  # noqa: BLE001
            record(f"{tag} opcheck", False, f"{type(e).__name__}: {e}".splitlines()[0][:300])

# A small MLP block through torch.compile: RMSNorm, then the gated activation.
def block(x, w, up):
    h = torch.ops.rms_norm.rms_norm(x, w)
    return torch.ops.silu_mul.silu_mul(h, up)


x, w, up = randn(64, 1024, dtype=torch.bfloat16), randn(1024, dtype=torch.bfloat16), randn(64, 1024, dtype=torch.bfloat16)
expected = (F.silu(rms_norm_ref(x, w).float()) * up.float()).to(torch.bfloat16)
err = rel_err(torch.compile(block, fullgraph=True)(x, w, up), expected)
record("torch.compile(fullgraph=True) block bf16", err <= 3e-2, f"rel err {err:.2e}")
record("tilec not imported at run time", "tilec" not in sys.modules)

failed = results.count(False)
print(f"{len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
