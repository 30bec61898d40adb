#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Real traces (issue 14 items 6 and 7), GPU part: on the GPU machine, from the
# repository root, with the pack bench/realtrace/build.sh made. For each
# program of the pack's programs.txt:
#   phase 1 (accuracy first): the --gm-off build run natively (twice; the
#     second is timed), the traced build run with GPUMEM_TRACE_FILE (wall
#     time, the runtime's summary line, trace size), gpumem-sim --preset h100
#     --threads 16 --json on the trace with L2 warm (default) and
#     --l2-launch=cold, then Nsight Compute on the --gm-off build:
#       cold: ncu's default (--cache-control all, kernel replay), in chunks of
#             GM_RT_NCU_CHUNK launches (--launch-skip/--launch-count), each a
#             run of its own, so a time limit loses one chunk, not all;
#       warm: --cache-control none --replay-mode application (whole-program
#             replay keeps the natural cache state), every launch;
#   phase 2 (smallest trace first): decode, and decode + simulate at 1, 2,
#     4, 8 and 16 threads (bench/sim/trace_scaling.sh on the trace alone:
#     bench_trace, the replay gpumem-sim runs, counts checked identical
#     across thread counts).
# Every step runs under a time limit (its cap, and what is left of the
# budget GM_RT_BUDGET, default 450 s; a step is skipped with under 20 s
# left) and leaves its output, exit status and wall seconds in
# $OUT/PROGRAM/STEP.{out,err,rc,s}; after each program, $OUT/table.md is
# rewritten (bench/realtrace/table.py), so a command cut off by its own
# time limit still returns the table so far. Traces stay in GM_RT_WORK.
# Usage: bench/realtrace/run.sh [PACK (default .devpack/realtrace.tar.gz)]
# Environment: OUT (default out/realtrace-run), GM_RT_BUDGET (s),
# GM_RT_NCU_CHUNK (launches per cold ncu run, default 64), GM_RT_WORK
# (default /tmp/gm-realtrace; traces, about 1 GB), NCU (default ncu on
# PATH, else $CUDA_PATH/bin/ncu), GM_RT_PROGRAMS (a subset, by name).
# Depends on: sh, timeout, awk, tar, python3, ncu, a CUDA driver.
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
pack=${1:-$root/.devpack/realtrace.tar.gz}
out=${OUT:-$root/out/realtrace-run}
work=${GM_RT_WORK:-/tmp/gm-realtrace}
budget=${GM_RT_BUDGET:-450}
chunk=${GM_RT_NCU_CHUNK:-64}
start=$(date +%s)
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd) && tar xzf "$pack" -C "$work" ||
  { echo "run.sh: cannot unpack $pack" >&2; exit 1; }
R=$work/realtrace
cuda=${CUDA_PATH:-/usr/local/cuda}
ncu=${NCU:-$(command -v ncu || echo "$cuda/bin/ncu")}
lib="$R/lib:$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
metrics=$(cd "$root/bench/sim" && python3 -c 'import compare_ncu; print(",".join(compare_ncu.METRICS))') || exit 1
raw="--csv --page raw --print-units base --print-kernel-base mangled --metrics $metrics"

log() { echo "[$(($(date +%s) - start)) s] $*"; }

# step DIR NAME CAP CMD...: CMD under min(CAP, budget left - 10) seconds;
# DIR/NAME.{out,err,rc,s}. Returns CMD's status (1 when skipped).
step() {
  _d=$1 _n=$2 _cap=$3
  shift 3
  _l=$((budget - $(date +%s) + start - 10))
  if [ "$_l" -lt 20 ]; then echo skipped >"$_d/$_n.rc"; log "$_n: skipped (budget)"; return 1; fi
  [ "$_cap" -lt "$_l" ] && _l=$_cap
  _t0=$(date +%s.%N)
  timeout -k 5 "$_l" "$@" >"$_d/$_n.out" 2>"$_d/$_n.err" </dev/null
  _rc=$?
  echo "$_t0 $(date +%s.%N)" | awk '{printf "%.3f\n", $2 - $1}' >"$_d/$_n.s"
  echo "$_rc" >"$_d/$_n.rc"
  log "$(basename "$_d") $_n: exit $_rc, $(cat "$_d/$_n.s") s"
  return "$_rc"
}

