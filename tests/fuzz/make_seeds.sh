#!/usr/bin/env bash
# Seed corpus for the fuzz target: every sample and every .tile under tests/lit (diagnostic,
# FileCheck and robustness inputs), each also with a `# fuzz:` option line that selects
# another arch and optimization level (see tests/fuzz/fuzz_pipeline.cpp).
#   tests/fuzz/make_seeds.sh OUT_DIR
set -euo pipefail
out=${1:?usage: make_seeds.sh OUT_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
n=0
while IFS= read -r -d '' f; do
  name=$(echo "${f#"$root"/}" | tr '/' '_')
  cp "$f" "$out/$name"
  { echo "# fuzz: sm_80 O0"; cat "$f"; } > "$out/sm80-O0.$name"
  { echo "# fuzz: sm_90a lineinfo fast-math no-fmad"; cat "$f"; } > "$out/sm90a.$name"
  n=$((n + 1))
done < <(find "$root/samples" "$root/tests/lit" -name '*.tile' -print0 | sort -z)
echo "make_seeds.sh: $n sources, $((3 * n)) seeds in $out"
