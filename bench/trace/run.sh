#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Trace capture rate on the GPU machine (issue 14 item 1): bench/trace/
# capture.cu in three modes (small: 2000 launches x 6,144 records; medium:
# 500 x 98,304; large: 4 x 6.3 M), each run natively (--gm-off build) and
# traced to a file (--gm-analyses=trace, online simulation off) with 1
# coding thread and with the default (cores - 2), plus small and medium with
# the online simulator on. Times whole processes (a traced process drains
# what is left at exit). Prints and writes $OUT/trace-capture.md: records,
# native and traced seconds, slowdown, million records per second over the
# traced process's time beyond the native one's start-up (traced wall -
# (native wall - native loop)), trace MB, and whether every record was
# saved (the runtime's summary line against the program's count).
# Usage: bench/trace/run.sh [MODE...] (default: small medium large)
# Depends on: sh, awk, date, the binaries of tests/gpu/trace/build.sh
# (.devbuild/trace/bin/capture.{off,trace}).
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
dev=${GM_TRACE_DEVBUILD:-$root/.devbuild/trace}
out=${OUT:-$root/out}
work=$out/trace-capture
modes=${*:-"small medium large"}
mkdir -p "$work"
[ -x "$dev/bin/capture.trace" ] || { echo "trace-capture: $dev/bin/capture.trace missing (run tests/gpu/trace/build.sh)" >&2; exit 1; }
export LD_LIBRARY_PATH="$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# not GPUMEM_QUIET: since 44509e4 it also hides the trace summary line the
# 'saved' column reads
unset GPUMEM_QUIET
cores=$(nproc)
def=$((cores - 2)); [ "$def" -ge 1 ] || def=1
md=$out/trace-capture.md
now() { date +%s.%N; }
field() { awk -v f="$1" '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }' "$2" | tail -1; }
{
  echo "# Trace capture rate ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $cores cores, $(date -u +%Y-%m-%d), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || cat "$root/.devpack/commit" 2>/dev/null))"
  echo
  echo "| mode | records | native s (loop s) | traced as | traced s | slowdown | M records/s | trace MB | saved |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$md"
# run TAG BIN MODE [ENV...]: wall seconds into $work/TAG.wall, output in $work/TAG.{out,err}
run() {
  tag=$1 bin=$2 mode=$3
  shift 3
  t0=$(now)
  env "$@" timeout 900 "$dev/bin/$bin" "$mode" >"$work/$tag.out" 2>"$work/$tag.err"
  rc=$?
  t1=$(now)
  echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >"$work/$tag.wall"
  [ "$rc" = 0 ] || echo "trace-capture: $tag exit status $rc: $(tail -2 "$work/$tag.err" | tr '\n' ' ')" >&2
}
for mode in $modes; do
  run "$mode.off" capture.off "$mode"
  nw=$(cat "$work/$mode.off.wall")
  nl=$(field loop_s "$work/$mode.off.out")
  recs=$(field records "$work/$mode.off.out")
  variants="t1"; [ "$def" -gt 1 ] && variants="t1 t$def"
  case $mode in small|medium) variants="$variants sim" ;; esac
  for v in $variants; do
    tag=$mode.$v
    rm -f "$work/$tag.gmt"
    case $v in
    sim) run "$tag" capture.trace "$mode" GPUMEM_TRACE_FILE="$work/$tag.gmt" GPUMEM_TRACE_SIM=1 \
           GPUMEM_TRACE_SIM_OUT="$work/$tag.online"; as="$def threads + online sim" ;;
    *) run "$tag" capture.trace "$mode" GPUMEM_TRACE_FILE="$work/$tag.gmt" GPUMEM_TRACE_THREADS="${v#t}"
       as="${v#t} coding thread(s)" ;;
    esac
    tw=$(cat "$work/$tag.wall")
    saved=$(grep -o 'trace: [0-9]* launches, [0-9]* records saved' "$work/$tag.err" | awk '{ print $4 }')
    mb=$(du -m "$work/$tag.gmt" 2>/dev/null | cut -f1)
    ok=no; [ "${saved:-x}" = "$recs" ] && grep -q ' 0 dropped, 0 over the cap, 0 lost' "$work/$tag.err" && ok=yes
    echo "$mode $recs $nw $nl $tw" | awk -v as="$as" -v mb="${mb:-?}" -v ok="$ok" -v sv="${saved:-?}" '{
      cap = $5 - ($3 - $4); if (cap <= 0) cap = $5
      printf "| %s | %d | %.3f (%.3f) | %s | %.3f | %.1fx | %.1f | %s | %s (%s) |\n",
             $1, $2, $3, $4, as, $5, $5 / $3, $2 / cap / 1e6, mb, ok, sv }' >>"$md"
    rm -f "$work/$tag.gmt"
  done
done
# the host side alone (no GPU): decode, code, compress, write per worker count
if [ -x "$dev/bin/pipe_bench" ]; then
  { echo; echo "Host side alone (bench/trace/pipe_bench: chunks of device slots through the pipe, file on $work):"
    echo; echo '```'
    "$dev/bin/pipe_bench" 40000000 "$def" saxpy "$work/pipe.gmt"; rm -f "$work/pipe.gmt"
    "$dev/bin/pipe_bench" 4000000 "$def" gather "$work/pipe.gmt"; rm -f "$work/pipe.gmt"
    echo '```'; } >>"$md" 2>&1
fi
cat "$md"
echo "result: $(grep -c '| yes ' "$md") runs saved every record; table in $md"
