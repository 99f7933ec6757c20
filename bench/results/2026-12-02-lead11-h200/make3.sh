#!/usr/bin/env bash
# Lead, session 11, call 3: the TMA-store staging ring (branch lead11) against main's build.
# New (lead11's tilec): persistent.tile, check_f8's headers, matmul bf16/f16, batched_matmul
# persistent, matmul_f8. Old (main's tilec, 3 stages beside a whole-tile staging buffer): the
# same matmul, batched and f8 builds under *_old_ prefixes.
set -euo pipefail
cd /work/wt-lead11
T=/work/wt-lead11/build/tilec; OLD=/work/main/build/tilec
O=/work/main/gpu-build/lead11/h3
rm -rf $O; mkdir -p $O/f8 /tmp/lead11
A="-arch sm_90a"
$T tests/gpu/persistent.tile $A -o $O/persistent.h &
TILEC=$T tests/gpu/make_f8_headers.sh $O/f8 > /dev/null 2>&1 &
wait
sed 's/persistent=False)/persistent=True)/' samples/batched_matmul.tile > /tmp/lead11/bmm_p.tile
for x in "$T:" "$OLD:old_"; do
  t=${x%%:*}; p=${x##*:}
  $t samples/matmul.tile -D T=bf16 $A --prefix mmbf_$p -o $O/mmbf_$p.h &
  $t samples/matmul.tile -D T=f16 $A --prefix mm16_$p -o $O/mm16_$p.h &
  wait
  $t /tmp/lead11/bmm_p.tile -D T=bf16 $A --prefix bmm_p_$p -o $O/bmm_p_$p.h &
  $t samples/matmul_f8.tile $A -Wno-spills --prefix f8_$p -o $O/f8_$p.h &
  wait
done
cp /work/main/gpu-build/lead11/h/bmm_np.h $O/
( cd $O && for h in *.h; do [ "$h" = all.h ] || echo "#include \"$h\""; done ) > /tmp/all3.h && mv /tmp/all3.h $O/all.h
cp tests/gpu/check_persistent.cpp tests/gpu/check_f8.cpp tests/gpu/check_util.h tests/gpu/cuda_check.h tests/gpu/f8_util.h $O/
cuda=/usr/local/cuda
echo '#include "all.h"' | gcc -O2 -shared -fPIC -x c -I$O -I$cuda/include - -L$cuda/lib64/stubs -lcuda -o /tmp/lead11/h3.so
g++ -O1 -std=c++17 -I$O -I$cuda/include $O/check_persistent.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/lead11/cp
g++ -O1 -std=c++17 -I$O/f8 -I$O -I$cuda/include $O/check_f8.cpp -L$cuda/lib64/stubs -lcuda -o /tmp/lead11/cf8
du -sh $O
