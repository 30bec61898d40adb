#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# GPU smoke test of libgpumem (the CUPTI runtime), independent of the pass:
# tests/gpu/runtime/smoke.cu carries a hand-written site table and counts
# one event per warp per site, so exact counts are known (n/32 warps).
#   tests/gpu/runtime_smoke.sh build [BUILD_DIR]   # here: clang + libgpumem
#   tests/gpu/runtime_smoke.sh run   [BUILD_DIR]   # on the H100
# BUILD_DIR defaults to ./build; it must hold lib/libgpumem.so. Prints one
# PASS/FAIL line per check and exits non-zero if any check fails.
set -u
cmd=${1:-run}
B=$(cd "${2:-build}" 2>/dev/null && pwd) || { echo "runtime_smoke: no build dir ${2:-build}" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
CUDA=${CUDA_PATH:-/usr/local/cuda}
OUTD="$B/tests/gpu/runtime_smoke"
BIN="$OUTD/smoke"

build() {
  mkdir -p "$OUTD" || exit 2
  python3 "$SRC/tests/lit/runtime/Inputs/mk_sitetab.py" --inc -o "$OUTD/sitetab.inc" || exit 2
  clang++-22 -x cuda --cuda-path="$CUDA" -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 -O2 -g \
    -I"$OUTD" -I"$SRC/runtime/include" "$HERE/runtime/smoke.cu" -o "$BIN" \
    -L"$B/lib" -lgpumem -L"$CUDA/lib64" -lcudart -L"$CUDA/lib64/stubs" -lcuda -lpthread \
    -Wl,-rpath,'$ORIGIN/../../../lib' -Wl,-rpath,"$CUDA/lib64" || exit 2
  echo "runtime_smoke: built $BIN"
}

fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# value of site $2 in the counter table of stderr file $1 (0 if the row is absent)
site_count() {
  awk -v s="$2" '$1 == "gpumem:" && $2 == s && $3 ~ /vecadd\.cu/ { v = $NF } END { print v + 0 }' "$1"
}

check_sites() { # file expected-per-site label
  for s in 0 1 2 4; do
    got=$(site_count "$1" $s)
    if [ "$got" = "$2" ]; then pass "$3: site $s counted $got warp executions"
    else fail "$3: site $s counted $got, expected $2"; fi
  done
  got=$(site_count "$1" 3)
  [ "$got" = 0 ] && pass "$3: uncounted site 3 is 0" || fail "$3: site 3 counted $got, expected 0"
}

run_mode() { # mode -> sets $rc, files $OUTD/$mode.{out,err}, dir $OUTD/$mode.d
  rm -rf "$OUTD/$1.d"
  # GPUMEM_VERBOSE=1: the counter tables on stderr, which site_count reads
  GPUMEM_VERBOSE=1 GPUMEM_OUT="$OUTD/$1.d" "$BIN" "$1" >"$OUTD/$1.out" 2>"$OUTD/$1.err"
  rc=$?
}

csv_count() { # kind in gpumem-timeline.csv of mode $1
  awk -F, -v k="$2" 'NR > 1 && $3 == k { c++ } END { print c + 0 }' "$OUTD/$1.d/gpumem-timeline.csv" 2>/dev/null
}

run() {
  [ -x "$BIN" ] || { echo "runtime_smoke: $BIN missing: run '$0 build' on the build machine" >&2; exit 2; }
  W=32768 # 2^20 elements / 32 lanes
  GPUMEM_DISABLE=1 "$BIN" paths >"$OUTD/base.out" 2>"$OUTD/base.err" || { cat "$OUTD/base.err"; fail "baseline run"; }
  base=$(awk '{print $NF}' "$OUTD/base.out")

  run_mode paths
  [ $rc = 0 ] && pass "paths: exit status 0" || fail "paths: exit status $rc"
  [ "$(awk '{print $NF}' "$OUTD/paths.out")" = "$base" ] && pass "paths: checksum $base as uninstrumented" \
    || fail "paths: checksum differs from GPUMEM_DISABLE=1 run"
  grep -q "4 kernel launches (4 instrumented)" "$OUTD/paths.err" && pass "paths: 4 launches seen (runtime, Ex, cooperative, driver)" \
    || fail "paths: launch summary wrong: $(grep 'kernel launches' "$OUTD/paths.err")"
  check_sites "$OUTD/paths.err" $((4 * W)) paths
  for k in alloc:4 free:3 copy:3 set:1 launch:4; do
    got=$(csv_count paths "${k%%:*}")
    [ "$got" = "${k#*:}" ] && pass "paths: timeline has $got ${k%%:*} events" \
      || fail "paths: timeline has $got ${k%%:*} events, expected ${k#*:}"
  done
  grep -q ',alloc,.*smoke.cu:[0-9]' "$OUTD/paths.d/gpumem-timeline.csv" && pass "paths: host call sites resolve to smoke.cu:line" \
    || echo "NOTE: call sites not resolved to file:line (addr2line missing or no debug info)"
  if [ -f "$OUTD/paths.d/report.json" ]; then pass "paths: report.json written"; grep -q '"input a"' "$OUTD/paths.d/report.json" \
    && pass "paths: allocation label in report.json" || fail "paths: label 'input a' missing from report.json"
  else echo "NOTE: no report.json (report library not linked)"; fi

  run_mode graph
  grep -q "1 graph launches and 1 launches captured" "$OUTD/graph.err" \
    && pass "graph: graph launch and captured launch counted" \
    || fail "graph: $(grep 'kernel launches' "$OUTD/graph.err")"
  if grep -q 'kernel \[CUDA graph\].* 1 launch$' "$OUTD/graph.err"; then check_sites "$OUTD/graph.err" $W graph
  else fail "graph: no [CUDA graph] counts"; fi
  # kernel time: the graph's kernel nodes counted at instantiation; all
  # their records arrived (no "incomplete" note) and give the launch a time
  gt=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); g=[l['gpu_ns'] for l in r['launches'] if l['api'].startswith(('cuGraphLaunch','cudaGraphLaunch'))]; print(len(g), int(all(x > 0 for x in g)), sum('incomplete' in n for n in r['notes']))" "$OUTD/graph.d/report.json" 2>&1)
  [ "$gt" = "1 1 0" ] && pass "graph: graph launch timed, no incomplete kernel time" \
    || fail "graph: graph launches, timed, incomplete notes: $gt (expected 1 1 0)"

  run_mode threads
  [ $rc = 0 ] && check_sites "$OUTD/threads.err" $((16 * W)) threads || fail "threads: exit status $rc"

  run_mode gpus
  ngpu=$(awk '$2 == "gpus" { print $3 }' "$OUTD/gpus.out")
  if [ $rc = 0 ] && [ -n "$ngpu" ]; then
    grep -q "sums equal" "$OUTD/gpus.out" && pass "gpus: $ngpu GPUs, every device's result equals device 0's" \
      || fail "gpus: results differ between devices"
    grep -q "$ngpu kernel launches ($ngpu instrumented)" "$OUTD/gpus.err" && pass "gpus: $ngpu launches seen, one per GPU" \
      || fail "gpus: launch summary wrong: $(grep 'kernel launches' "$OUTD/gpus.err")"
    check_sites "$OUTD/gpus.err" $((ngpu * W)) "gpus($ngpu)"
    [ "$ngpu" -lt 2 ] && echo "NOTE: one GPU here: the multi-GPU case needs a machine with several"
  else fail "gpus: exit status $rc"; fi

  run_mode exit
  [ $rc = 7 ] && pass "exit: exit status 7 kept" || fail "exit: exit status $rc, expected 7"
  check_sites "$OUTD/exit.err" $W exit

  run_mode crash
  [ $rc = 139 ] && pass "crash: died of SIGSEGV (status 139)" || fail "crash: exit status $rc, expected 139"
  check_sites "$OUTD/crash.err" $W crash
  [ -s "$OUTD/crash.d/gpumem-timeline.csv" ] && pass "crash: report files written" || fail "crash: no report files"

  run_mode abort
  [ $rc = 134 ] && pass "abort: died of SIGABRT (status 134)" || fail "abort: exit status $rc, expected 134"
  check_sites "$OUTD/abort.err" $W abort

  NCU=$(command -v ncu 2>/dev/null || echo "$CUDA/bin/ncu")
  if [ -x "$NCU" ]; then
    "$NCU" --metrics gpu__time_duration.sum "$BIN" paths >"$OUTD/ncu.out" 2>"$OUTD/ncu.err"; rc=$?
    [ $rc = 0 ] && pass "ncu: exit status 0" || fail "ncu: exit status $rc"
    n=$(grep -c "^gpumem: CUPTI is held by" "$OUTD/ncu.err" "$OUTD/ncu.out" | awk -F: '{s+=$NF} END {print s}')
    [ "$n" = 1 ] && pass "ncu: one line naming the CUPTI holder: $(grep -h '^gpumem: CUPTI' "$OUTD/ncu.err" "$OUTD/ncu.out")" \
      || fail "ncu: $n 'CUPTI is held' lines, expected 1"
    grep -q "checksum $base" "$OUTD/ncu.out" && pass "ncu: checksum unchanged" || fail "ncu: checksum changed or missing"
  else
    echo "NOTE: ncu not found; CUPTI-holder check skipped"
  fi
  [ $fails = 0 ] && echo "runtime_smoke: ALL PASS" || echo "runtime_smoke: $fails FAILED (outputs in $OUTD)"
  [ $fails = 0 ]
}

case $cmd in
  build) build ;;
  run) run ;;
  *) echo "usage: $0 build|run [BUILD_DIR]" >&2; exit 2 ;;
esac
