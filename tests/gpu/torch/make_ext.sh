#!/usr/bin/env bash
# Builds the library the PyTorch GPU checks load: tilec --emit=torch for every sample (one op per
# kernel over the dtype builds each sample documents) and for examples/torch/rmsnorm_grad.tile,
# plus bench/torch/overhead_ops.cpp, compiled into one libtilec_torch_ops.so beside the generated
# Python modules. Needs tilec and a PyTorch install (headers and libraries, no GPU); the library
# targets the stable ABI of PyTorch 2.10, so it loads into 2.10 and later.
#   tests/gpu/torch/make_ext.sh OUTDIR [TILEC]        (PYTHON names the interpreter with torch)
set -euo pipefail
out=$1
tilec=${2:-build/tilec}
py=${PYTHON:-python3}
cuda=${CUDA_PATH:-/usr/local/cuda}
mkdir -p "$out"
gen() { "$tilec" "samples/$1.tile" --emit=torch -o "$out/$1_ops.cpp" "${@:2}"; }
gen vector_add
gen gelu_bias
gen softmax --dispatch T=f16,bf16,f32
gen layernorm --dispatch T=f16,bf16,f32
gen rmsnorm --dispatch T=f16,bf16,f32
# The tensor-core samples with both code paths (tma_wgmma on a 9.0 device, portable elsewhere).
gen matmul --dispatch T=f16,bf16,f32,i8 -arch sm_90a -arch sm_80
gen matmul_bias_relu --dispatch T=f16,bf16 -arch sm_90a -arch sm_80
gen matmul_bt --dispatch T=f16,bf16 -arch sm_90a -arch sm_80
gen batched_matmul --dispatch T=f16,bf16 -arch sm_90a -arch sm_80
gen attention --dispatch T=f16,bf16
gen cumsum_rows
gen sum_rows
gen embedding_gather --dispatch T=f32,f16,bf16
gen histogram
gen transpose --dispatch T=f32,f16,bf16
"$tilec" examples/torch/rmsnorm_grad.tile --emit=torch --dispatch T=f32,bf16,f64 -o "$out/rmsnorm_grad_ops.cpp"
"$tilec" samples/vector_add.tile --prefix bench_ -o "$out/bench_vector_add.h"
cp bench/torch/overhead_ops.cpp "$out/"

inc=$("$py" -c 'import torch.utils.cpp_extension as c; print(" ".join("-I" + p for p in c.include_paths()))')
libdir=$("$py" -c 'import torch.utils.cpp_extension as c; print(c.library_paths()[0])')
export inc cuda out
ls "$out"/*.cpp | xargs -P "$(nproc)" -I{} sh -c \
  'g++ -std=c++17 -O2 -fPIC -Wall -c $inc -I"$cuda/include" -I"$out" "{}" -o "{}.o"'
g++ -shared -o "$out/libtilec_torch_ops.so" "$out"/*.cpp.o -L"$libdir" -ltorch -L"$cuda/lib64/stubs" -lcuda
rm -f "$out"/*.cpp.o
echo "built $out/libtilec_torch_ops.so"
