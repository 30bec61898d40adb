#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Exactness of the loop-step fast path (pass/loopinv.c) on the GPU machine:
# every example, built with the default analyses with loop steps
# (.devbuild/bin/NAME.inst) and without (the pass option
# -gm-diag-no-loopinv: $NL/bin/NAME.inst), must report identical counters
# for every kernel and site. Build here:
#   GM_DEVBUILD_FLAGS=-Xgm-pass=-gm-diag-no-loopinv GM_DEVBUILD=.perfbuild-nl \
#     GM_DEVBUILD_VARIANTS="off inst" sh tests/gpu/build.sh build
# and carry .perfbuild-nl with .devpack. Prints one PASS/FAIL line per
# example and "N passed, N failed". Depends on: sh, python3, the builds.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-$root/out}/loopinv
nl=${NL:-.perfbuild-nl}
mkdir -p "$out"
cuda=${CUDA_PATH:-/usr/local/cuda}
. tests/gpu/example_args.sh
pass=0 fail=0
for b in .devbuild/bin/*.inst; do
  n=$(basename "$b" .inst)
  [ -x "$nl/bin/$n.inst" ] || continue
  for v in step nl; do
    bin=$b lib=.devbuild/lib
    [ $v = nl ] && bin=$nl/bin/$n.inst lib=$nl/lib
    # word splitting of the argument list is intended
    LD_LIBRARY_PATH="$lib:$cuda/lib64:$cuda/extras/CUPTI/lib64" GPUMEM_OUT="$out/$n.$v" \
      timeout 120 "$bin" $(args_of "$n") >"$out/$n.$v.txt" 2>&1
  done
  if python3 - "$out/$n.step/report.json" "$out/$n.nl/report.json" <<'PY'
import json, sys
def sites(f):
    r = json.load(open(f))
    return [(k.get("name"), k.get("counters"), k.get("sites")) for k in r.get("kernels", [])]
a, b = sites(sys.argv[1]), sites(sys.argv[2])
sys.exit(0 if a == b and a else 1)
PY
  then pass=$((pass + 1)); echo "PASS $n: counters with loop steps = without"
  else fail=$((fail + 1)); echo "FAIL $n: counters differ (or no report): $out/$n.*"; fi
done
echo "$pass passed, $fail failed"
