#!/usr/bin/env bash
# gpu_campaign.py prepare of two seeds; then the prepared folder's own copy of gpu_campaign.py
# summarizes an empty results folder, run from elsewhere: the folder must carry everything
# summarize imports, as it runs on the GPU machine away from tools/difftest (a campaign's
# summary once fell back to bare verdict counts because gen.py's modules were not copied).
#   gpu_prepare.sh PYTHON TILEC TILEC_DIFFTEST SOURCE_ROOT
set -euo pipefail
py=$1 tilec=$2 difftest=$3 root=$4
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$py" "$root/tools/difftest/gpu_campaign.py" prepare --seeds 0 2 --dir "$d/c" --tilec "$tilec" \
  --difftest "$difftest" --jobs 2 --no-pack > "$d/prepare.txt"
mkdir -p "$d/results/results"
cd "$d"
"$py" -E -s "$d/c/gpu_campaign.py" summarize "$d/c" --results "$d/results" > "$d/summary.md"
grep -q "^- kernels: [1-9]" "$d/summary.md" || { cat "$d/summary.md"; exit 1; }
