#!/bin/sh
# usage: sigterm.sh TILEC INPUT WORK_DIR
# Starts `TILEC INPUT -o WORK_DIR/out/k.h -MD` with a stand-in ptxas that never finishes
# (Inputs/fake-cuda, FAKE_PTXAS=sleep) and its temporary folder in WORK_DIR/tmp, sends tilec
# SIGTERM once ptxas runs, and checks: tilec dies of SIGTERM, ptxas is stopped too, and no
# output, depfile, temporary file or temporary folder is left.
tilec=$1 input=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/tmp" "$work/out"
fail() { echo "sigterm.sh: $*" >&2; exit 1; }

CUDA_PATH=$here/fake-cuda FAKE_PTXAS=sleep FAKE_PTXAS_PIDFILE=$work/ptxas.pid TMPDIR=$work/tmp \
  "$tilec" "$input" -o "$work/out/k.h" -MD &
pid=$!
i=0
while [ ! -s "$work/ptxas.pid" ]; do
  sleep 0.1
  i=$((i + 1))
  [ $i -lt 600 ] || { kill -KILL $pid; fail "ptxas never started"; }
done
ls -A "$work/tmp" | grep -q . || fail "no temporary folder while ptxas runs (TMPDIR ignored?)"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || fail "tilec exited with status $rc, not 143 (SIGTERM)"

# ptxas got the signal too: gone, or a zombie waiting for init.
child=$(cat "$work/ptxas.pid")
i=0
while [ -e /proc/$child ] && [ "$(sed 's/.*) //' /proc/$child/stat | cut -c1)" != Z ]; do
  sleep 0.1
  i=$((i + 1))
  [ $i -lt 50 ] || { kill -KILL $child; fail "ptxas ($child) still runs after tilec died"; }
done

left=$(ls -A "$work/tmp" "$work/out" | grep -v ':$' | grep .)
[ -z "$left" ] || fail "left behind: $left"
exit 0
