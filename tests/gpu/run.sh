#!/usr/bin/env bash
# Builds and runs tests/gpu/vector_add_run.c on a machine with an NVIDIA GPU, once per header
# directory given (each holds a vector_add.h made by `make_test_header vector_add ...`).
#   tests/gpu/run.sh DIR...        e.g. a header with sm_90 SASS, and one with only sm_80 SASS and
#                                  sm_86 PTX (a Hopper GPU then runs JIT-compiled PTX)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_PATH:-/usr/local/cuda}
status=0
for dir in "$@"; do
  echo "== $dir"
  for cc in "gcc -std=c99" "g++ -std=c++17 -x c++"; do
    $cc -Wall -Wextra -Wpedantic -Werror -I"$dir" -I"$cuda/include" "$here/vector_add_run.c" -x none \
      -L"$cuda/lib64" -L"$cuda/lib64/stubs" -lcuda -o /tmp/vector_add_run
    echo "-- $cc"
    /tmp/vector_add_run || status=1
  done
done
exit $status
