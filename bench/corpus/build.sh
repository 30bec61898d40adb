#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Corpus harness, CPU part: builds every program of the real-programs corpus
# (../shared/corpus/hecbench, each with its own Makefile) three times, with
# nvcc, with gpumemcc and with `gpumemcc --gm-off`, one build at a time (or,
# with -c, any of these and `trace` = `gpumemcc --gm-analyses=trace`), and
# records per build: result, first error line, wall and CPU seconds, and the
# PTX lines embedded in the program (bench/corpus/fatbin_ptx.py).
# Results: OUTDIR/builds.tsv (one row per program and compiler) and
# OUTDIR/<compiler>/<program>/ (the built tree, build.log); then
# bench/corpus/summarize.py OUTDIR writes OUTDIR/summary.md.
# Usage: bench/corpus/build.sh [-o OUTDIR] [-b BUILD_DIR] [-c "nvcc gm off"]
#        [-t SECONDS] [-j JOBS] [PROGRAM...]   (default: every program)
# Environment: GM_CORPUS (default ../shared/corpus/hecbench beside the repo).
# Depends on: a built gpumemcc (BUILD_DIR/bin), nvcc, make, GNU time, python3.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/out/corpus build=$root/build compilers="nvcc gm off" tmo=600 jobs=2
while getopts o:b:c:t:j: f; do
  case $f in
  o) out=$OPTARG ;; b) build=$OPTARG ;; c) compilers=$OPTARG ;;
  t) tmo=$OPTARG ;; j) jobs=$OPTARG ;;
  *) echo "usage: $0 [-o OUTDIR] [-b BUILD_DIR] [-c COMPILERS] [-t SECONDS] [-j JOBS] [PROGRAM...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
corpus=${GM_CORPUS:-$root/../shared/corpus/hecbench}
[ -f "$corpus/PROGRAMS.txt" ] || { echo "build.sh: no corpus at $corpus (set GM_CORPUS)" >&2; exit 2; }
build=$(cd "$build" 2>/dev/null && pwd) || { echo "build.sh: no build directory" >&2; exit 2; }
[ -x "$build/bin/gpumemcc" ] || { echo "build.sh: $build/bin/gpumemcc not built" >&2; exit 2; }
command -v nvcc >/dev/null || PATH=$PATH:${CUDA_PATH:-/usr/local/cuda}/bin
export PATH="$build/bin:$PATH"
progs=${*:-$(tail -n +2 "$corpus/PROGRAMS.txt" | cut -d'|' -f1)}
mkdir -p "$out"
tsv=$out/builds.tsv
[ -f "$tsv" ] || printf 'program\tcompiler\tresult\twall_s\tcpu_s\tptx_lines\tfirst_error\n' >"$tsv"

cc_of() {
  case $1 in
  nvcc) echo nvcc ;; gm) echo gpumemcc ;; off) echo "gpumemcc --gm-off" ;;
  trace) echo "gpumemcc --gm-analyses=trace" ;;
  sel) echo "gpumemcc --gm-native-copies" ;;
  *) echo "build.sh: unknown compiler '$1' (nvcc gm off trace sel)" >&2; exit 2 ;;
  esac
}

first_error() { # LOG: the first line that says what failed
  grep -m1 -E 'error|Error|ERROR|terminate called|Killed|Segmentation' "$1" |
    sed -e 's/\t/ /g' -e "s#$2/##g" | cut -c1-240
}

one() { # PROGRAM COMPILER
  p=$1 c=$2 cc=$(cc_of "$2")
  d=$out/$c/$p
  rm -rf "$d" && mkdir -p "$out/$c" && cp -r "$corpus/$p" "$d" && chmod -R u+w "$d"
  ( cd "$d" && /usr/bin/time -f '%e %U %S' -o .time \
      timeout -k 10 "$tmo" make -j"$jobs" CC="$cc" ARCH=sm_90 ) >"$d/build.log" 2>&1
  rc=$?
  set -- $(tail -n 1 "$d/.time" 2>/dev/null) 0 0 0
  wall=$1 cpu=$(echo "$2 $3" | awk '{printf "%.2f", $1 + $2}')
  ptx=-
  if [ $rc -eq 0 ] && [ -x "$d/main" ]; then
    result=ok err=
    ptx=$(python3 "$root/bench/corpus/fatbin_ptx.py" "$d/main" 2>/dev/null | cut -d' ' -f1)
    [ -n "$ptx" ] || ptx=-
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    result=timeout err="still building after $tmo s"
  else
    result=fail err=$(first_error "$d/build.log" "$d")
    [ -n "$err" ] || err="make exited $rc"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$c" "$result" "$wall" "$cpu" "$ptx" "$err" >>"$tsv"
  printf '%-24s %-5s %-7s %7ss %7s PTX  %s\n' "$p" "$c" "$result" "$wall" "$ptx" "$err"
}

for p in $progs; do
  [ -d "$corpus/$p" ] || { echo "build.sh: no program $p in $corpus" >&2; continue; }
  for c in $compilers; do
    # a rerun replaces the program's earlier row for this compiler
    awk -F'\t' -v p="$p" -v c="$c" '!($1 == p && $2 == c)' "$tsv" >"$tsv.tmp" && mv "$tsv.tmp" "$tsv"
    one "$p" "$c"
  done
done
