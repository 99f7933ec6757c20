#!/usr/bin/env bash
# Device call: (1) the prepared campaign gpu-campaign-b (seeds 150-749, compiled here by 6cde0ff);
# (2) a campaign generated and compiled on the device by main 764f205's tilec (stripped), one command.
set -u
D=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$D/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$D/bin/tilec --version || exit 1
FIRST=${FIRST:-750}; END=${END:-1750}
export TIMEOUT_S=120
T0=$(date +%s)
start=$T0
timeout 240 bash gpu-campaign-b/run.sh > $OUT/campaign-b.log 2>&1
echo "campaign-b: $(( $(date +%s) - start )) s"; cp -r $OUT/gpu-campaign-b/summary.md $OUT/campaign-b-summary.md 2>/dev/null
head -12 $OUT/campaign-b-summary.md; sed -n '/Not ok/,/^$/p' $OUT/campaign-b-summary.md | head -20
start=$(date +%s)
timeout $(( 570 - (start - T0) )) python3 tools/difftest/gpu_campaign.py run --seeds $FIRST $END --dir /tmp/gc \
  --tilec $D/bin/tilec --difftest $D/bin/tilec-difftest --jobs 16 > $OUT/gc.log 2>&1
echo "run exit $? after $(( $(date +%s) - start )) s"
cp /tmp/gc/out/summary.md $OUT/gc-summary.md 2>/dev/null; cp /tmp/gc/out/times.txt $OUT/gc-times.txt 2>/dev/null
cp /tmp/gc/manifest.json $OUT/gc-manifest.json 2>/dev/null
mkdir -p $OUT/gc-results && cp /tmp/gc/out/results/*.txt $OUT/gc-results/ 2>/dev/null
tail -5 $OUT/gc.log; head -14 $OUT/gc-summary.md
