#!/bin/sh
# Stands in for tilec: checks the command line tilec_add_kernel builds, writes a header and a
# depfile that names an imported file, and logs each run to $FAKE_TILEC_LOG.
set -e
src=$1; shift
out= dep= args="$*"
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift ;;
    -MF) dep=$2; shift ;;
  esac
  shift
done
ok=0
case $out in
  */vector_add.h) [ "$args" = "-o $out -arch sm_90a -arch sm_86 --prefix my_ -O3 -MD -MF $dep" ] && ok=1 ;;
  */vector_add_default.h) [ "$args" = "-o $out -MD -MF $dep" ] && ok=1 ;;
esac
printf '#define FAKE_TILEC_ARGS_OK %s\n#include <cuda.h>\n' "$ok" > "$out"
printf '%s: %s %s\n' "$out" "$src" "$(dirname "$src")/imported.tile" > "$dep"
echo run >> "$FAKE_TILEC_LOG"
