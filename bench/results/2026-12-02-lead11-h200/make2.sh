#!/usr/bin/env bash
# Lead, session 11, call 2: the dtype suite (tests/gpu/make_f8_headers.sh from branch lead11:
# f8, tf32 and the new i8 GEMM), batched_matmul's stage-count isolation variants, and matmul
# bf16 for the unaligned-rows row. Run from /work/main after building /work/wt-lead11.
set -euo pipefail
cd /work/wt-lead11
T=/work/wt-lead11/build/tilec
O=/work/main/gpu-build/lead11
mkdir -p $O/f8 $O/h2 /tmp/lead11
TILEC=$T tests/gpu/make_f8_headers.sh $O/f8 2>&1 | grep -v "warning\|^def\|^\^" || true
sed 's/persistent=False)/persistent=False, num_stages=3)/' samples/batched_matmul.tile > /tmp/lead11/bmm_np_s3.tile
grep -q "num_stages=3" /tmp/lead11/bmm_np_s3.tile
$T /tmp/lead11/bmm_np_s3.tile -D T=bf16 -arch sm_90a --prefix bmm_np_s3_ -o $O/h2/bmm_np_s3.h &
$T samples/batched_matmul.tile -D T=bf16 -D BN=128 -arch sm_90a --prefix bmm_np128_ -o $O/h2/bmm_np128.h &
$T samples/matmul.tile -D T=bf16 -arch sm_90a --prefix mmbf_ -o $O/h2/matmul_bf16.h &
wait
cp $O/h/bmm_np.h $O/h/bmm_p.h $O/h2/
( cd $O/h2 && for h in *.h; do [ "$h" = all.h ] || echo "#include \"$h\""; done ) > /tmp/all2.h && mv /tmp/all2.h $O/h2/all.h
# Checked here, not on the device: both libraries build.
cuda=/usr/local/cuda
gcc -O2 -shared -fPIC -I$O/f8 -I$cuda/include bench/tilec_dtypes.c -L$cuda/lib64/stubs -lcuda -o /tmp/lead11/d.so
echo '#include "all.h"' | gcc -O2 -shared -fPIC -x c -I$O/h2 -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lead11/h2.so
g++ -O1 -std=c++17 -I$O/f8 -Itests/gpu -I$cuda/include tests/gpu/check_f8.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/lead11/check_f8
cp tests/gpu/check_f8.cpp tests/gpu/check_util.h tests/gpu/cuda_check.h tests/gpu/f8_util.h tests/gpu/run_f8.sh bench/bench.py bench/tilec_dtypes.c $O/f8/
du -sh $O
