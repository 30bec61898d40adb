#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the launch benchmark on the GPU machine: for each mode (1stream,
# 4streams, 4threads, alternate: 20,000 launches; overlap), the --gm-off build and the
# instrumented build, alternating, REPS times (default 3; the median of the
# host time per launch is kept), then prints and writes to
# $OUT/launch.md a table: host us per launch off / instrumented and the
# ratio (target <= 1.2), wall us per launch, the overlap factors, and an
# exactness check (two kernels of one module alternating over 4 streams,
# in flight at exit: counts must be 1000 x one round's).
# Usage: bench/launch/run.sh [BUILD_DIR (default build)] [REPS]
# Depends on: sh, awk, the binaries from bench/launch/build.sh.
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:-$root/build}" && pwd)
reps=${2:-3}
bin="$B/tests/gpu/bench-launch"
cuda=${CUDA_PATH:-/usr/local/cuda}
out=${OUT:-$root/out}
mkdir -p "$out"
[ -x "$bin/launch.inst" ] || { echo "launch: $bin/launch.inst missing (run bench/launch/build.sh)" >&2; exit 1; }
export LD_LIBRARY_PATH="$B/lib:$cuda/lib64:$cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GPUMEM_QUIET=1
log="$out/launch.log"
: >"$log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$log"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
field() { awk -v f="$1" '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }'; }
{
  echo "| mode | off host us/launch | inst host us/launch | ratio | off wall us/launch | inst wall us/launch |"
  echo "|---|---|---|---|---|---|"
} >"$out/launch.md"
for mode in 1stream 4streams 4threads alternate; do
  for v in off inst; do : >"$out/launch.$mode.$v"; done
  r=0
  while [ "$r" -lt "$reps" ]; do
    for v in off inst; do
      "$bin/launch.$v" "$mode" 20000 >>"$out/launch.$mode.$v" 2>>"$log" || echo "launch.$v $mode failed" | tee -a "$log"
    done
    r=$((r + 1))
  done
  cat "$out/launch.$mode.off" "$out/launch.$mode.inst" >>"$log"
  ho=$(field host_us_per_launch <"$out/launch.$mode.off" | median)
  hi=$(field host_us_per_launch <"$out/launch.$mode.inst" | median)
  wo=$(field wall_us_per_launch <"$out/launch.$mode.off" | median)
  wi=$(field wall_us_per_launch <"$out/launch.$mode.inst" | median)
  ratio=$(awk -v a="$hi" -v b="$ho" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  echo "| $mode | $ho | $hi | $ratio | $wo | $wi |" >>"$out/launch.md"
done
echo >>"$out/launch.md"
for v in off inst; do
  line=$("$bin/launch.$v" overlap 2>>"$log")
  echo "$v: $line" | tee -a "$log" >/dev/null
  echo "- $v: $line" >>"$out/launch.md"
done
# exactness with kernels of one module alternating over 4 streams and left
# in flight at exit: every counter = 1000 x the one-launch reference
rm -rf "$out/exact1.d" "$out/exact.d"
GPUMEM_OUT="$out/exact1.d" GPUMEM_FORMAT=csv "$bin/launch.inst" exact1 >>"$log" 2>&1
GPUMEM_OUT="$out/exact.d" GPUMEM_FORMAT=csv "$bin/launch.inst" exact 1000 >>"$log" 2>&1
verdict=$(awk -F, 'FNR == 1 { f++; next }
  { k = $1 FS $3 FS $8 FS $9 } f == 1 { ref[k] = $NF; next } { got[k] = $NF }
  END { n = 0; bad = ""
        for (k in ref) { n++; if (got[k] != ref[k] * 1000) { bad = k " expected " ref[k] * 1000 " got " got[k] + 0; break } }
        for (k in got) if (!(k in ref)) { bad = k " unexpected " got[k] }
        if (n == 0) print "FAIL: no counters"; else if (bad != "") print "FAIL: " bad; else print "PASS: " n " counters exact" }' \
  "$out/exact1.d/gpumem-counters.csv" "$out/exact.d/gpumem-counters.csv" 2>/dev/null)
echo "- exact (axpy and scale alternating over 4 streams, 1000 rounds, in flight at exit): ${verdict:-FAIL: no output}" >>"$out/launch.md"
cat "$out/launch.md"
