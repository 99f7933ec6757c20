#!/usr/bin/env bash
# Generates the example's PyTorch ops into build/ (model.py and train.py compile them on first
# use through each module's load()). TILEC names the compiler (default: tilec, else the
# repository's build/tilec).
#   examples/torch/build.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tilec=${TILEC:-$(command -v tilec || echo "$repo/build/tilec")}
mkdir -p "$here/build"
"$tilec" "$repo/samples/layernorm.tile" --emit=torch --dispatch T=f16,bf16 -o "$here/build/layernorm_ops.cpp"
"$tilec" "$repo/samples/matmul_bias_relu.tile" --emit=torch --dispatch T=f16,bf16 -o "$here/build/matmul_bias_relu_ops.cpp"
"$tilec" "$repo/samples/softmax.tile" --emit=torch --dispatch T=f16,bf16,f32 -o "$here/build/softmax_ops.cpp"
"$tilec" "$here/rmsnorm_grad.tile" --emit=torch --dispatch T=f32,bf16,f64 -o "$here/build/rmsnorm_grad_ops.cpp"
echo "generated $here/build/{layernorm,matmul_bias_relu,softmax,rmsnorm_grad}_ops.{cpp,py}"
