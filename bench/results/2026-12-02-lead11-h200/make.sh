#!/usr/bin/env bash
# Lead, session 11 (2026-12-02): headers for call 1 — issue 16's batched and tf32 rows with
# the persistent grid and tile choices re-measured after the 64-bit division change, and f8
# without the persistent TMA-store staging. Run from /work/main after building build/tilec.
set -euo pipefail
cd /work/main  # (the device call copies /work/main; this folder is committed on branch lead11)
T=build/tilec
O=gpu-build/lead11/h
mkdir -p $O
S=/tmp/lead11; mkdir -p $S
# Variants of the samples: the same text with one option changed (grep checks the edit took).
sed 's/persistent=False)/persistent=True)/' samples/batched_matmul.tile > $S/bmm_p.tile
sed 's/persistent=False)/persistent=True, cluster=2)/' samples/batched_matmul.tile > $S/bmm_pc2.tile
sed 's/num_warps=8)/num_warps=8, persistent=False)/' samples/matmul_bt.tile > $S/mmbt_np.tile
sed 's/num_warps=8)/num_warps=8, persistent=False)/' samples/matmul_f8.tile > $S/mmf8_np.tile
grep -q "persistent=True)" $S/bmm_p.tile; grep -q "cluster=2" $S/bmm_pc2.tile
grep -q "persistent=False" $S/mmbt_np.tile; grep -q "persistent=False" $S/mmf8_np.tile
A="-arch sm_90a"
$T samples/batched_matmul.tile -D T=bf16 $A --prefix bmm_np_ -o $O/bmm_np.h &
$T $S/bmm_p.tile -D T=bf16 $A --prefix bmm_p_ -o $O/bmm_p.h &
wait
$T $S/bmm_pc2.tile -D T=bf16 $A --prefix bmm_pc2_ -o $O/bmm_pc2.h &
$T $S/bmm_p.tile -D T=bf16 -D BN=128 $A --prefix bmm_p128_ -o $O/bmm_p128.h &
wait
$T samples/matmul_bt.tile -D T=tf32 $A --prefix tf_p128_ -o $O/tf_p128.h &
$T $S/mmbt_np.tile -D T=tf32 $A --prefix tf_np128_ -o $O/tf_np128.h &
wait
$T $S/mmbt_np.tile -D T=tf32 -D BN=256 $A --prefix tf_np256_ -o $O/tf_np256.h &
$T samples/transpose.tile -D T=f32 $A --prefix tr_ -o $O/transpose.h &
wait
$T samples/matmul_f8.tile $A --prefix f8_p_ -o $O/f8_p.h &
$T $S/mmf8_np.tile $A --prefix f8_np_ -o $O/f8_np.h &
wait
( cd $O && for h in *.h; do [ "$h" = all.h ] || echo "#include \"$h\""; done ) > /tmp/all.h && mv /tmp/all.h $O/all.h
ls -la $O
