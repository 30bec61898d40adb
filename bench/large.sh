#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Kernel time of the instrumented builds against --gm-off on the GPU
# machine, per example kernel, at one of two input sizes:
#   bench  the sizes of bench/overhead.sh (tens of ms per measurement);
#   large  inputs that take about a second or more natively (issue 3 item 5:
#          large inputs are practical), e.g. 2^28-element vectors.
# Variants: NAME.off and whichever of NAME.alloc, NAME.values, NAME.inst the
# devbuild has (tests/gpu/build.sh; GM_DEVBUILD=DIR picks the folder). For
# each: kernel_ms (the example's CUDA events around its timed launches, per
# launch, median of REPS runs), the ratio to off, the process wall time, and
# whether the checksums equal off's. Prints a markdown table with geomean
# and worst ratios; writes it to $OUT/large-MODE.md when OUT is set.
# Usage: bench/large.sh [bench|large (default large)] [REPS (default 1)]
# (GM_LARGE_TIMEOUT: seconds per program run, default 600)
# Depends on: sh, awk, date, the devbuild; no compiler.
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
dev=${GM_DEVBUILD:-$root/.devbuild}
cuda=${CUDA_PATH:-/usr/local/cuda}
mode=${1:-large}
reps=${2:-1}
case $mode in bench|large) ;; *) echo "usage: bench/large.sh [bench|large] [REPS]" >&2; exit 2 ;; esac
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
[ -d "$dev/bin" ] || { echo "large.sh: no $dev/bin (run tests/gpu/build.sh)" >&2; exit 1; }
dev=$(cd "$dev" && pwd)   # the runs below change directory
export LD_LIBRARY_PATH="$dev/lib:$cuda/lib64:$cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=$(mktemp -d "${TMPDIR:-/tmp}/gm_large.XXXXXX")

. "$root/bench/example_sizes.sh"
args() { # NAME
  if [ "$mode" = bench ]; then bench_args "$1"; else large_args "$1"; fi
}

now_ms() { date +%s%3N; }

# NAME VARIANT: "kernel ms checksum wall_s" lines (median ms of REPS runs).
measure() {
  n=$1 v=$2 r=0
  : >"$work/$n.$v.all"
  while [ "$r" -lt "$reps" ]; do
    t0=$(now_ms)
    # word splitting of the argument list is intended
    if ! (cd "$work" && GPUMEM_OUT="$work/rep.$n.$v" timeout "${GM_LARGE_TIMEOUT:-600}" "$dev/bin/$n.$v" $(args "$n")) \
         >"$work/$n.$v.txt" 2>&1; then
      echo "large.sh: $n.$v failed: $(tail -1 "$work/$n.$v.txt")" >&2
      return 1
    fi
    wall=$(( $(now_ms) - t0 ))
    awk -v w="$wall" '$2 == "kernel_ms:" { ms[$1] = $3 } $2 == "checksum:" { cs[$1] = $3 }
         END { for (k in ms) print k, ms[k], cs[k], w / 1000 }' "$work/$n.$v.txt" >>"$work/$n.$v.all"
    r=$((r + 1))
  done
  sort -k1,1 -k2,2g "$work/$n.$v.all" | awk -v reps="$reps" '
    { k[NR] = $1; m[NR] = $2; c[NR] = $3; w[NR] = $4 }
    END { for (i = 1; i <= NR; i += reps) { j = i + int((reps - 1) / 2); print k[j], m[j], c[j], w[j] } }'
}

table() {
  echo "Mode: $mode; command: sh bench/large.sh $mode $reps; devbuild: $dev; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo ""
  echo "| kernel | args | variant | --gm-off ms | variant ms | variant / off | off wall s | variant wall s | checksums |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---|"
  while read -r n k oms ow v vms vw same; do
    echo "$k $oms $ow $v $vms $vw $same|$(args "$n")"
  done <"$work/rows" | awk -F'|' '{ split($1, f, " "); a = $2
      r = f[2] > 0 ? f[5] / f[2] : 0
      printf "| %s | %s | %s | %.4f | %.4f | %.2fx | %.1f | %.1f | %s |\n", f[1], a, f[4], f[2], f[5], r, f[3], f[6], f[7]
      if (r > 0) { l[f[4]] += log(r); c[f[4]]++; if (r > w[f[4]]) { w[f[4]] = r; wk[f[4]] = f[1] } } }
    END { for (v in c) printf "| **geomean / worst** | | %s | | | %.2fx / %.2fx (%s) | | | |\n", v, exp(l[v] / c[v]), w[v], wk[v] }'
}

vars=""
for v in alloc values inst; do ls "$dev"/bin/*."$v" >/dev/null 2>&1 && vars="$vars $v"; done
: >"$work/rows"
for bin in "$dev"/bin/*.off; do
  n=$(basename "$bin" .off)
  measure "$n" off >"$work/off" || continue
  for v in $vars; do
    if [ -x "$dev/bin/$n.$v" ] && measure "$n" "$v" >"$work/var"; then :; else : >"$work/var"; fi
    # example kernel off_ms off_wall variant var_ms var_wall same
    awk -v v="$v" -v n="$n" 'NR == FNR { ms[$1] = $2; cs[$1] = $3; w[$1] = $4; next }
         { print n, $1, ms[$1], w[$1], v, $2, $4, ($3 == cs[$1] ? "same" : "DIFFER") }' \
        "$work/off" "$work/var" >>"$work/rows"
  done
  # the table so far (a run cut short still leaves it in $OUT)
  [ -n "${OUT:-}" ] && table >"$OUT/large-$mode.md"
done

table | tee "$work/table.md"
[ -n "${OUT:-}" ] && cp "$work/table.md" "$OUT/large-$mode.md"
rm -rf "$work"
