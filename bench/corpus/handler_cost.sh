#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Handler cost on real code (issue 8 item 3), GPU part, one command: kernel
# time of each chosen corpus program instrumented (default analyses) over
# its --gm-off build, every launch measured (bench/corpus/run.sh with
# -c "nvcc gm off": gm-ktime sums every kernel's CUPTI duration, the same
# measurement for both builds), then the examples' benchmark
# (bench/overhead.sh) when a devbuild is carried. Prints one table with the
# geomean and the worst ratio and writes it to $OUT/handler-cost.md.
# Run from the repository root on the GPU machine, carrying .devpack (made
# here by bench/corpus/pack.sh) and, for the examples, .devbuild
# (tests/gpu/build.sh).
# Usage: bench/corpus/handler_cost.sh [-t SECONDS per run] [PROGRAM...]
#   (default programs: those in the pack)
# Depends on: sh, awk, bench/corpus/run.sh, bench/overhead.sh.
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
tmo=120
while getopts t: f; do
  case $f in t) tmo=$OPTARG ;; *) echo "usage: $0 [-t SECONDS] [PROGRAM...]" >&2; exit 2 ;; esac
done
shift $((OPTIND - 1))
out=${OUT:-$root/out/handler-cost}
mkdir -p "$out/corpus"
[ -f "$root/.devpack/corpus.tar.gz" ] || { echo "handler_cost.sh: no .devpack/corpus.tar.gz (bench/corpus/pack.sh)" >&2; exit 2; }
OUT=$out/corpus sh "$root/bench/corpus/run.sh" -t "$tmo" -c "nvcc gm off sel" "$@"
md=$out/handler-cost.md
{
  echo "# Handler cost: kernel time gm / --gm-off (every launch), $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/device: /'
  echo "command: sh bench/corpus/handler_cost.sh -t $tmo $*"
  echo
  echo "| program | verdict | nvcc kernel ms | gm kernel ms | off kernel ms | gm / off | sampled kernel ms | sampled / off | note |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
  awk -F'\t' 'NR > 1 {
      r = ($8 != "-" && $9 != "-" && $9 > 0) ? $8 / $9 : -1
      q = ($11 != "" && $11 != "-" && $9 != "-" && $9 > 0) ? $11 / $9 : -1
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $4, $7, $8, $9, r < 0 ? "-" : sprintf("%.2fx", r),
             $11 == "" ? "-" : $11, q < 0 ? "-" : sprintf("%.2fx", q), $10
      if (r > 0) { n++; s += log(r); if (r > w) { w = r; wp = $1 } }
      if (q > 0) { nq++; sq += log(q); if (q > wq) { wq = q; wqp = $1 } }
      else if ($4 == "timeout") t = t " " $1
    } END {
      printf "\n- geomean gm / off over %d programs with both kernel times: %s (target <= 3x)\n", n, n ? sprintf("%.2fx", exp(s / n)) : "-"
      printf "- worst: %s (target <= 20x)\n", n ? sprintf("%.2fx (%s)", w, wp) : "-"
      if (nq) printf "- sampled (--gm-native-copies build, GPUMEM_LAUNCH_EVERY=%s: every %sth launch of each kernel measured, the others run uninstrumented copies): geomean sampled / off over %d programs %.2fx, worst %.2fx (%s)\n", every, every, nq, exp(sq / nq), wq, wqp
      if (t != "") printf "- gpumemcc build over the time limit:%s\n", t
    }' every="${GM_SEL_EVERY:-10}" "$out/corpus/runs.tsv"
} >"$md"
cat "$md"
if [ -d "${GM_DEVBUILD:-$root/.devbuild}/bin" ]; then
  echo
  OUT=$out sh "$root/bench/overhead.sh" 1
fi
