#!/usr/bin/env bash
set -uo pipefail
H=gpu-build/probe12; cuda=/usr/local/cuda
printf '#include "silu_gate.h"\n#include "sg_nb.h"\n#include "sg_2d.h"\n' | gcc -O1 -shared -fPIC -x c -I$H -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/libp.so || exit 1
PYTHONUNBUFFERED=1 timeout 200 python3 $H/probe2.py /tmp/libp.so 2>&1 | grep -v Warning | tee $OUT/probe2.txt
