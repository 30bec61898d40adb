#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the launch benchmark on the GPU machine: for each mode (1stream,
# 4streams, 4threads, alternate: 20,000 launches; overlap), the --gm-off build and the
# instrumented build, alternating, REPS times (default 3; the median of the
# host time per launch is kept), then prints and writes to
# $OUT/launch.md a table: host us per launch off / instrumented and the
# ratio (target <= 1.2), wall us per launch, the overlap factors, and an
# exactness check (two kernels of one module alternating over 4 streams,
# in flight at exit: counts must be 1000 x one round's). Then launches
# that run-time selection does not measure (issue 8 item 2): launch.sel
# (--gm-native-copies) with GPUMEM_KERNEL_REGEX matching no kernel, so
# every launch runs axpy's uninstrumented copy, vs launch.off, both with
# gm-ktime injected (CUPTI kernel activity): kernel ns per launch (axpy vs
# axpy__gm_native; target <= 1.02x) and host us per launch (under gm-ktime,
# so only comparable between these two rows), median of REPS.
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
# unselected launches: the uninstrumented copies (launch.sel), 1 stream
if [ -x "$bin/launch.sel" ] && [ -f "$B/lib/libgm-ktime.so" ]; then
  for v in off sel; do : >"$out/launch.unsel.$v"; done
  r=0
  while [ "$r" -lt "$reps" ]; do
    for v in off sel; do
      GPUMEM_FORCE=1 GPUMEM_KERNEL_REGEX=no_kernel_has_this_name CUDA_INJECTION64_PATH="$B/lib/libgm-ktime.so" \
        GM_KTIME_OUT="$out/launch.unsel.$v.ktime" "$bin/launch.$v" 1stream 20000 >"$out/launch.unsel.line" 2>>"$log" ||
        echo "launch.$v unselected failed" | tee -a "$log"
      kns=$(awk -F'\t' '$1 ~ /axpy/ { n += $2; t += $3 } END { if (n > 0) printf "%.1f", t / n }' "$out/launch.unsel.$v.ktime")
      echo "$(field host_us_per_launch <"$out/launch.unsel.line") $kns" >>"$out/launch.unsel.$v"
    done
    r=$((r + 1))
  done
  ho=$(awk '{ print $1 }' "$out/launch.unsel.off" | median)
  hs=$(awk '{ print $1 }' "$out/launch.unsel.sel" | median)
  ko=$(awk '{ print $2 }' "$out/launch.unsel.off" | median)
  ks=$(awk '{ print $2 }' "$out/launch.unsel.sel" | median)
  kr=$(awk -v a="$ks" -v b="$ko" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }')
  names=$(cut -f1 "$out/launch.unsel.sel.ktime" | tr '\n' ' ')
  {
    echo
    echo "Unselected launches (launch.sel --gm-native-copies, GPUMEM_KERNEL_REGEX matching no kernel; 1 stream, 20000 launches; under gm-ktime; kernels that ran: $names):"
    echo
    echo "| build | host us/launch | kernel ns/launch |"
    echo "|---|---|---|"
    echo "| --gm-off | $ho | $ko |"
    echo "| unselected (copy) | $hs | $ks |"
    echo
    echo "- kernel time unselected / --gm-off: ${kr}x (target <= 1.02)"
  } >>"$out/launch.md"
fi
cat "$out/launch.md"
