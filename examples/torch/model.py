#!/usr/bin/env python3
"""A small model whose LayerNorm, fused relu(x @ W1 + b1) and softmax are tilec kernels called
as PyTorch custom operators: eager, under torch.compile(fullgraph=True), under
torch.compile(dynamic=True) and replayed from a CUDA graph, each against plain PyTorch.

    ./build.sh                  # tilec --emit=torch for the kernels, into build/
    python3 model.py            # compiles build/*_ops.cpp on first use (cached), then checks

`--ops DIR` names another folder of generated modules, `--library` a prebuilt library of them.
Prints one line per check and 'N passed, N failed'.
"""
import argparse
import importlib
import os
import sys

import torch
import torch.nn.functional as F


class Block(torch.nn.Module):
    """softmax(relu(layernorm(x) @ W1 + b1) @ W2): layernorm, the fused matmul and the softmax
    are tilec ops; the second matmul is PyTorch's, between them."""

    def __init__(self, d=512, hidden=1024, classes=1000, dtype=torch.bfloat16):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        p = lambda *s, scale=1.0: torch.nn.Parameter((torch.randn(*s, generator=g) * scale).to(dtype), requires_grad=False)
        self.ln_w, self.ln_b = p(d, scale=0.1), p(d, scale=0.1)
        with torch.no_grad():
            self.ln_w += 1
        self.w1, self.b1 = p(d, hidden, scale=d ** -0.5), p(hidden, scale=0.1)
        self.w2 = p(hidden, classes, scale=hidden ** -0.5)

    def forward(self, x):
        h, _, _ = torch.ops.layernorm.layernorm(x, self.ln_w, self.ln_b)
        h = torch.ops.matmul_bias_relu.matmul_bias_relu(h, self.w1, self.b1)
        return torch.ops.softmax.softmax(h @ self.w2)

    def reference(self, x):
        """The same in PyTorch, f32 arithmetic, rounded to the model's dtype where the ops round."""
        d = x.dtype
        h = F.layer_norm(x.float(), (x.shape[1],), self.ln_w.float(), self.ln_b.float(), 1e-5).to(d)
        h = torch.relu(h.float() @ self.w1.float() + self.b1.float()).to(d)
        return torch.softmax((h @ self.w2).float(), -1).to(d)


def load_ops(ops_dir, library):
    sys.path.insert(0, ops_dir)
    for name in ("layernorm_ops", "matmul_bias_relu_ops", "softmax_ops"):
        importlib.import_module(name).load(library=library)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default=os.path.join(here, "build"))
    ap.add_argument("--library")
    ap.add_argument("--dtype", default="bfloat16")
    args = ap.parse_args()
    load_ops(args.ops, args.library)
    dtype = getattr(torch, args.dtype)
    results = []

    def check(name, got, want, tol):
        err = ((got.float() - want.float()).abs().max() / want.float().abs().max()).item()
        results.append(err <= tol)
        print(f"{'PASS' if err <= tol else 'FAIL'} model: {name}: rel_err={err:.2e} (tol {tol:g})", flush=True)

    tol = 2e-2 if dtype == torch.bfloat16 else 5e-3
    model = Block(dtype=dtype).cuda()
    x = torch.randn(300, 512, device="cuda").to(dtype)
    eager = model(x)
    check("eager vs PyTorch", eager, model.reference(x), tol)

    torch._dynamo.reset()
    full = torch.compile(model, fullgraph=True)
    check("torch.compile(fullgraph=True) vs eager", full(x), eager, tol)

    torch._dynamo.reset()
    dyn = torch.compile(model, dynamic=True, fullgraph=True)
    for rows in (300, 77, 1029):  # one graph for every batch size
        xr = torch.randn(rows, 512, device="cuda").to(dtype)
        check(f"torch.compile(dynamic=True) batch {rows} vs eager", dyn(xr), model(xr), tol)

    # CUDA graph: load every kernel on this device first; a launch inside capture must not load.
    for name in ("layernorm_ops", "matmul_bias_relu_ops", "softmax_ops"):
        sys.modules[name].load_kernels()
    static_x = x.clone()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        model(static_x)  # warm up on the side stream, as torch.cuda.graphs asks
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_y = model(static_x)
    x2 = torch.randn(300, 512, device="cuda").to(dtype)
    static_x.copy_(x2)
    graph.replay()
    torch.cuda.synchronize()
    check("CUDA graph replay vs eager", static_y, model(x2), tol)

    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
