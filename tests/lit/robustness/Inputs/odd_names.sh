#!/bin/sh
# usage: odd_names.sh TILEC SAMPLES_DIR CUDA_ROOT WORK_DIR
# File names with spaces, quotes, '$', '#' and leading dashes, end to end: the input, the
# output and its depfile, the temporary folder ptxas and fatbinary run in, the CUDA toolkit's
# own folder, and the saved PTX of a failed ptxas run. Tools are run without a shell, so every
# name reaches them as it is.
tilec=$1 samples=$2 cuda=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "odd_names.sh: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
dir="dir with 'single' \"double\" \$dollar #hash"
mkdir -p "$dir/tmp 'x'"
cp "$samples/vector_add.tile" "$dir/-in put 'q'.tile"
cd "$dir" || exit 1
export TMPDIR="$PWD/tmp 'x'"

# A header from an input and to an output that both start with a dash (given as ./-...).
"$tilec" "./-in put 'q'.tile" -o "./-odd name.h" -MD || fail "header compile failed"
grep -q '^#endif' "./-odd name.h" || fail "the header is incomplete"
grep -qF "from -in put 'q'.tile." "./-odd name.h" || fail "the banner does not name the input by its file name"
printf '%s\n' "./-odd\\ name.h: \\" "  ./-in\\ put\\ 'q'.tile" | cmp - "./-odd name.h.d" || fail "wrong depfile"

# The input after --; the toolkit in a folder whose name needs quoting.
mkdir -p "cuda 'x' \"y\" \$z/bin"
ln -s "$cuda/bin/ptxas" "cuda 'x' \"y\" \$z/bin/ptxas"
ln -s "$cuda/bin/fatbinary" "cuda 'x' \"y\" \$z/bin/fatbinary"
CUDA_PATH="$PWD/cuda 'x' \"y\" \$z" "$tilec" --emit=fatbin -o "./-k 'q' \"r\".fatbin" -- "-in put 'q'.tile" ||
  fail "fatbin compile with the toolkit in an odd folder failed"
test -s "./-k 'q' \"r\".fatbin" || fail "no fatbin"

# A failing ptxas saves the PTX beside the odd output name.
CUDA_PATH="$here/fake-cuda" FAKE_PTXAS=smem "$tilec" "./-in put 'q'.tile" --emit=cubin -o "./-bad 'c'.cubin" 2> err.txt &&
  fail "the stand-in ptxas did not fail"
test -s "./-bad 'c'.cubin.sm_90a.failed.ptx" || fail "the failed PTX was not saved"
grep -qF "the PTX is saved as './-bad 'c'.cubin.sm_90a.failed.ptx'" err.txt || fail "the error does not name the saved PTX"
test ! -e "./-bad 'c'.cubin" || fail "a failed compile left its output"

left=$(ls -A "tmp 'x'")
[ -z "$left" ] || fail "temporary files left: $left"
ls -A | grep -F '.tmp.' && fail "temporary outputs left"
exit 0
