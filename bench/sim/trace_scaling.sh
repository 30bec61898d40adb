#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end replay benchmark (decode + simulate, from trace files) at 1, 2,
# 4, ... THREADS_MAX threads, on synthetic traces shaped like real ones
# and on any real traces given: writes OUT_DIR/sim-trace.md (command,
# commit, machine, date, load averages, the bench_trace table).
# usage: bench/sim/trace_scaling.sh BIN_DIR OUT_DIR [THREADS_MAX] [TRACE...]
#   BIN_DIR: holds bench_trace (bench/sim/build_static.sh builds a static
#   one into build-simbench/, which tests/gpu/pack.sh carries).
# Traces (written to a temporary directory, not timed):
#   stream   4M fully coalesced warp loads (128 B each) over 1 GiB, 132 SMs
#   gather   500k warps of 32 random 4-byte lanes over 64 MiB
#   launches 1000 small launches of 3100 records: coalesced loads and
#            stores, shared-memory records, 20-lane strided loads
#   mixed    4 launches of coalesced loads, strided stores and gathers
# Environment: GM_SIM_SYNTH=0 leaves the synthetic traces out (real traces
# only, e.g. bench/realtrace/run.sh); GM_SIM_REPS=R runs each R times and
# keeps the best (default 3).
set -eu
bin=${1:?usage: trace_scaling.sh BIN_DIR OUT_DIR [THREADS_MAX] [TRACE...]}
out=${2:?usage: trace_scaling.sh BIN_DIR OUT_DIR [THREADS_MAX] [TRACE...]}
tmax=${3:-$(nproc)}
[ $# -ge 3 ] && shift 3 || shift $#
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$bin/bench_trace" ] || { echo "trace_scaling.sh: $bin/bench_trace not built (bench/sim/build_static.sh)" >&2; exit 1; }
mkdir -p "$out"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
reps=${GM_SIM_REPS:-3}
cmd="bench/sim/trace_scaling.sh $bin $out $tmax $*"
if [ "${GM_SIM_SYNTH:-1}" = 0 ]; then
  [ $# -gt 0 ] || { echo "trace_scaling.sh: GM_SIM_SYNTH=0 and no trace given" >&2; exit 1; }
  cmd="GM_SIM_SYNTH=0 GM_SIM_REPS=$reps $cmd"
else
  set -- --synth 'warp:n=4000000,s=4,step=128,N=1G,sms=132' "$dir/stream.gmt" \
    --synth 'random:n=500000,N=64M,sms=132' "$dir/gather.gmt" \
    --synth 'warp:n=1500,s=4,step=128,sms=132,N=64M,launches=1000;warp:n=500,s=4,step=128,sms=132,N=64M,kind=st,base=0x20000000;warp:n=800,space=shared,sms=132;warp:n=300,s=12,step=128,lanes=20,sms=132,N=64M,base=0x30000000' "$dir/launches.gmt" \
    --synth 'warp:n=500000,s=4,step=128,N=256M,sms=132,launches=4;warp:n=200000,s=16,step=512,N=256M,sms=132,kind=st,base=0x40000000;random:n=20000,N=64M,sms=132,base=0x60000000' "$dir/mixed.gmt" \
    "$@"
fi
{
  echo "# gpumem-sim end to end from trace files (decode + simulate)"
  echo
  echo "Command: \`$cmd\`"
  echo
  echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs"
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg) before"
  echo
  echo "Best of $reps run(s) (wall clock). 'decode' = reader alone, one thread; the thread rows include"
  echo "decoding (the workers decode their share of the blocks) and setup. 'counts' = every"
  echo "counter identical to the one-thread run."
  echo
  "$bin/bench_trace" --threads-max "$tmax" --reps "$reps" "$@"
  echo
  echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after"
} > "$out/sim-trace.md"
cat "$out/sim-trace.md"
