#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# GPU suite `select` (issue 8 item 2): launches that run-time selection
# (GPUMEM_KERNEL_REGEX, GPUMEM_LAUNCH_SKIP/EVERY/COUNT) does not measure run
# the kernels' uninstrumented copies (gpumemcc --gm-native-copies) at native
# speed.
#   tests/gpu/select.sh build [BUILD_DIR]   # here: gpumemcc (3 builds of select.cu)
#   tests/gpu/select.sh run   [BUILD_DIR]   # on the H100 (tests/gpu/all.sh select)
# Builds (tests/gpu/select/select.cu: 3 kernels, L launches each; in
# BUILD_DIR/tests/gpu/select):
#   off   --gm-off;  sel   --gm-native-copies;  inst   default (no copies)
# Every run has gm-ktime injected (CUPTI kernel activity: time and launches
# per kernel name, so a copy shows under its own name K__gm_native).
# Checks:
#   results   the checksum of every run equals the --gm-off run's
#   every2    sel, GPUMEM_LAUNCH_EVERY=2: per kernel L/2 launches ran K and
#             L/2 ran K__gm_native; every counter is exactly half the
#             all-measured run's (nothing of the unmeasured launches is
#             counted); the note says the others ran the copies (and the
#             runtime's own check of the copies' counters did not warn)
#   nocopy    inst, GPUMEM_LAUNCH_EVERY=2: no copy ran, the note says so
#   time      per-launch kernel time of the copies (sel with a regex that
#             matches no kernel: every launch unmeasured) / --gm-off's, per
#             kernel, median of REPS alternating runs; target <= 1.02
# Prints PASS/FAIL lines and the ratios; exits non-zero if a check fails
# (a ratio over the target is printed as MISS, not a failure).
set -u
cmd=${1:-run}
B=$(cd "${2:-build}" 2>/dev/null && pwd) || { echo "select: no build dir ${2:-build}" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CUDA=${CUDA_PATH:-/usr/local/cuda}
OUTD=$B/tests/gpu/select
L=${LAUNCHES:-40}
REPS=${REPS:-3}

build() {
  rm -rf "$OUTD" && mkdir -p "$OUTD" || exit 2
  gm="$B/bin/gpumemcc -arch=sm_90 -O3"
  set -e
  $gm --gm-off "$SRC/tests/gpu/select/select.cu" -o "$OUTD/off"
  $gm --gm-native-copies "$SRC/tests/gpu/select/select.cu" -o "$OUTD/sel"
  $gm "$SRC/tests/gpu/select/select.cu" -o "$OUTD/inst"
  set +e
  echo "select: built $OUTD/off sel inst"
}

fails=0
check() { # NAME CONDITION-TEXT MESSAGE
  if [ "$2" = ok ]; then echo "PASS: select $1"; else echo "FAIL: select $1: $3"; fails=$((fails + 1)); fi
}

# r NAME BINARY [VAR=VALUE...]: one run; report in NAME.d, kernel times in NAME.ktime
r() {
  name=$1 bin=$2
  shift 2
  rm -rf "$OUTD/$name.d"
  env "$@" GPUMEM_OUT="$OUTD/$name.d" GPUMEM_FORMAT=csv GPUMEM_FORCE=1 \
    CUDA_INJECTION64_PATH="$B/lib/libgm-ktime.so" GM_KTIME_OUT="$OUTD/$name.ktime" \
    "$OUTD/$bin" "$L" >"$OUTD/$name.out" 2>"$OUTD/$name.err"
  echo "$name: rc=$? $(cat "$OUTD/$name.out")"
}

# launches and ns of the rows of kernel K (native: its copy) in a ktime file
kt() {
  awk -F'\t' -v k="$2" -v nat="${3:-}" '$1 ~ k && ($1 ~ /__gm_native$/) == (nat != "") { n += $2; t += $3 }
    END { printf "%d %d\n", n, t }' "$1"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

run() {
  export LD_LIBRARY_PATH="$B/lib:$CUDA/lib64:$CUDA/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export GPUMEM_QUIET=1
  [ -x "$OUTD/sel" ] || { echo "select: $OUTD/sel missing (run tests/gpu/select.sh build)"; exit 2; }
  [ -f "$B/lib/libgm-ktime.so" ] || { echo "select: $B/lib/libgm-ktime.so missing (build target gm-ktime)"; exit 2; }
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  r off off
  r all sel
  r every2 sel GPUMEM_LAUNCH_EVERY=2
  r nocopy inst GPUMEM_LAUNCH_EVERY=2
  ref=$(cat "$OUTD/off.out")
  bad=""
  for n in all every2 nocopy; do [ "$(cat "$OUTD/$n.out")" = "$ref" ] || bad="$bad $n"; done
  check results "$([ -n "$ref" ] && [ -z "$bad" ] && echo ok)" "checksum differs from --gm-off's in:$bad"

  half=$((L / 2))
  for k in gather twice tile; do
    set -- $(kt "$OUTD/every2.ktime" "$k" native) $(kt "$OUTD/every2.ktime" "$k")
    check "every2 $k" "$([ "$1" = "$half" ] && [ "$3" = "$half" ] && echo ok)" \
      "expected $half launches of the copy and $half of the kernel, got $1 and $3 (every2.ktime)"
  done
  verdict=$(awk -F, 'FNR == 1 { f++; next }
    { k = $1 FS $3 FS $8 FS $9 } f == 1 { ref[k] = $NF; next } { got[k] = $NF }
    END { n = 0; bad = ""
          for (k in ref) { n++; if (got[k] * 2 != ref[k]) { bad = k " all-measured " ref[k] " every-2nd " got[k] + 0; break } }
          for (k in got) if (!(k in ref)) bad = k " unexpected " got[k]
          if (n == 0) print "no counters"; else if (bad != "") print bad; else print "ok" }' \
    "$OUTD/all.d/gpumem-counters.csv" "$OUTD/every2.d/gpumem-counters.csv" 2>&1)
  check "every2 counts" "$verdict" "$verdict"
  grep -q "the $((L * 3 / 2)) others ran the uninstrumented copies" "$OUTD/every2.err" && ! grep -q "ignored the switch" "$OUTD/every2.err"
  check "every2 note" "$([ $? = 0 ] && echo ok)" "no 'the $((L * 3 / 2)) others ran the uninstrumented copies' in every2.err, or the runtime found the driver ignored the switch"
  set -- $(kt "$OUTD/nocopy.ktime" . native)
  grep -q "of the $((L * 3 / 2)) others 0 ran the uninstrumented copies, $((L * 3 / 2)) the kernel as built" "$OUTD/nocopy.err"
  check nocopy "$([ $? = 0 ] && [ "$1" = 0 ] && echo ok)" "a copy ran ($1 launches) or the note is missing (nocopy.err)"

  # time: every launch unmeasured (copies) vs --gm-off, and the measured
  # (instrumented) launches of the all run for scale
  i=0
  : >"$OUTD/time.rows"
  while [ "$i" -lt "$REPS" ]; do
    r "toff$i" off
    r "tsel$i" sel GPUMEM_KERNEL_REGEX=no_kernel_has_this_name
    for k in gather twice tile; do
      set -- $(kt "$OUTD/toff$i.ktime" "$k") $(kt "$OUTD/tsel$i.ktime" "$k" native)
      echo "$k $1 $2 $3 $4" >>"$OUTD/time.rows"
    done
    i=$((i + 1))
  done
  for k in gather twice tile; do
    off=$(awk -v k=$k '$1 == k && $2 > 0 { print $3 / $2 }' "$OUTD/time.rows" | median)
    nat=$(awk -v k=$k '$1 == k && $4 > 0 { print $5 / $4 }' "$OUTD/time.rows" | median)
    set -- $(kt "$OUTD/all.ktime" "$k")
    inst=$(awk -v n="$1" -v t="$2" 'BEGIN { if (n > 0) print t / n; else print 0 }')
    ratio=$(awk -v a="$nat" -v b="$off" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }')
    iratio=$(awk -v a="$inst" -v b="$off" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "-" }')
    echo "select: $k per launch: --gm-off $off ns, unmeasured (copy) $nat ns, measured (instrumented) $inst ns; copy/off ${ratio}x (target <= 1.02), instrumented/off ${iratio}x"
    case $ratio in
    -) check "time $k" no "no copy launches timed (time.rows)" ;;
    *) awk -v r="$ratio" 'BEGIN { exit !(r <= 1.02) }' && echo "PASS: select time $k ${ratio}x" || echo "MISS: select time $k ${ratio}x (target <= 1.02)" ;;
    esac
  done
  [ "$fails" = 0 ] && echo "select: ALL PASS" || echo "select: $fails FAIL"
  [ "$fails" = 0 ]
}

case $cmd in
build) build ;;
run) run ;;
*) echo "usage: tests/gpu/select.sh build|run [BUILD_DIR]" >&2; exit 2 ;;
esac
