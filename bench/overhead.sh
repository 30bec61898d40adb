#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Kernel-time overhead on the GPU machine (issue 2 item 9, issue 3 item 5):
# for every example kernel, kernel_ms (CUDA events, one warm-up, then the
# timed launches, same inputs) of NAME.empty (empty handler at every memory
# and branch site) and NAME.inst (default analyses) against NAME.off
# (--gm-off), from the .devbuild/ folder made by tests/gpu/build.sh.
# Prints a markdown table with geomean and worst ratios and writes it to
# $OUT/overhead.md (when OUT is set). Sizes take tens of ms per measurement;
# the whole run stays under 3 minutes on an H100.
# Usage: bench/overhead.sh [REPS (default 1: runs per variant, median kept)]
# Depends on: sh, awk, the devbuild; no compiler.
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
dev=${GM_DEVBUILD:-$root/.devbuild}
cuda=${CUDA_PATH:-/usr/local/cuda}
reps=${1:-1}
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
[ -d "$dev/bin" ] || { echo "overhead.sh: no $dev/bin (run tests/gpu/build.sh, carry .devbuild)" >&2; exit 1; }
export LD_LIBRARY_PATH="$dev/lib:$cuda/lib64:$cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=$(mktemp -d "${TMPDIR:-/tmp}/gm_bench.XXXXXX")

bench_args() {
  case $1 in
  vector_add) echo "67108864 100" ;;
  transpose) echo "8192 100" ;;
  reduction) echo "67108864 100" ;;
  spmv) echo "2097152 16 50" ;;
  branchy) echo "67108864 100" ;;
  pointer_chase) echo "1048576 32 100000 3" ;;
  sgemm) echo "2048 10" ;;
  stencil) echo "8192 100" ;;
  *) echo "" ;;
  esac
}

# Runs NAME.VARIANT REPS times; writes "kernel ms checksum" lines (median ms).
measure() { # NAME VARIANT
  n=$1 v=$2 r=0
  : >"$work/$n.$v.all"
  while [ "$r" -lt "$reps" ]; do
    # word splitting of the argument list is intended
    if ! (cd "$work" && GPUMEM_OUT="$work/rep.$n.$v" "$dev/bin/$n.$v" $(bench_args "$n")) >"$work/$n.$v.txt" 2>&1; then
      echo "overhead.sh: $n.$v failed: $(tail -1 "$work/$n.$v.txt")" >&2
      return 1
    fi
    awk '$2 == "kernel_ms:" { ms[$1] = $3 } $2 == "checksum:" { cs[$1] = $3 }
         END { for (k in ms) print k, ms[k], cs[k] }' "$work/$n.$v.txt" >>"$work/$n.$v.all"
    r=$((r + 1))
  done
  sort -k1,1 -k2,2g "$work/$n.$v.all" | awk -v reps="$reps" '
    { k[NR] = $1; m[NR] = $2; c[NR] = $3 }
    END { for (i = 1; i <= NR; i += reps) { j = i + int((reps - 1) / 2); print k[j], m[j], c[j] } }' \
    >"$work/$n.$v.med"
}

table() {
  echo "| kernel | --gm-off ms | empty ms | empty / off | default ms | default / off | checksums |"
  echo "|---|---:|---:|---:|---:|---:|---|"
  join "$work/all.off" "$work/all.empty" | join - "$work/all.inst" | awk '
    function r(a, b) { return b > 0 ? a / b : 0 }
    { e = r($4, $2); d = r($6, $2); ok = ($3 == $5 && $3 == $7) ? "same" : "DIFFER"
      printf "| %s | %.4f | %.4f | %.2fx | %.4f | %.2fx | %s |\n", $1, $2, $4, e, $6, d, ok
      if (e > 0) { le += log(e); ne++ } if (d > 0) { ld += log(d); nd++ }
      if (e > we) { we = e; wek = $1 } if (d > wd) { wd = d; wdk = $1 } }
    END { printf "| **geomean** | | | %.2fx | | %.2fx | |\n", exp(le / ne), exp(ld / nd)
          printf "| **worst** | | | %.2fx (%s) | | %.2fx (%s) | |\n", we, wek, wd, wdk }'
}

for v in off empty inst; do : >"$work/all.$v"; done
for bin in "$dev"/bin/*.off; do
  n=$(basename "$bin" .off)
  for v in off empty inst; do
    measure "$n" "$v" && cat "$work/$n.$v.med" >>"$work/all.$v"
  done
done
for v in off empty inst; do sort -o "$work/all.$v" "$work/all.$v"; done
{
  echo "# Kernel-time overhead of instrumentation"
  echo
  echo "Command: \`sh bench/overhead.sh $reps\` (tests/gpu/build.sh devbuild, commit $(cat "$dev/commit" 2>/dev/null))"
  echo "Device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "kernel_ms: CUDA events around the timed launches after one warm-up, per launch; median of $reps run(s)."
  echo "empty: --gm-analyses=empty (empty handler at every memory and branch site); default: default analyses."
  echo
  table
} >"$work/overhead.md"
cat "$work/overhead.md"
if [ -n "${OUT:-}" ]; then mkdir -p "$OUT" && cp "$work/overhead.md" "$OUT/overhead.md"; fi
