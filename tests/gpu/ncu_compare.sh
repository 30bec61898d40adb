#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# gpumem vs Nsight Compute for every example kernel (issue 3 item 4), on the
# GPU machine from the repository root with .devbuild/ (tests/gpu/build.sh).
# For each example NAME (arguments as in tests/gpu/run.sh, all launches):
#   - NAME.inst (default analyses: coalescing, divergence) with GPUMEM_OUT
#     -> report.json (per kernel, summed over launches);
#   - ncu --csv --page raw on NAME.off with the same arguments, every launch
#     profiled; tests/gpu/ncu/compare.py sums ncu's rows per kernel;
#   - cuobjdump -sass NAME.off: the native SASS census (which instructions
#     ncu counted: LDG.E.128, RED, generic LD, BRA), when cuobjdump exists.
# Metrics that this ncu does not know (ncu --query-metrics) are left out and
# reported as missing. Writes $OUT/ncu_compare.md (per-kernel table: exact or
# diff with the cause) and the raw files to $OUT/ncu_compare/. Exits 0 when
# every required comparison is exact, 1 otherwise, 0 with SKIP without a GPU.
# Depends on: ncu, python3, c++filt, the devbuild (cuobjdump optional).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
dev=${GM_DEVBUILD:-$root/.devbuild}
cuda=${CUDA_PATH:-/usr/local/cuda}
ncu=${NCU:-$(command -v ncu 2>/dev/null || echo "$cuda/bin/ncu")}
out=${OUT:-/tmp/gm-ncu-compare}
raw=$out/ncu_compare

# Arguments per example (shared with the other GPU checks).
. "$root/tests/gpu/example_args.sh"

# The metrics this ncu knows, comma-separated, from tests/gpu/ncu/metrics.py.
known_metrics() {
  "$ncu" --query-metrics >"$raw/query-metrics.txt" 2>&1
  python3 -c "import sys; sys.path.insert(0, '$root/tests/gpu/ncu'); import metrics; print('\n'.join(metrics.all_names()))" |
  while read -r m; do
    b=${m%.*}
    if ! grep -q '^[[:space:]]*l1tex__' "$raw/query-metrics.txt" ||
       grep -q "^[[:space:]]*$b[[:space:]]" "$raw/query-metrics.txt"; then
      echo "$m"
    else
      echo "missing metric (not in ncu --query-metrics): $m" >&2
    fi
  done | paste -sd, -
}

one() { # NAME ARGS...
  n=$1
  shift
  mkdir -p "$raw/$n.gm" "$raw/$n.cwd"
  (cd "$raw/$n.cwd" && GPUMEM_OUT="$raw/$n.gm" timeout 300 "$dev/bin/$n.inst" "$@") >"$raw/$n.inst.txt" 2>&1 ||
    echo "FAIL $n.inst: exit status $?: $(tail -2 "$raw/$n.inst.txt" | tr '\n' ' ')"
  timeout 300 "$ncu" --csv --page raw --print-units base --print-kernel-base mangled \
    --metrics "$metrics" --log-file "$raw/$n.ncu.csv" "$dev/bin/$n.off" "$@" >"$raw/$n.off.txt" 2>&1
  # an ncu that writes the table to stdout despite --log-file
  if ! grep -q '^"ID"' "$raw/$n.ncu.csv" 2>/dev/null && grep -q '^"ID"' "$raw/$n.off.txt"; then
    cp "$raw/$n.off.txt" "$raw/$n.ncu.csv"
  fi
  if ! grep -q '^"ID"' "$raw/$n.ncu.csv" 2>/dev/null; then
    # no table: retry with the required metrics and default printing options
    echo "note: ncu on $n.off gave no table ($(grep -m1 -i error "$raw/$n.ncu.csv" "$raw/$n.off.txt" 2>/dev/null)); retrying with the required metrics only"
    mv "$raw/$n.ncu.csv" "$raw/$n.ncu.first.txt" 2>/dev/null
    timeout 300 "$ncu" --csv --page raw --metrics "$required" --log-file "$raw/$n.ncu.csv" \
      "$dev/bin/$n.off" "$@" >"$raw/$n.off.txt" 2>&1 ||
      echo "FAIL $n.off under ncu: exit status $?: $(tail -2 "$raw/$n.ncu.csv" | tr '\n' ' ')"
  fi
  if [ -n "$cuobjdump" ]; then
    "$cuobjdump" -sass "$dev/bin/$n.off" >"$raw/$n.sass.txt" 2>&1 || echo "note: cuobjdump -sass $n.off failed"
  fi
  echo "$n $*" >>"$raw/programs"
  echo "ran $n $*"
}

if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU"; exit 0; fi
[ -x "$ncu" ] || command -v "$ncu" >/dev/null 2>&1 || { echo "FAIL: ncu not found (set NCU)"; exit 1; }
[ -d "$dev/bin" ] || { echo "FAIL: no $dev/bin (tests/gpu/build.sh, carry .devbuild)"; exit 1; }
export LD_LIBRARY_PATH="$dev/lib:$cuda/lib64:$cuda/extras/CUPTI/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
rm -rf "$raw"
mkdir -p "$raw"
: >"$raw/programs"
metrics=$(known_metrics)
required=$(python3 -c "import sys; sys.path.insert(0, '$root/tests/gpu/ncu'); import metrics as m; print(','.join(x for _, _, ns in m.REQUIRED + [m.BRANCH] for x in ns))")
cuobjdump=$(command -v cuobjdump || { [ -x "$cuda/bin/cuobjdump" ] && echo "$cuda/bin/cuobjdump"; })
echo "metrics: $metrics" | tee "$raw/metrics"
for bin in "$dev"/bin/*.off; do
  [ -e "$bin" ] || continue
  n=$(basename "$bin" .off)
  [ -x "$dev/bin/$n.inst" ] || { echo "FAIL $n: no $n.inst"; continue; }
  # word splitting of the argument list is intended
  one "$n" $(args_of "$n")
done
python3 "$root/tests/gpu/ncu/compare.py" "$raw" "$out/ncu_compare.md"
