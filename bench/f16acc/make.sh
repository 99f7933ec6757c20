#!/usr/bin/env bash
# Headers for bench/f16acc/timing.cpp: samples/matmul.tile (T=f16, 128x256 tiles) built for
# sm_90a with an f32 and with an f16 accumulator (-D ACC=f16), plus, for an experiment, the f16
# build of other compilers (LABEL=PATH: another tilec, e.g. one built from a variant of
# src/codegen/paths/tma_wgmma/wgmma.cpp). Writes variants.h and variants_headers.h for timing.cpp.
#   bench/f16acc/make.sh OUTDIR [LABEL=TILEC ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$1; shift
tilec=${TILEC:-build/tilec}
mkdir -p "$out"
: > "$out/variants.h"
: > "$out/variants_headers.h"
add() {  # label, compiler, accumulator dtype
  "$2" samples/matmul.tile -D T=f16 -D ACC="$3" -arch sm_90a --prefix "$1_" -o "$out/$1.h"
  echo "#include \"$1.h\"" >> "$out/variants_headers.h"
  echo "VARIANT(\"$1\", $1_matmul)" >> "$out/variants.h"
}
add acc_f32 "$tilec" f32
add acc_f16 "$tilec" f16
for extra in "$@"; do add "${extra%%=*}" "${extra#*=}" f16; done
echo "headers in $out"
