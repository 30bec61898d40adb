#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Corpus harness, A/B of two gpumemcc variants on the GPU: packs the gm
# builds of variant A (as `gm`) and of variant B (as `sel`) beside the
# --gm-off and nvcc builds of the same programs into .devpack/corpus.tar.gz,
# so that on the GPU machine
#   GM_SEL_EVERY=1 sh bench/corpus/run.sh -c "nvcc gm off sel" PROGRAM...
# runs A, --gm-off and B one after the other, every launch measured (B's
# kernel time is the sel_kernel_ms column of runs.tsv).
# Each build directory is an OUTDIR of bench/corpus/build.sh (builds.tsv and
# CONFIG/PROGRAM/); A and B are taken from their `gm` builds, e.g. a variant
# built with a wrapper prefix whose bin/gpumemcc adds -Xgm-pass=... .
# Usage: bench/corpus/ab_pack.sh A_OUT B_OUT OFF_OUT NVCC_OUT PROGRAM...
# Depends on: bench/corpus/pack.sh, a built BUILD_DIR (GM_BUILD, default build).
set -u
[ $# -ge 5 ] || { echo "usage: $0 A_OUT B_OUT OFF_OUT NVCC_OUT PROGRAM..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
a=$(cd "$1" && pwd) b=$(cd "$2" && pwd) off=$(cd "$3" && pwd) nv=$(cd "$4" && pwd) || exit 2
shift 4
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
ln -s "$a/gm" "$dir/gm" && ln -s "$b/gm" "$dir/sel" && ln -s "$off/off" "$dir/off" && ln -s "$nv/nvcc" "$dir/nvcc"
rows() { # BUILDS_TSV CONFIG AS: the ok rows of CONFIG for $progs, renamed AS
  awk -F'\t' -v c="$2" -v as="$3" -v want=" $progs " 'BEGIN {OFS = "\t"}
    $2 == c && $3 == "ok" && index(want, " " $1 " ") {$2 = as; print}' "$1"
}
progs="$*"
{
  printf 'program\tcompiler\tresult\twall_s\tcpu_s\tptx_lines\tfirst_error\n'
  rows "$a/builds.tsv" gm gm; rows "$b/builds.tsv" gm sel
  rows "$off/builds.tsv" off off; rows "$nv/builds.tsv" nvcc nvcc
} >"$dir/builds.tsv"
for p in "$@"; do
  for c in gm sel off nvcc; do
    [ -x "$dir/$c/$p/main" ] || { echo "ab_pack.sh: no $c build of $p" >&2; exit 2; }
  done
done
sh "$root/bench/corpus/pack.sh" -o "$dir" -b "${GM_BUILD:-$root/build}" "$@"
