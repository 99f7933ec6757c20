#!/usr/bin/env bash
# Compares what two builds of tilec write for the same inputs: the PTX of every sample, every
# lit `.tile` input that compiles, tests/gpu/ops.tile and tests/gpu/debug.tile, for each -arch
# set the tests use, and the headers of the samples and the GPU test kernels (which embed the
# fatbin, so multi-arch SASS and PTX are compared too). Used to show that a refactoring changes
# no output, or exactly the listed ones.
#
#   tools/compare_outputs.sh dump TILEC OUTDIR       # writes every output of TILEC under OUTDIR
#   tools/compare_outputs.sh diff OLDDIR NEWDIR      # lists the files that differ; exit 1 if any
#   tools/compare_outputs.sh REV [BUILD]             # builds REV (a git revision) in a temporary
#                                                    # worktree, dumps both, diffs (BUILD: this
#                                                    # tree's build folder, default build)
#
# Outputs are named <input path with / as __>.<archs>.{ptx,h}; an input that fails to compile
# writes its exit code and diagnostics instead, so a change in which inputs compile shows too.
set -uo pipefail
cd "$(dirname "$0")/.."

ARCH_SETS=("sm_80" "sm_86" "sm_89" "sm_90" "sm_90a" "sm_90a,sm_80")
HEADER_ARCH_SETS=("sm_90" "sm_90a,sm_80")

inputs() {
  ls samples/*.tile
  find tests/lit -name '*.tile' -not -path '*/diagnostics/*' | sort
  echo tests/gpu/ops.tile
  echo tests/gpu/debug.tile
}

# The -D sets each sample is compiled with by tests/gpu/make_headers.sh beyond its defaults.
sample_defines() {
  case "$1" in
    samples/matmul.tile) printf '%s\n' "" "-D T=bf16" "-D T=f32" "-D T=i8" ;;
    samples/matmul_bias_relu.tile) printf '%s\n' "" "-D T=bf16" ;;
    samples/softmax.tile) printf '%s\n' "" "-D T=f32 -D TILE_N=4096" "-D T=f16 -D TILE_N=32768" ;;
    samples/layernorm.tile) printf '%s\n' "" "-D T=bf16 -D TILE_N=8192" ;;
    *) printf '%s\n' "" ;;
  esac
}

dump() {
  local tilec=$1 out=$2
  mkdir -p "$out"
  local f defs archs name flags
  while read -r f; do
    while IFS= read -r defs; do
      for archs in "${ARCH_SETS[@]}"; do
        name=$(echo "$f $defs" | sed 's|/|__|g; s| |_|g; s|=|-|g').$archs
        flags=()
        for a in ${archs//,/ }; do flags+=(-arch "$a"); done
        # shellcheck disable=SC2086
        if ! "$tilec" "$f" $defs "${flags[@]}" --emit=ptx -o "$out/$name.ptx" 2> "$out/$name.ptx.err"; then
          echo "exit $?" >> "$out/$name.ptx.err"
        fi
        [ -s "$out/$name.ptx.err" ] || rm -f "$out/$name.ptx.err"
      done
      case "$f" in samples/*|tests/gpu/*) ;; *) continue ;; esac
      for archs in "${HEADER_ARCH_SETS[@]}"; do
        name=$(echo "$f $defs" | sed 's|/|__|g; s| |_|g; s|=|-|g').$archs
        flags=()
        for a in ${archs//,/ }; do flags+=(-arch "$a"); done
        # shellcheck disable=SC2086
        if ! "$tilec" "$f" $defs "${flags[@]}" -o "$out/$name.h" 2> "$out/$name.h.err"; then
          echo "exit $?" >> "$out/$name.h.err"
        fi
        [ -s "$out/$name.h.err" ] || rm -f "$out/$name.h.err"
      done
    done < <(sample_defines "$f")
  done < <(inputs)
}

diff_dirs() {
  local old=$1 new=$2
  if diff -rq "$old" "$new" > /tmp/compare_outputs.$$; then
    echo "no differences ($(ls "$new" | wc -l) files)"
    rm -f /tmp/compare_outputs.$$
    return 0
  fi
  cat /tmp/compare_outputs.$$
  echo "$(wc -l < /tmp/compare_outputs.$$) files differ"
  rm -f /tmp/compare_outputs.$$
  return 1
}

case "${1:-}" in
  dump) dump "$2" "$3" ;;
  diff) diff_dirs "$2" "$3" ;;
  ""|-h|--help) sed -n '2,16p' "$0"; exit 2 ;;
  *)
    rev=$1 build=${2:-build}
    work=$(mktemp -d)
    git worktree add -q --detach "$work/src" "$rev" || exit 2
    cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILEC_TESTS=OFF > /dev/null &&
      cmake --build "$work/build" --target tilec > /dev/null || exit 2
    dump "$work/build/tilec" "$work/old"
    dump "$build/tilec" "$work/new"
    diff_dirs "$work/old" "$work/new"
    rc=$?
    git worktree remove --force "$work/src"
    echo "outputs kept in $work/old and $work/new"
    exit $rc
    ;;
esac
