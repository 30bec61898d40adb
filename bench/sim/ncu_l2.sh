#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# L2 across launches, simulator vs Nsight Compute (issue 14 item 6), on the
# GPU machine. One program, every launch, two ways each:
#   cold: ncu's default (--cache-control all: caches flushed before each
#         kernel, kernel replay) vs gpumem-sim --l2-launch=cold
#   warm: ncu --cache-control none --replay-mode application (whole-program
#         replay keeps the natural cache state) vs gpumem-sim (warm, with
#         the copies and memsets the trace carries)
# and per-kernel and per-launch tables with compare_ncu.py (L1 load and L2
# read hit rates). bench/realtrace/run.sh does the same for three corpus
# programs with time bounds, timings and the simulator's thread scaling.
# usage: bench/sim/ncu_l2.sh OUTDIR GPUMEM_SIM OFF_BINARY TRACE_BINARY [ARGS...]
#   OFF_BINARY:   the program built with gpumemcc --gm-off (or nvcc)
#   TRACE_BINARY: built with gpumemcc --gm-analyses=trace
# Example (corpus program; builds from bench/corpus/build.sh):
#   sh bench/sim/ncu_l2.sh $OUT/l2 build/bin/gpumem-sim out/c/off/atan2-cuda/main \
#      out/c/trace/atan2-cuda/main 1000
# The trace carries copies and memsets (COPY sections) once the runtime
# logs them through gm_trace_sink_copy (runtime/trace_sink.h); a trace
# without them simulates the warm case without their L2 effects.
# Depends on ncu, python3. Writes OUTDIR/{cold,warm}.{ncu.csv,sim.json,table.md}.
set -eu
out=${1:?usage: ncu_l2.sh OUTDIR GPUMEM_SIM OFF_BINARY TRACE_BINARY [ARGS...]}
sim=$2; off=$3; traced=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
metrics=$(grep -v '^#' "$root/tests/gpu/trace/metrics.txt" | paste -sd, -)
mkdir -p "$out"
raw="--csv --page raw --print-units base --print-kernel-base mangled"
ncu $raw --cache-control all --metrics "$metrics" "$off" "$@" >"$out/cold.ncu.csv" 2>"$out/cold.ncu.err"
ncu $raw --cache-control none --replay-mode application --metrics "$metrics" \
    "$off" "$@" >"$out/warm.ncu.csv" 2>"$out/warm.ncu.err"
rm -f "$out/trace.gmt"
GPUMEM_TRACE_FILE="$out/trace.gmt" GPUMEM_TRACE_SIM=0 GPUMEM_QUIET=1 "$traced" "$@" >"$out/trace.txt" 2>&1
"$sim" --json --l2-launch=cold "$out/trace.gmt" >"$out/cold.sim.json"
"$sim" --json "$out/trace.gmt" >"$out/warm.sim.json"
for m in cold warm; do
  python3 "$here/compare_ncu.py" --per-launch "$out/$m.sim.json" "$out/$m.ncu.csv" >"$out/$m.table.md"
  echo "== $m"; grep '^targets' "$out/$m.table.md"
done
