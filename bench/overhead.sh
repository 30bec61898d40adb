#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Kernel-time overhead on the GPU machine (issue 2 item 9, issue 3 item 5):
# for every example kernel, kernel_ms (CUDA events, one warm-up, then the
# timed launches, same inputs) of NAME.empty (empty handler at every memory
# and branch site) and NAME.inst (default analyses) against NAME.off
# (--gm-off), and of NAME.values (--gm-analyses=values) and NAME.alloc
# (--gm-analyses=allocations) where built (columns show "-" when not;
# NAME.empty likewise),
# from the .devbuild/ folder made by tests/gpu/build.sh.
# Prints a markdown table with geomean and worst ratios and writes it to
# $OUT/overhead.md (when OUT is set). Sizes take tens of ms per measurement;
# the whole run stays under 3 minutes on an H100.
# Usage: bench/overhead.sh [REPS (default 1: runs per variant, median kept)]
# Depends on: sh, awk, the devbuild; no compiler.
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
dev=${GM_DEVBUILD:-$root/.devbuild}
# absolute: the binaries run from a scratch directory
dev=$(cd "$dev" 2>/dev/null && pwd || echo "$dev")
cuda=${CUDA_PATH:-/usr/local/cuda}
reps=${1:-1}
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
[ -d "$dev/bin" ] || { echo "overhead.sh: no $dev/bin (run tests/gpu/build.sh, carry .devbuild)" >&2; exit 1; }
export LD_LIBRARY_PATH="$dev/lib:$cuda/lib64:$cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=$(mktemp -d "${TMPDIR:-/tmp}/gm_bench.XXXXXX")

. "$root/bench/example_sizes.sh"   # bench_args NAME

# "kernel ms" per example kernel from the runtime's report.json: the median
# of its per-launch gpu_ns (CUDA events the runtime records right around
# each launch, after the counter reset), i.e. without the per-launch
# counter read-back that the example's own events also include.
gpu_only() { # REPORT_JSON
  python3 - "$1" <<'PY' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))
ks = r.get("kernels", [])
per = {}
for l in r.get("launches", []):
    if l.get("gpu_ns", -1) >= 0 and l.get("kernel", -1) < len(ks):
        per.setdefault(l["kernel"], []).append(l["gpu_ns"])
