#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs one check on every example program (examples/*.cu) for the lit tests
# in tests/lit/examples; prints "PASS name" / "FAIL name: why" per example
# and a total, and exits non-zero if any failed or none was found.
#   each_example.sh build    GPUMEMCC EXAMPLES OUTDIR [flags...]   link an executable
#   each_example.sh fidelity GPUMEMCC EXAMPLES OUTDIR [flags...]   -ptx with flags vs --gm-off,
#                                                                  same ld/st/atom/red
# Depends on: gpumemcc, python3 and tests/tools/ptx_memops.py (fidelity).
set -u
mode=$1 cc=$2 src=$3 out=$4
shift 4
memops=$(dirname "$0")/../../../tools/ptx_memops.py
mkdir -p "$out"
pass=0 fail=0
for f in "$src"/*.cu; do
  [ -e "$f" ] || continue
  n=$(basename "$f" .cu)
  case $mode in
  build)
    if "$cc" -arch=sm_90 -O3 "$@" "$f" -o "$out/$n" 2>"$out/$n.err" && [ -x "$out/$n" ]; then
      pass=$((pass + 1)); echo "PASS $n"
    else
      fail=$((fail + 1)); echo "FAIL $n: $(head -c 300 "$out/$n.err" | head -3)"
    fi ;;
  fidelity)
    if ! "$cc" -arch=sm_90 -O3 -ptx --gm-off "$f" -o "$out/$n.off.ptx" 2>"$out/$n.err"; then
      fail=$((fail + 1)); echo "FAIL $n: --gm-off -ptx: $(head -3 "$out/$n.err")"; continue
    fi
    if ! "$cc" -arch=sm_90 -O3 -ptx "$@" "$f" -o "$out/$n.inst.ptx" 2>"$out/$n.err"; then
      fail=$((fail + 1)); echo "FAIL $n: -ptx $*: $(head -3 "$out/$n.err")"; continue
    fi
    if python3 "$memops" "$out/$n.off.ptx" "$out/$n.inst.ptx" >"$out/$n.cmp" 2>&1; then
      pass=$((pass + 1)); echo "PASS $n: $(tail -1 "$out/$n.cmp")"
    else
      fail=$((fail + 1)); echo "FAIL $n:"; cat "$out/$n.cmp"
    fi ;;
  *) echo "each_example.sh: unknown mode '$mode'" >&2; exit 2 ;;
  esac
done
echo "examples: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
