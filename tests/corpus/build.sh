#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds each program of tests/corpus with its own Makefile and gpumemcc in
# nvcc's place: `make CC=GPUMEMCC ARCH=sm_90` in a copy under OUTDIR. Prints
# "ok PROGRAM" or "FAIL PROGRAM: first error line" per program and exits
# non-zero when any failed. Usage: build.sh GPUMEMCC OUTDIR [PROGRAM...]
set -u
gm=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- atan2-cuda tsp-cuda concat-cuda lr-cuda gd-cuda
rm -rf "$out"
mkdir -p "$out"
failed=0
for p in "$@"; do
  cp -r "$here/$p" "$out/$p"
  if make -C "$out/$p" CC="$gm" ARCH=sm_90 >"$out/$p.log" 2>&1 && [ -x "$out/$p/main" ]; then
    echo "ok $p"
  else
    echo "FAIL $p: $(grep -m1 -E 'error|Error|fatal' "$out/$p.log" || tail -n1 "$out/$p.log")"
    failed=1
  fi
done
exit $failed
