#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Corpus harness, GPU part: where does an instrumented kernel spend its time?
# Runs Nsight Compute on the gm and --gm-off builds of each named program
# (from .devpack/corpus.tar.gz, made by bench/corpus/pack.sh), profiling the
# first N launches (GM_NCU_COUNT, default 2; GM_NCU_SKIP launches skipped,
# GM_NCU_KERNEL a kernel-name regex) with the full section set and SASS
# source counters, and writes per program and build into $OUT/ncu/:
#   P.CONFIG.details.csv  every metric of every profiled launch
#   P.CONFIG.source.csv   per SASS instruction: executions, stall samples
#   P.CONFIG.log          ncu's own messages
# packed into $OUT/ncu.tar.gz (the device tool returns few files).
# Under ncu gpumem's runtime steps aside (ncu holds CUPTI; GPUMEM_FORCE
# does not change that): every counter pointer stays NULL and each handler
# returns after its first test, so the gm profile is the cost of the
# instrumentation's calls, not of counting (bench/results/
# handler-attribution-2026-11-28.md).
# Usage: bench/corpus/ncu_hot.sh [-t SECONDS per program] PROGRAM...
# Depends on: sh, tar, timeout, ncu (CUDA toolkit); a CUDA driver.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmo=120
while getopts t: f; do
  case $f in t) tmo=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
dest=${OUT:-$root/out/corpus-run}
out=$dest/ncu
mkdir -p "$out"
work=${GM_CORPUS_RUN:-/tmp/gm-corpus-ncu}
rm -rf "$work" && mkdir -p "$work" && tar xzf "$root/.devpack/corpus.tar.gz" -C "$work" || exit 1
c=$work/corpus
export LD_LIBRARY_PATH="$c/lib:${CUDA_PATH:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}"
ncu=$(command -v ncu || echo "${CUDA_PATH:-/usr/local/cuda}/bin/ncu")
sel="-c ${GM_NCU_COUNT:-2} -s ${GM_NCU_SKIP:-0}"
[ -n "${GM_NCU_KERNEL:-}" ] && sel="$sel -k regex:$GM_NCU_KERNEL"

for p in "$@"; do
  a=$(awk -F'|' -v p="$p" '$1 == p {print $2}' "$c/PROGRAMS.txt")
  case $a in *'$(LAUNCHER)'*) cmd=$(printf '%s' "$a" | sed 's/\$(LAUNCHER)//') ;; *) cmd="./main $a" ;; esac
  for k in gm off; do
    [ -x "$c/$k/$p/main" ] || continue
    r=$work/$p.$k
    # shellcheck disable=SC2086 # $sel and $cmd are word lists
    ( cd "$c/$k/$p" && GPUMEM_OUT="$r.report" timeout -k 5 "$tmo" \
        "$ncu" --set full --import-source no $sel -f -o "$r" $cmd ) >"$out/$p.$k.log" 2>&1
    echo "rc $?" >>"$out/$p.$k.log"
    [ -f "$r.ncu-rep" ] || continue
    "$ncu" -i "$r.ncu-rep" --page details --csv >"$out/$p.$k.details.csv" 2>>"$out/$p.$k.log"
    "$ncu" -i "$r.ncu-rep" --page source --csv --print-source sass >"$out/$p.$k.source.csv" 2>>"$out/$p.$k.log"
  done
done
tar czf "$dest/ncu.tar.gz" -C "$dest" ncu && rm -rf "$out"
