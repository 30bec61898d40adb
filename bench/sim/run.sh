#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the simulator benchmark and writes bench/sim/RESULTS.md (command,
# machine, date, tables). usage: bench/sim/run.sh BUILD_DIR [THREADS_MAX] [CHUNKS]
# Table 1: one thread, CPU-time clock, fast vs the reference model.
# Table 2: wall clock, 1..THREADS_MAX threads (meaningful only on an idle machine).
set -eu
build=${1:?usage: run.sh BUILD_DIR [THREADS_MAX] [CHUNKS]}
tmax=${2:-$(nproc)}
chunks=${3:-64}
here=$(cd "$(dirname "$0")" && pwd)
bin="$build/bin/bench_sim"
[ -x "$bin" ] || { echo "run.sh: $bin not built (ninja -C $build bench_sim)" >&2; exit 1; }
out="$here/RESULTS.md"
tmp=$(mktemp)
{
  echo "# gpumem simulator benchmark"
  echo
  echo "Command: \`bench/sim/run.sh $build $tmax $chunks\` (bench_sim --cpu --threads-max 1 --chunks $chunks;"
  echo "bench_sim --no-ref --threads-max $tmax --chunks $chunks)"
  echo
  echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo
  echo "Workloads: chunks of 8192 records (one reader block, fed while cache-hot) of warp accesses (32 lanes, 4 B, 1 store per 3 loads) spread over"
  echo "132 SMs, H100 preset: stream (contiguous 128 B per warp over 1 GiB), gather (random lanes over"
  echo "64 MiB), stencil (3 rows of 4 KiB apart, 256 MiB), reuse (each SM sweeps its own 16 KiB: L1 hits"
  echo "after the first sweep). Sector accesses = unique 32 B sectors the"
  echo "coalescer sends to the L1s (each then looked up in L1 and on a miss in L2)."
  echo
  echo "## One thread (CPU time), fast simulator vs reference model"
  echo
  "$bin" --cpu --threads-max 1 --chunks "$chunks"
  echo
  echo "## Threads (wall clock)"
  echo
  "$bin" --no-ref --threads-max "$tmax" --chunks "$chunks"
  echo
  echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg). 'counts' = identical to the reference model"
  echo "(table 1) and to the 1-thread run (table 2) in every counter."
} > "$tmp"
mv "$tmp" "$out"
cat "$out"
