#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# GPU checks of the allocations analysis on the GPU machine, into $OUT:
#  1. regression of the spmv.alloc failure (illegal instruction in
#     spmv_csr at 16384 rows and more, then SIGSEGV on the host): NAME.alloc
#     of examples/spmv.cu at 1024, 16384 and 65536 rows must exit 0 with
#     the checksums of NAME.off; a build of the old handler, if present in
#     $DEV/old, must still end with the program's own error (exit 2), not a
#     host crash (exit 139);
#  2. the known-answer programs kat_alloc and kat_alloc_loop (if built in
#     $DEV/kat) against tests/gpu/kat/check.py;
#  3. the overhead table of bench/large.sh (MODES, default "bench").
# Prints PASS/FAIL lines and "N passed, N failed". DEV defaults to
# .perfbuild-alloc (DEV/new from tests/gpu/build.sh with GM_DEVBUILD=DEV/new
# and variants "off alloc"); DEV=.devbuild uses the full devbuild of
# tests/gpu/pack.sh instead (its bin/ has NAME.off and NAME.alloc).
# Depends on: sh, python3, the builds.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
top=${OUT:-$root/out}
out=$top/diag          # packed into $top/diag.tgz at the end
dev=${DEV:-$root/.perfbuild-alloc}
mkdir -p "$out"
cuda=${CUDA_PATH:-/usr/local/cuda}
export LD_LIBRARY_PATH="$cuda/lib64:$cuda/extras/CUPTI/lib64"
pass=0 fail=0
result() { echo "$1 $2"; if [ "$1" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi; }

new=$dev/new/bin
[ -d "$new" ] || new=$dev/bin
for a in "1024 8 1" "16384 8 1" "65536 16 2"; do
  tag=$(echo "$a" | tr ' ' _)
  timeout 120 "$new/spmv.off" $a >"$out/spmv.off.$tag.txt" 2>&1
  GPUMEM_OUT="$out/spmv.alloc.$tag" timeout 120 "$new/spmv.alloc" $a >"$out/spmv.alloc.$tag.txt" 2>&1
  rc=$?
  grep checksum: "$out/spmv.off.$tag.txt" >"$out/off.sum"
  grep checksum: "$out/spmv.alloc.$tag.txt" >"$out/alloc.sum"
  if [ $rc = 0 ] && [ -s "$out/off.sum" ] && cmp -s "$out/off.sum" "$out/alloc.sum"; then
    result PASS "spmv.alloc $a: exit 0, checksums of --gm-off"
  else
    result FAIL "spmv.alloc $a: exit $rc: $(tail -2 "$out/spmv.alloc.$tag.txt" | tr '\n' ' ')"
  fi
done
if [ -x "$dev/old/bin/spmv.alloc" ]; then
  LD_LIBRARY_PATH="$dev/old/lib:$LD_LIBRARY_PATH" GPUMEM_OUT="$out/old" timeout 30 \
    "$dev/old/bin/spmv.alloc" 16384 8 1 >"$out/old.txt" 2>&1
  rc=$?
  if [ $rc = 139 ]; then result FAIL "old handler: host crash (exit 139)"
  else result PASS "old handler at 16384 rows: exit $rc (no host crash)"; fi
  tail -5 "$out/old.txt"
fi
for n in kat_alloc kat_alloc_loop; do
  for v in inst alloc; do
    b=$dev/kat/bin/$n.$v
    [ -x "$b" ] || continue
    if LD_LIBRARY_PATH="$dev/kat/lib:$LD_LIBRARY_PATH" GPUMEM_OUT="$out/$n.$v" timeout 120 "$b" \
         >"$out/$n.$v.expect" 2>"$out/$n.$v.stderr" &&
       python3 tests/gpu/kat/check.py "$out/$n.$v.expect" "$out/$n.$v" >"$out/$n.$v.check" 2>&1; then
      result PASS "$n.$v: $(grep -c '^PASS' "$out/$n.$v.check") known answers"
    else
      result FAIL "$n.$v: $(grep -E '^FAIL' "$out/$n.$v.check" 2>/dev/null | head -5 | tr '\n' ' ') $(tail -2 "$out/$n.$v.stderr" | tr '\n' ' ')"
    fi
  done
done
python3 - "$out/spmv.alloc.65536_16_2/report.json" <<'PY' 2>&1 | tee "$out/memory.txt"
import json, sys
r = json.load(open(sys.argv[1]))
for n in r.get("notes", []):
    if "device memory" in n: print(n)
PY
for m in ${MODES-bench}; do
  GM_DEVBUILD=$(dirname "$new") timeout 900 sh bench/large.sh "$m" 1 >"$out/large-$m.md" 2>"$out/large-$m.err"
  cat "$out/large-$m.md" "$out/large-$m.err"
done
echo "$pass passed, $fail failed"
tar czf "$top/diag.tgz" -C "$top" diag && rm -rf "$out"