table() {
  python3 "$root/bench/realtrace/table.py" "$out" >"$out/table.md.tmp" 2>"$out/table.err" &&
    mv "$out/table.md.tmp" "$out/table.md"
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "pack: $(tr '\n' ' ' <"$R/COMMIT")"
  echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
  echo "host: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs"
  echo "ncu: $("$ncu" --version 2>&1 | tail -1)"
  echo "budget: $budget s, ncu cold chunk: $chunk launches"
} >"$out/env.txt"
cat "$out/env.txt"

progs=$(grep -v '^#' "$R/programs.txt" | cut -d'|' -f1)
[ -n "${GM_RT_PROGRAMS:-}" ] && progs=$GM_RT_PROGRAMS
echo $progs >"$out/programs"
field_of() { grep -v '^#' "$R/programs.txt" | awk -F'|' -v p="$1" -v f="$2" '$1 == p {print $f}'; }

phase1() { # PROGRAM
  p=$1 a=$(field_of "$1" 2) d=$out/$1 g=$work/$1.gmt
  mkdir -p "$d"
  echo "$a" >"$d/args"
  cd "$R/off/$p" || return
  step "$d" native.first 60 ./main $a
  step "$d" native 60 ./main $a
  cd "$R/trace/$p" || return
  rm -f "$g"
  step "$d" capture 180 env LD_LIBRARY_PATH="$lib" GPUMEM_RUNTIME="$R/lib/libgpumem.so" GPUMEM_QUIET=1 \
    GPUMEM_TRACE_FILE="$g" ./main $a
  rm -f "$d/trace.bytes"
  [ -f "$g" ] && wc -c <"$g" >"$d/trace.bytes"
  if [ -s "$g" ]; then
    step "$d" sim.warm 150 env LD_LIBRARY_PATH="$lib" "$R/bin/gpumem-sim" --preset h100 --threads 16 --json "$g"
    step "$d" sim.cold 150 env LD_LIBRARY_PATH="$lib" "$R/bin/gpumem-sim" --preset h100 --threads 16 \
      --l2-launch=cold --json "$g"
  fi
  table
  n=$(grep -o 'trace: [0-9]* launches' "$d/capture.err" 2>/dev/null | awk '{print $2}')
  [ -n "$n" ] || n=$(field_of "$p" 3)
  [ -n "$n" ] || n=$chunk
  cd "$R/off/$p" || return
  s=0 k=0
  while [ "$s" -lt "$n" ]; do
    echo "$s" >"$d/ncu.cold.$k.skip"
    step "$d" ncu.cold.$k 150 "$ncu" $raw --cache-control all --launch-skip "$s" --launch-count "$chunk" ./main $a
    s=$((s + chunk)) k=$((k + 1))
  done
  step "$d" ncu.warm 200 "$ncu" $raw --cache-control none --replay-mode application --launch-count "$n" ./main $a
  cd "$root" && table
}

for p in $progs; do phase1 "$p"; done
# phase 2, smallest trace first
for p in $(for p in $progs; do echo "$(cat "$out/$p/trace.bytes" 2>/dev/null || echo 0) $p"; done | sort -n | cut -d' ' -f2); do
  [ -s "$work/$p.gmt" ] || continue
  step "$out/$p" scaling 240 env GM_SIM_SYNTH=0 GM_SIM_REPS=1 sh "$root/bench/sim/trace_scaling.sh" \
    "$R/bin" "$out/$p" 16 "$work/$p.gmt"
  table
done
rm -f "$work"/*.gmt
cd "$root" && table
log "done; $out/table.md"
cat "$out/table.md"
