#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the simulator benchmark and writes bench/sim/RESULTS.md (command,
# machine, date, load averages, tables).
# usage: bench/sim/run.sh BENCH_SIM [THREADS_MAX] [CHUNKS]
#   BENCH_SIM: the bench_sim binary (bench/sim/build_static.sh builds one
#   without debug info, which valgrind 3.19 needs: it cannot read clang-22's
#   DWARF 5).
# Table 1: one thread, CPU-time clock, fast vs the reference model, with the
#   split between the coalescing pass and the cache-model pass.
# Table 2: from a file: trace decoding alone (zstd + records), end to end.
# Table 3: wall clock, 1..THREADS_MAX threads (meaningful only on an idle machine).
# Table 4: instructions per sector access (callgrind; machine-load independent)
#   and trace-reader instructions per record.
set -eu
bin=${1:?usage: run.sh BENCH_SIM [THREADS_MAX] [CHUNKS]}
tmax=${2:-$(nproc)}
chunks=${3:-64}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin" ] || { echo "run.sh: $bin not built (bench/sim/build_static.sh)" >&2; exit 1; }
out="$here/RESULTS.md"
tmp=$(mktemp)
dir=$(mktemp -d)
load() { echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"; }
instr() {   # instructions of one function (inclusive) in a callgrind file
  callgrind_annotate --inclusive=yes "$1" 2>/dev/null | awk -v f="$2" '$0 ~ f"( |$)" { gsub(",", "", $1); print $1; exit }'
}
{
  echo "# gpumem simulator benchmark"
  echo
  echo "Command: \`bench/sim/run.sh $bin $tmax $chunks\`"
  echo
  echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs (shared with other jobs: see the load averages)"
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo
  echo "Workloads: chunks of 8192 records (one reader block, fed while cache-hot) of warp accesses"
  echo "(32 lanes, 4 B, 1 store per 3 loads) spread over 132 SMs, H100 preset: stream (contiguous"
  echo "128 B per warp over 1 GiB), gather (random lanes over 64 MiB), stencil (3 rows of 4 KiB"
  echo "apart, 256 MiB), reuse (each SM sweeps its own 16 KiB: L1 hits after the first sweep)."
  echo "Sector accesses = unique 32 B sectors the coalescer sends to the L1s (each then looked up"
  echo "in L1 and, on a miss or a store, in L2). 'counts' = identical to the reference model and"
  echo "to the 1-thread run in every counter."
  echo
  echo "## 1. One thread (CPU time): fast simulator vs reference model"
  echo
  echo "$(load) before."
  echo "'coalescing' and 'cache model' split the fast time between the two passes of the serial"
  echo "feed (records -> line accesses; line accesses -> L1/L2), by their wall-clock shares."
  echo
  "$bin" --cpu --threads-max 1 --chunks "$chunks" --file "$dir"
  echo
  echo "The second table reads the same workloads back from trace files (zstd): 'decode' is the"
  echo "reader alone, 'end to end' is reader + simulator (one thread, CPU time). $(load) after."
  echo
  echo "## 2. Threads (wall clock)"
  echo
  echo "$(load) before."
  echo
  "$bin" --no-ref --threads-max "$tmax" --chunks "$chunks"
  echo
  echo "$(load) after."
  if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
    echo
    echo "## 3. Instructions per sector access (callgrind, 8 chunks, one thread)"
    echo
    echo "'decode' = trace reader (zstd + record decoding) per record, 2 chunks read twice."
    echo
    echo "| workload | sector accesses | fast feed | coalescing pass | cache-model pass | reference feed | reference / fast | decode per record |"
    echo "|---|---|---|---|---|---|---|---|"
    for w in stream gather stencil reuse; do
      sec=$("$bin" --threads-max 1 --chunks 8 --workload "$w" --no-ref | awk -F'|' 'NR == 3 { gsub(/ /, "", $4); print $4 }')
      valgrind --tool=callgrind --callgrind-out-file="$dir/cg" "$bin" --threads-max 1 --chunks 8 --workload "$w" >/dev/null 2>&1
      f=$(instr "$dir/cg" gm_sim_feed); c=$(instr "$dir/cg" gm_model_coalesce)
      m=$(instr "$dir/cg" gm_model_lines); r=$(instr "$dir/cg" gm_ref_feed)
      valgrind --tool=callgrind --callgrind-out-file="$dir/cgd" "$bin" --threads-max 1 --chunks 2 --workload "$w" --no-ref \
        --file "$dir" >/dev/null 2>&1
      d=$(instr "$dir/cgd" gm_trace_reader_next)
      echo "$w $sec $f $c $m $r $d" | awk '{ printf "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.1fx | %.0f |\n", $1, $2, $3/$2, $4/$2, $5/$2, $6/$2, $6/$3, $7/32768 }'
    done
  fi
} > "$tmp"
rm -rf "$dir"
chmod 644 "$tmp"
mv "$tmp" "$out"
cat "$out"
