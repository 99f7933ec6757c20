#!/usr/bin/env bash
# Runs the PyTorch ops' GPU checks on a machine with an NVIDIA GPU and PyTorch, from the
# repository root, on the folder tests/gpu/torch/make_ext.sh built: every sample's ops
# (check_ops.py), the examples/torch model and autograd example, then the overhead benchmark
# alone on the GPU. Logs and JSON go to $OUT.
#   tests/gpu/torch/run.sh EXTDIR
set -uo pipefail
ext=$1
out=${OUT:-/tmp/tilec-torch}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/gpu.txt" 2>&1
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' >> "$out/gpu.txt" 2>&1
lib=$ext/libtilec_torch_ops.so
status=0
# A library built elsewhere must load here; if it does not (an older C library), build it here
# from the generated sources beside it.
if python3 -c "import torch, sys; torch.ops.load_library(sys.argv[1])" "$lib" > "$out/load.log" 2>&1; then
  echo "prebuilt $lib loads" | tee -a "$out/load.log"
else
  echo "prebuilt $lib does not load; rebuilding here" | tee -a "$out/load.log"
  inc=$(python3 -c 'import torch.utils.cpp_extension as c; print(" ".join("-I" + p for p in c.include_paths()))')
  libdir=$(python3 -c 'import torch.utils.cpp_extension as c; print(c.library_paths()[0])')
  cuda=$(python3 -c 'import torch.utils.cpp_extension as c; print(c.CUDA_HOME or "/usr/local/cuda")')
  export inc cuda ext
  ls "$ext"/*.cpp | xargs -P "$(nproc)" -I{} sh -c 'g++ -std=c++17 -O2 -fPIC -c $inc -I"$cuda/include" -I"$ext" "{}" -o "{}.o"'
  g++ -shared -o "$lib" "$ext"/*.cpp.o -L"$libdir" -ltorch -L"$cuda/lib64/stubs" -lcuda >> "$out/load.log" 2>&1 || status=1
fi
# The correctness checks share the GPU; they run side by side to keep the device time short.
timeout 150 python3 tests/gpu/torch/check_ops.py "$ext" --json "$out/check_ops.json" > "$out/check_ops.log" 2>&1 &
p1=$!
timeout 150 python3 examples/torch/model.py --ops "$ext" --library "$lib" > "$out/model.log" 2>&1 &
p2=$!
timeout 150 python3 examples/torch/train.py --ops "$ext" --library "$lib" > "$out/train.log" 2>&1 &
p3=$!
for p in $p1 $p2 $p3; do wait $p || status=1; done
timeout 45 python3 bench/torch_overhead.py "$ext" --json "$out/overhead.json" > "$out/overhead.log" 2>&1 || status=1
for f in check_ops model train overhead; do echo "== $f"; grep -v "^PASS" "$out/$f.log" | tail -40; done
exit $status
