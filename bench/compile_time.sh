#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compile-time ratio of gpumemcc with the default analyses against
# gpumemcc --gm-off (same compiler and flags, no instrumentation) over every
# example (issue 2 item 9, target <= 1.3x). Each example is compiled to an
# object (-c: clang, the pass, ptxas, fatbinary) REPS times per mode,
# alternating the modes; the medians of CPU time (user+sys of gpumemcc and
# its children: robust on a shared machine) and of wall time are kept.
# Writes bench/results/compile_time.md with the command, machine and date.
# Usage: bench/compile_time.sh [BUILD_DIR (default build)] [REPS (default 5)]
# Depends on: a built gpumemcc, sh, awk, python3 (timer).
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || { echo "compile_time.sh: no build directory '${1:-$root/build}'" >&2; exit 1; }
reps=${2:-5}
cc=$build/bin/gpumemcc
[ -x "$cc" ] || { echo "compile_time.sh: $cc not found: build gpumem first" >&2; exit 1; }
case $reps in ''|*[!0-9]*|0) echo "compile_time.sh: REPS must be a positive integer" >&2; exit 1 ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/gm_ctime.XXXXXX")
out=$root/bench/results/compile_time.md

# Runs a command; prints "cpu_seconds wall_seconds" (children's user+sys).
TIMER='import os, resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=open(os.environ["GM_LOG"], "w"))
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.4f %.4f" % (u.ru_utime + u.ru_stime, time.monotonic() - t))
sys.exit(rc)'

time_one() { # SRC OBJ FLAGS... ; prints "cpu wall"
  src=$1 obj=$2
  shift 2
  GM_LOG=$work/log python3 -c "$TIMER" "$cc" -arch=sm_90 -O3 -c "$@" "$src" -o "$obj" ||
    { echo "compile_time.sh: $(basename "$src") $*: $(head -1 "$work/log")" >&2; return 1; }
}

median() { # COLUMN < lines
  awk -v c="$1" '{ print $c }' | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

rows=""
for src in "$root"/examples/*.cu; do
  n=$(basename "$src" .cu)
  : >"$work/$n.off"; : >"$work/$n.inst"
  i=0
  while [ "$i" -lt "$reps" ]; do
    time_one "$src" "$work/$n.o" --gm-off >>"$work/$n.off" || exit 1
    time_one "$src" "$work/$n.o" >>"$work/$n.inst" || exit 1
    i=$((i + 1))
  done
  echo "$n $(median 1 <"$work/$n.off") $(median 1 <"$work/$n.inst")" \
    "$(median 2 <"$work/$n.off") $(median 2 <"$work/$n.inst")" >>"$work/rows"
  echo "compile_time: $(tail -1 "$work/rows")" >&2
done

{
  echo "# Compile time: gpumemcc (default analyses) vs gpumemcc --gm-off"
  echo
  echo "Command: \`sh bench/compile_time.sh ${1:-build} $reps\` (commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null))"
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores (shared with other jobs); $(uname -sr)"
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "Each example compiled with \`-arch=sm_90 -O3 -c\` $reps times per mode, modes alternating;"
  echo "medians of CPU time (user+sys, gpumemcc and children) and of wall time."
  echo
  echo "| example | --gm-off cpu s | default cpu s | cpu ratio | --gm-off wall s | default wall s | wall ratio |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  awk '{ r = $3 / $2; q = $5 / $4
         printf "| %s | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx |\n", $1, $2, $3, r, $4, $5, q
         l += log(r); lw += log(q); n++; so += $2; si += $3; wo += $4; wi += $5
         if (r > w) { w = r; wk = $1 } if (q > ww) { ww = q; wwk = $1 } }
       END { printf "| **all (sum)** | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx |\n", so, si, si / so, wo, wi, wi / wo
             printf "| **geomean** | | | %.2fx | | | %.2fx |\n", exp(l / n), exp(lw / n)
             printf "| **worst** | | | %.2fx (%s) | | | %.2fx (%s) |\n", w, wk, ww, wwk }' "$work/rows"
} >"$out"
cat "$out"
rm -rf "$work"