for i, k in enumerate(ks):
    name, t = k.get("name", ""), sorted(per.get(i, []))
    if not t: continue
    base = name.split("(")[0]
    if base.startswith("_Z"):
        d = "".join(c for c in base[2:6] if c.isdigit())
        base = base[2 + len(d):2 + len(d) + int(d)] if d else base
    print(base, "%.4f" % (t[len(t) // 2] / 1e6))
PY
}

# Runs NAME.VARIANT REPS times; writes "kernel ms checksum" lines (median ms).
measure() { # NAME VARIANT
  n=$1 v=$2 r=0
  : >"$work/$n.$v.all"
  while [ "$r" -lt "$reps" ]; do
    # word splitting of the argument list is intended
    if ! (cd "$work" && GPUMEM_OUT="$work/rep.$n.$v" "$dev/bin/$n.$v" $(bench_args "$n")) >"$work/$n.$v.txt" 2>&1; then
      echo "overhead.sh: $n.$v failed: $(tail -1 "$work/$n.$v.txt")" >&2
      return 1
    fi
    awk '$2 == "kernel_ms:" { ms[$1] = $3 } $2 == "checksum:" { cs[$1] = $3 }
         END { for (k in ms) print k, ms[k], cs[k] }' "$work/$n.$v.txt" >>"$work/$n.$v.all"
    [ "$v" = inst ] && gpu_only "$work/rep.$n.$v/report.json" >>"$work/$n.gpu.all"
    r=$((r + 1))
  done
  sort -k1,1 -k2,2g "$work/$n.$v.all" | awk -v reps="$reps" '
    { k[NR] = $1; m[NR] = $2; c[NR] = $3 }
    END { for (i = 1; i <= NR; i += reps) { j = i + int((reps - 1) / 2); print k[j], m[j], c[j] } }' \
    >"$work/$n.$v.med"
}

# Gives FILE one line per kernel of all.off (NA fields where it has none),
# so that the joins below keep their columns when a variant is missing.
pad() { # FILE NFIELDS
  awk -v nf="$2" -v f="$1" 'FILENAME == f { have[$1] = $0; next }
    { if ($1 in have) print have[$1]; else { s = $1; for (i = 2; i <= nf; i++) s = s " NA"; print s } }' \
    "$1" "$work/all.off" >"$1.pad" && mv "$1.pad" "$1"
}

table() {
  pad "$work/all.gpu" 2; pad "$work/all.values" 3; pad "$work/all.alloc" 3; pad "$work/all.empty" 3
  echo "| kernel | --gm-off ms | empty ms | empty / off | default ms | default / off | default kernel-only ms | kernel-only / off | values ms | values / off | allocations ms | allocations / off | checksums |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  join "$work/all.off" "$work/all.empty" | join - "$work/all.inst" | join -a 1 -e NA -o auto - "$work/all.gpu" |
    join -a 1 -e NA -o auto - "$work/all.values" | join -a 1 -e NA -o auto - "$work/all.alloc" | awk '
    function r(a, b) { return b > 0 && a != "NA" ? a / b : 0 }
    function x(v) { return v > 0 ? sprintf("%.2fx", v) : "-" }
    function acc(i, v, k) { if (v > 0) { l[i] += log(v); n[i]++ } if (v > w[i]) { w[i] = v; wk[i] = k } }
    function gm(i) { return n[i] ? sprintf("%.2fx", exp(l[i] / n[i])) : "-" }
    function wo(i) { return n[i] ? sprintf("%.2fx (%s)", w[i], wk[i]) : "-" }
    { e = r($4, $2); d = r($6, $2); g = r($8, $2); va = r($9, $2); al = r($11, $2)
      ok = (($5 == "NA" || $3 == $5) && $3 == $7 && ($10 == "NA" || $10 == $3) && ($12 == "NA" || $12 == $3)) ? "same" : "DIFFER"
      printf "| %s | %.4f | %s | %s | %.4f | %.2fx | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $4 == "NA" ? "-" : $4, x(e), $6, d, $8, x(g), \
        $9 == "NA" ? "-" : $9, x(va), $11 == "NA" ? "-" : $11, x(al), ok
      acc(1, e, $1); acc(2, d, $1); acc(3, g, $1); acc(4, va, $1); acc(5, al, $1) }
    END { printf "| **geomean** | | | %s | | %s | | %s | | %s | | %s | |\n", gm(1), gm(2), gm(3), gm(4), gm(5)
          printf "| **worst** | | | %s | | %s | | %s | | %s | | %s | |\n", wo(1), wo(2), wo(3), wo(4), wo(5) }'
}

for v in off empty inst gpu values alloc; do : >"$work/all.$v"; done
for bin in "$dev"/bin/*.off; do
  n=$(basename "$bin" .off)
  for v in off empty inst values alloc; do
    [ -x "$dev/bin/$n.$v" ] || continue
    measure "$n" "$v" && cat "$work/$n.$v.med" >>"$work/all.$v"
  done
  [ -f "$work/$n.gpu.all" ] && sort -k1,1 -k2,2g "$work/$n.gpu.all" | awk -v reps="$reps" '
    { k[NR] = $1; m[NR] = $2 } END { for (i = 1; i <= NR; i += reps) { j = i + int((reps - 1) / 2); print k[j], m[j] } }' >>"$work/all.gpu"
done
for v in off empty inst gpu values alloc; do sort -o "$work/all.$v" "$work/all.$v"; done
{
  echo "# Kernel-time overhead of instrumentation"
  echo
  echo "Command: \`sh bench/overhead.sh $reps\` (tests/gpu/build.sh devbuild, commit $(cat "$dev/commit" 2>/dev/null))"
  echo "Device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "kernel_ms: CUDA events around the timed launches after one warm-up, per launch; median of $reps run(s)."
  echo "empty: --gm-analyses=empty (empty handler at every memory and branch site); default: default analyses;"
  echo "values: --gm-analyses=values; allocations: --gm-analyses=allocations (\"-\": variant not built)."
  echo "default kernel-only: median per-launch gpu_ns from the runtime's report.json (events right around each launch), i.e. without the"
  echo "per-launch counter reset and read-back (synchronise, copy, fold of all replicas) that the example's own events include."
  echo
  table
} >"$work/overhead.md"
cat "$work/overhead.md"
if [ -n "${OUT:-}" ]; then mkdir -p "$OUT" && cp "$work/overhead.md" "$OUT/overhead.md"; fi
