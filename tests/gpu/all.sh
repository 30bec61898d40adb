#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs GPU suites on the GPU machine from the repository root, after
# tests/gpu/pack.sh made .devpack/ here (carry .devpack). Each suite's log
# goes to $OUT/<suite>.log; the summary lines are printed at the end.
# Usage: tests/gpu/all.sh SUITE... (examples kat runtime link select callsites trace driver pass
#        overhead ncu-trace ncu-compare sim-scaling sim-trace alloc-spmv loopinv large
#        trace-capture;
#        default: the correctness suites)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-$root/out}
mkdir -p "$out"
[ -f .devpack/gpu.tar.gz ] && tar xzf .devpack/gpu.tar.gz
B=$(cat .devpack/build_dir 2>/dev/null || echo build)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
suites=${*:-"pass driver runtime link examples kat trace"}
summary=""
for s in $suites; do
  t0=$(date +%s)
  case $s in
  pass)     "$B/tests/lit/pass/Output/gpu_counts.cu.tmp.app" ;;
  driver)   sh "$B/gpu-driver/run.sh" ;;
  runtime)  sh tests/gpu/runtime_smoke.sh run "$B" ;;
  link)     sh tests/gpu/link.sh run "$B" ;;
  select)   sh tests/gpu/select.sh run "$B" ;;
  callsites) sh tests/gpu/callsites.sh run "$B" ;;
  examples) sh tests/gpu/run.sh ;;
  kat)      WITH_NCU=1 sh tests/gpu/kat/run.sh ;;
  trace)    sh tests/gpu/trace/run.sh ;;
  trace-capture) OUT="$out" sh bench/trace/run.sh ;;
  ncu-trace) sh tests/gpu/trace/ncu.sh ;;
  ncu-compare) OUT="$out" sh tests/gpu/ncu_compare.sh ;;
  overhead) sh bench/overhead.sh ;;
  alloc-spmv) DEV=.devbuild MODES= OUT="$out" sh tests/gpu/diag_alloc.sh ;;
  loopinv)  OUT="$out" sh tests/gpu/loopinv_ab.sh ;;
  large)    GM_LARGE_TIMEOUT=120 OUT="$out" sh bench/large.sh large 1 ;;
  sim-scaling) lscpu | grep 'Model name'; nproc; cat /proc/loadavg
            build-simbench/bench_sim --no-ref --threads-max 16 --chunks 256
            build-simbench/bench_sim --cpu --threads-max 1 --chunks 64 ;;
  sim-trace) sh bench/sim/trace_scaling.sh build-simbench "$out" 16 ${GM_SIM_TRACES:-} ;;
  *) echo "unknown suite $s" ;;
  esac >"$out/$s.log" 2>&1
  rc=$?
  summary="$summary
== $s: rc=$rc, $(( $(date +%s) - t0 )) s: $(grep -E 'passed|PASS$|FAIL|result|ALL' "$out/$s.log" | tail -3 | tr '\n' '|')"
done
echo "$summary"
