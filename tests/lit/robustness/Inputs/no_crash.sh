#!/bin/sh
# usage: no_crash.sh TILEC OUTPUT INPUT [options...]
# Runs `TILEC INPUT -o OUTPUT options...` (reading stdin when INPUT is '-') and checks the
# robustness contract: the exit status is 0 or 1 (never a signal or an internal error),
# a failing run printed an 'error:' diagnostic and left no OUTPUT behind.
tilec=$1 out=$2 in=$3
shift 3
rm -f "$out" "$out.stderr"
"$tilec" "$in" -o "$out" "$@" 2> "$out.stderr"
rc=$?
if [ $rc -gt 1 ]; then
  echo "no_crash.sh: tilec exited with status $rc" >&2
  cat "$out.stderr" >&2
  exit 1
fi
if [ $rc -eq 1 ]; then
  grep -q 'error:' "$out.stderr" || { echo "no_crash.sh: status 1 without an error message" >&2; exit 1; }
  [ ! -e "$out" ] || { echo "no_crash.sh: $out was left behind" >&2; exit 1; }
fi
exit 0
