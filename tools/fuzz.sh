#!/usr/bin/env bash
# Builds the libFuzzer target (clang, ASan + UBSan, -DTILEC_FUZZ=ON) and fuzzes the pipeline up
# to PTX text for SECONDS seconds of wall time on one core, with the dictionary and the seed
# corpus. The corpus lives outside git in the build folder and grows across runs.
#   tools/fuzz.sh SECONDS [libFuzzer flags...]    e.g. tools/fuzz.sh 3600
#   tools/fuzz.sh --repro FILE...                 run inputs once (a finding, a regression)
#   tools/fuzz.sh --minimize FILE                 shrink a crashing input into FILE.min
# Environment: FUZZ_BUILD (default build-fuzz), FUZZ_JOBS (build parallelism, default nproc).
# Findings (crash-*, timeout-*, leak-*, oom-*) land in $FUZZ_BUILD/findings; the exit status is
# 1 when there is one. Turn each into a test in tests/lit/robustness (docs/robustness.md).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${FUZZ_BUILD:-build-fuzz}
mode=run
case "${1:-}" in
  --repro) mode=repro; shift ;;
  --minimize) mode=minimize; shift ;;
  ''|-*) echo "usage: tools/fuzz.sh SECONDS [libFuzzer flags] | --repro FILE... | --minimize FILE" >&2; exit 2 ;;
esac

# libFuzzer and the sanitizer runtimes for clang 14 (the other build tools: tools/build.sh).
if ! dpkg -s libclang-rt-14-dev >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends libclang-rt-14-dev
fi
if [ ! -f "$B/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTILEC_FUZZ=ON -DTILEC_TESTS=OFF >/dev/null
fi
cmake --build "$B" --target fuzz_pipeline -j "${FUZZ_JOBS:-$(nproc)}"
fuzzer=$B/tests/fuzz/fuzz_pipeline
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

case $mode in
  repro) exec "$fuzzer" -runs=1 "$@" ;;
  minimize) exec "$fuzzer" -minimize_crash=1 -max_total_time=120 -exact_artifact_path="$1.min" "$1" ;;
esac

seconds=$1
shift
mkdir -p "$B/corpus" "$B/findings"
tests/fuzz/make_seeds.sh "$B/seeds"
# The dictionary: the committed part, then every built-in, keyword parameter and dtype.
{
  cat tests/fuzz/tile.dict
  echo "# generated from src/frontend/builtins.h and src/basic/dtype.h"
  sed -n 's/^ *X([A-Za-z0-9]*, "\([a-z_0-9]*\)", "\([^"]*\)").*/\1 \2/p' src/frontend/builtins.h |
    tr ' ,*=' '\n\n\n\n' | grep -E '^[a-z_0-9]+$' | sort -u | sed 's/.*/"&"/'
  sed -n 's/^ *X([A-Za-z0-9]*, "\([a-z0-9]*\)", [0-9].*/"\1"/p' src/basic/dtype.h
} > "$B/tile.dict"

before=$(ls "$B/findings" | wc -l)
start=$(date +%s)
set +e
"$fuzzer" "$B/corpus" "$B/seeds" -dict="$B/tile.dict" -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=2560 -max_len=8192 -use_value_profile=1 \
  -artifact_prefix="$B/findings/" -print_final_stats=1 "$@" 2>&1 | tee "$B/fuzz-$start.log" |
  grep -E --line-buffered 'INITED|DONE|pulse|NEW_FUNC|ERROR|SUMMARY|stat::|==[0-9]+==|tilec fuzz:'
status=${PIPESTATUS[0]}
set -e
end=$(date +%s)

# Keep only the inputs that add coverage (a merge into a fresh folder), then report the corpus
# size and the coverage of the corpus and the seeds.
rm -rf "$B/corpus.merged"
mkdir -p "$B/corpus.merged"
if "$fuzzer" -merge=1 -artifact_prefix="$B/findings/" "$B/corpus.merged" "$B/corpus" > "$B/merge.log" 2>&1; then
  rm -rf "$B/corpus"
  mv "$B/corpus.merged" "$B/corpus"
fi
cov=$("$fuzzer" -runs=0 -artifact_prefix="$B/findings/" "$B/corpus" "$B/seeds" 2>&1 |
  grep -E 'INITED|Loaded [0-9]+ modules' | tr '\n' ' ' || true)
files=$(ls "$B/corpus" | wc -l)
bytes=$(du -sb "$B/corpus" | cut -f1)
after=$(ls "$B/findings" | wc -l)
echo "fuzz.sh: $((end - start)) s, libFuzzer exit status $status"
echo "fuzz.sh: corpus $B/corpus: $files inputs, $bytes bytes"
echo "fuzz.sh: coverage over corpus + seeds: $cov"
echo "fuzz.sh: findings in $B/findings: $after ($((after - before)) new)"
ls "$B/findings"
[ "$after" -eq 0 ]
