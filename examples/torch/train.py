#!/usr/bin/env python3
"""An op with autograd: RMSNorm's forward and backward are tilec kernels (rmsnorm_grad.tile),
registered as PyTorch custom operators, with torch.library.register_autograd tying them
together on the functional forward op.

    ./build.sh && python3 train.py

Checks: torch.autograd.gradcheck on the f64 build of the kernels; bf16 gradients against
PyTorch's autograd of F.rms_norm, both measured against an f64 reference; a few optimizer steps
of a model using the op, eager and under torch.compile; torch.library.opcheck on every op
(including the autograd registration). Prints one line per check and 'N passed, N failed'.
"""
import argparse
import os
import sys

import torch
import torch.nn.functional as F

EPS = 1e-6  # rmsnorm_grad.tile's EPS


def register_autograd():
    """dX and dW from the backward kernels; the forward's second output (rrms) is saved for them."""

    def setup_context(ctx, inputs, output):
        X, W = inputs
        _, rrms = output
        ctx.save_for_backward(X, W, rrms)

    def backward(ctx, dY, _drrms):
        X, W, rrms = ctx.saved_tensors
        dX = torch.ops.rmsnorm_grad.rmsnorm_bwd_x(X, W, rrms, dY) if ctx.needs_input_grad[0] else None
        dW = torch.ops.rmsnorm_grad.rmsnorm_bwd_w(X, rrms, dY) if ctx.needs_input_grad[1] else None
        return dX, dW

    torch.library.register_autograd("rmsnorm_grad::rmsnorm_fwd", backward, setup_context=setup_context)


def rmsnorm(x, w):
    """y = x * rsqrt(mean(x^2) + EPS) * w over the last axis, for 2-D x."""
    return torch.ops.rmsnorm_grad.rmsnorm_fwd(x, w)[0]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default=os.path.join(here, "build"))
    ap.add_argument("--library")
    args = ap.parse_args()
    sys.path.insert(0, args.ops)
    import rmsnorm_grad_ops
    rmsnorm_grad_ops.load(library=args.library)
    register_autograd()
    results = []

    def check(name, ok, detail=""):
        results.append(bool(ok))
        print(f"{'PASS' if ok else 'FAIL'} autograd: {name} {detail}", flush=True)

    # gradcheck: finite differences of the f64 build against its backward kernels.
    x = torch.randn(13, 200, device="cuda", dtype=torch.float64, requires_grad=True)
    w = torch.randn(200, device="cuda", dtype=torch.float64, requires_grad=True)
    check("gradcheck f64", torch.autograd.gradcheck(rmsnorm, (x, w), eps=1e-6, atol=1e-8, rtol=1e-6))

    # bf16: our gradients and PyTorch's autograd of F.rms_norm in bf16, each against f64.
    torch.manual_seed(0)
    x64 = torch.randn(64, 1000, device="cuda", dtype=torch.float64)
    w64 = torch.randn(1000, device="cuda", dtype=torch.float64)
    dy64 = torch.randn(64, 1000, device="cuda", dtype=torch.float64)

    def grads(fn, dtype):
        xx = x64.to(dtype).clone().requires_grad_()
        ww = w64.to(dtype).clone().requires_grad_()
        fn(xx, ww).backward(dy64.to(dtype))
        return xx.grad.double(), ww.grad.double()

    ref = grads(lambda a, b: F.rms_norm(a, (a.shape[1],), b, EPS), torch.float64)
    ours = grads(rmsnorm, torch.bfloat16)
    theirs = grads(lambda a, b: F.rms_norm(a, (a.shape[1],), b, EPS), torch.bfloat16)
    for name, o, t, r in (("dX", ours[0], theirs[0], ref[0]), ("dW", ours[1], theirs[1], ref[1])):
        e_ours = ((o - r).norm() / r.norm()).item()
        e_torch = ((t - r).norm() / r.norm()).item()
        check(f"bf16 {name} vs f64", e_ours <= max(2 * e_torch, 1e-2),
              f"rel. error {e_ours:.2e}, PyTorch's bf16 autograd {e_torch:.2e}")

    # Training steps, eager and compiled: the loss goes down the same way.
    def train(compiled):
        torch.manual_seed(1)
        lin = torch.nn.Linear(256, 256, device="cuda")
        w = torch.nn.Parameter(torch.ones(256, device="cuda"))
        data, target = torch.randn(512, 256, device="cuda"), torch.randn(512, 256, device="cuda")
        opt = torch.optim.SGD([w, *lin.parameters()], lr=0.1)

        def step():
            opt.zero_grad()
            loss = F.mse_loss(lin(rmsnorm(data, w)), target)
            loss.backward()
            return loss

        fn = torch.compile(step) if compiled else step
        losses = []
        for _ in range(5):
            losses.append(fn().item())
            opt.step()
        return losses

    eager, compiled = train(False), train(True)
    check("training loss decreases (eager)", eager[-1] < eager[0], f"{eager[0]:.4f} -> {eager[-1]:.4f}")
    check("torch.compile training matches eager", max(abs(a - b) for a, b in zip(eager, compiled)) < 1e-4,
          f"{compiled[0]:.4f} -> {compiled[-1]:.4f}")

    # opcheck on every op, the forward with inputs that require grad (tests the autograd registration).
    xs = torch.randn(8, 100, device="cuda", requires_grad=True)
    ws = torch.randn(100, device="cuda", requires_grad=True)
    y, rrms = torch.ops.rmsnorm_grad.rmsnorm_fwd(xs.detach(), ws.detach())
    dy = torch.randn_like(y)
    for name, op, a in (
            ("rmsnorm_fwd", torch.ops.rmsnorm_grad.rmsnorm_fwd.default, (xs, ws)),
            ("rmsnorm_fwd.out", torch.ops.rmsnorm_grad.rmsnorm_fwd.out,
             (xs.detach(), ws.detach(), torch.empty_like(y), torch.empty_like(rrms))),
            ("rmsnorm_bwd_x", torch.ops.rmsnorm_grad.rmsnorm_bwd_x.default, (xs.detach(), ws.detach(), rrms, dy)),
            ("rmsnorm_bwd_w", torch.ops.rmsnorm_grad.rmsnorm_bwd_w.default, (xs.detach(), rrms, dy))):
        try:
            torch.library.opcheck(op, a)
            check(f"opcheck {name}", True)
        except Exception as e:  # noqa: BLE001
            check(f"opcheck {name}", False, f"{type(e).__name__}: {str(e).splitlines()[0][:200]}")

    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
