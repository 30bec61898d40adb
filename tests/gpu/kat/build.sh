#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds the known-answer programs (tests/gpu/kat/kat_*.cu) on this CPU
# machine into build-kat/ (git-ignored; carry it to the GPU machine):
#   bin/NAME.inst  gpumemcc --gm-analyses=coalescing,divergence,values,allocations
#   bin/NAME.ool   gpumemcc --gm-analyses=coalescing,divergence with no handler
#                  inlined (-gm-inline-growth=0): every loop site of a kernel
#                  calls its out-of-line copy
#   bin/NAME.off   gpumemcc --gm-off (for Nsight Compute: same code, no handlers)
# plus lib/ with the build tree's libraries (rpath $ORIGIN/../lib).
# Usage: tests/gpu/kat/build.sh [BUILD_DIR (default build)]
# Depends on: a built gpumemcc in BUILD_DIR/bin.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || { echo "kat/build.sh: no build directory '${1:-$root/build}'" >&2; exit 1; }
cc=$build/bin/gpumemcc
[ -x "$cc" ] || { echo "kat/build.sh: $cc not found: build gpumem first" >&2; exit 1; }
dev=$root/build-kat
rm -rf "$dev"
mkdir -p "$dev/bin" "$dev/lib" "$dev/log"
failed=0
for src in "$root"/tests/gpu/kat/kat_*.cu; do
  n=$(basename "$src" .cu)
  for v in inst ool off; do
    case $v in
    inst) flags=--gm-analyses=coalescing,divergence,values,allocations ;;
    ool) flags="--gm-analyses=coalescing,divergence -Xgm-pass=-gm-inline-growth=0" ;;
    off) flags=--gm-off ;;
    esac
    # shellcheck disable=SC2086
    if "$cc" -arch=sm_90 -O3 -lineinfo $flags "$src" -o "$dev/bin/$n.$v" \
         -Xlinker -rpath -Xlinker '$ORIGIN/../lib' >"$dev/log/$n.$v.log" 2>&1; then
      echo "built $n.$v"
    else
      echo "FAILED $n.$v: $(head -3 "$dev/log/$n.$v.log")"
      failed=1
    fi
  done
done
cp -L "$build"/lib/*.so* "$dev/lib/" 2>/dev/null
exit $failed
