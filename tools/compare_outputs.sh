#!/usr/bin/env bash
# Compares what two builds of tilec write for the same inputs, to show that a refactoring changes
# no output, or exactly the listed ones. For every sample, every lit `.tile` input (the
# diagnostics ones too), the tests/gpu kernels and examples/torch/rmsnorm_grad.tile, for each
# -arch set the tests use: the PTX and the lowered tile IR (--emit=tir-lowered). For the samples
# (under each -D set that tests/gpu/make_headers.sh uses), the GPU test kernels and the example:
# the header (which embeds the fatbin, so multi-arch SASS and PTX are compared too); for their
# default build and the --dispatch builds of tests/gpu/torch/make_ext.sh: the torch sources
# (--emit=torch). Once: --list-passes and --help.
#
#   tools/compare_outputs.sh dump TILEC OUTDIR       # writes every output of TILEC under OUTDIR
#   tools/compare_outputs.sh diff OLDDIR NEWDIR      # lists the files that differ; exit 1 if any
#   tools/compare_outputs.sh REV [BUILD]             # builds REV (a git revision) in a temporary
#                                                    # worktree, dumps both, diffs (BUILD: this
#                                                    # tree's build folder, default build)
#
# Outputs are named <input path with / as __>_<-D flags>.<archs>.{ptx,tir-lowered,h}, and
# <...>.<archs>.torch/ops.{cpp,py} (torch wants a module name). Each run's stderr (its warnings
# and diagnostics) goes to <output>.err with "exit N" added when it fails, so a change in a
# message, a warning or which inputs compile shows too. JOBS (default: the CPU count) cases run
# side by side; the output does not depend on it.
set -uo pipefail
self=$(realpath "$0")
cd "$(dirname "$0")/.."

ARCH_SETS=("sm_80" "sm_86" "sm_89" "sm_90" "sm_90a" "sm_90a,sm_80")
HEADER_ARCH_SETS=("sm_90" "sm_90a,sm_80")
TORCH_ARCH_SET="sm_90"   # the default target, what make_ext.sh builds without -arch

inputs() {
  ls samples/*.tile
  find tests/lit -name '*.tile' | sort
  ls tests/gpu/*.tile
  echo examples/torch/rmsnorm_grad.tile
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

# The --dispatch builds of tests/gpu/torch/make_ext.sh: "INPUT FLAGS..." per line.
torch_dispatch_builds() {
  sed -n 's|^gen \([a-z0-9_]*\) \(.*--dispatch.*\)|samples/\1.tile \2|p' tests/gpu/torch/make_ext.sh
  sed -n 's|^"$tilec" \(examples/[^ ]*\) --emit=torch \(--dispatch [^ ]*\) .*|\1 \2|p' \
    tests/gpu/torch/make_ext.sh
}

# run ERRFILE COMMAND...: runs COMMAND with its stderr in ERRFILE, adds "exit N" there when it
# fails, and removes ERRFILE when it stays empty.
run() {
  local err=$1 rc
  shift
  "$@" 2> "$err"
  rc=$?
  [ "$rc" -eq 0 ] || echo "exit $rc" >> "$err"
  [ -s "$err" ] || rm -f "$err"
}

arch_flags() {
  local a
  for a in ${1//,/ }; do printf -- '-arch\n%s\n' "$a"; done
}

# dump_case TILEC OUTDIR "INPUT FLAGS": every output of one input under one set of -D flags, or,
# with --dispatch among FLAGS, its torch sources alone (FLAGS give the -arch then).
dump_case() {
  local tilec=$1 out=$2 f=${3%% *} defs base name archs flags
  defs=${3#"$f"}
  defs=${defs# }
  base=$(echo "$f $defs" | sed 's|/|__|g; s| |_|g; s|=|-|g')
  # shellcheck disable=SC2206
  local extra=($defs)
  if [[ $defs == *--dispatch* ]]; then
    mkdir -p "$out/$base.torch"
    run "$out/$base.torch.err" "$tilec" "$f" "${extra[@]}" --emit=torch -o "$out/$base.torch/ops.cpp"
    rmdir "$out/$base.torch" 2> /dev/null || true
    return 0
  fi
  for archs in "${ARCH_SETS[@]}"; do
    name=$base.$archs
    mapfile -t flags < <(arch_flags "$archs")
    run "$out/$name.ptx.err" "$tilec" "$f" "${extra[@]}" "${flags[@]}" --emit=ptx -o "$out/$name.ptx"
    run "$out/$name.tir-lowered.err" \
      "$tilec" "$f" "${extra[@]}" "${flags[@]}" --emit=tir-lowered -o "$out/$name.tir-lowered"
  done
  case "$f" in samples/*|tests/gpu/*|examples/*) ;; *) return 0 ;; esac
  for archs in "${HEADER_ARCH_SETS[@]}"; do
    name=$base.$archs
    mapfile -t flags < <(arch_flags "$archs")
    run "$out/$name.h.err" "$tilec" "$f" "${extra[@]}" "${flags[@]}" -o "$out/$name.h"
  done
  [ -z "$defs" ] || return 0 # the torch builds of other -D sets: the --dispatch cases
  name=$base.$TORCH_ARCH_SET
  mapfile -t flags < <(arch_flags "$TORCH_ARCH_SET")
  mkdir -p "$out/$name.torch"
  run "$out/$name.torch.err" "$tilec" "$f" "${extra[@]}" "${flags[@]}" --emit=torch -o "$out/$name.torch/ops.cpp"
  rmdir "$out/$name.torch" 2> /dev/null || true
}

dump() {
  local tilec=$1 out=$2 f
  case "$tilec" in /*) ;; *) tilec=$PWD/$tilec ;; esac
  mkdir -p "$out"
  run "$out/list-passes.err" "$tilec" --list-passes > "$out/list-passes.txt"
  run "$out/help.err" "$tilec" --help > "$out/help.txt"
  {
    while read -r f; do
      sample_defines "$f" | while IFS= read -r defs; do echo "$f $defs"; done
    done < <(inputs)
    torch_dispatch_builds
  } | xargs -d '\n' -n 1 -P "${JOBS:-$(nproc)}" "$self" case "$tilec" "$out"
}

diff_dirs() {
  local old=$1 new=$2
  if diff -rq "$old" "$new" > /tmp/compare_outputs.$$; then
    echo "no differences ($(find "$new" -type f | wc -l) files)"
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
  case) dump_case "$2" "$3" "$4" ;;   # one case of dump, run by its xargs
  diff) diff_dirs "$2" "$3" ;;
  ""|-h|--help) sed -n '2,21p' "$self"; exit 2 ;;
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
