#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Where the default analyses' kernel time goes (issue 3 item 5): every
# example built with coalescing only (NAME.co), divergence only (NAME.dv),
# and the default set with the coalescing matrix atomics removed
# (NAME.nomat: a renamed copy of handlers/builtin/coalescing.cu passed with
# --gm-handler), then timed like bench/overhead.sh (kernel_ms lines).
# Usage:
#   bench/overhead_split.sh build BUILD_DIR   (CPU machine; writes $DEV/xbin)
#   bench/overhead_split.sh run               (GPU machine; prints "variant kernel ms")
# DEV is $GM_DEVBUILD or .devbuild (lib/ must already hold libgpumem, as
# tests/gpu/build.sh leaves it). Depends on sh, sed, awk; gpumemcc to build.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
dev=${GM_DEVBUILD:-$root/.devbuild}
args() {
  case $1 in
  vector_add | reduction | branchy) echo "67108864 100" ;;
  transpose | stencil) echo "8192 100" ;;
  spmv) echo "2097152 16 50" ;;
  pointer_chase) echo "1048576 32 100000 3" ;;
  sgemm) echo "2048 10" ;;
  esac
}

build() {
  cc=$1/bin/gpumemcc
  [ -x "$cc" ] || { echo "overhead_split.sh: no $cc" >&2; exit 1; }
  mkdir -p "$dev/xbin" "$dev/log" "$dev/nomat"
  cp "$root/handlers/builtin/gm_warp_sets.h" "$dev/nomat/"
  # matrix updates off: the direct path's `if (m)` and the run flush's job 0
  sed -e 's/coalescing/coalnm/g' -e 's/if (m) atomicAdd(m + site \* 1024/if (0) atomicAdd(m + site * 1024/' \
      -e 's/if (kind != CO_MEM || !p) return;/return;/' \
      "$root/handlers/builtin/coalescing.cu" >"$dev/nomat/coalnm.cu"
  grep -q 'if (0) atomicAdd' "$dev/nomat/coalnm.cu" || { echo "overhead_split.sh: matrix edit failed" >&2; exit 1; }
  for src in "$root"/examples/*.cu; do
    n=$(basename "$src" .cu)
    for v in co dv nomat; do
      case $v in
      co) f=--gm-analyses=coalescing ;;
      dv) f=--gm-analyses=divergence ;;
      nomat) f="--gm-analyses=divergence --gm-handler=$dev/nomat/coalnm.cu" ;;
      esac
      # word splitting of $f is intended
      "$cc" -arch=sm_90 -O3 $f "$src" -o "$dev/xbin/$n.$v" -Xlinker -rpath -Xlinker '$ORIGIN/../lib' \
        >"$dev/log/$n.$v.log" 2>&1 && echo "built $n.$v" || echo "FAILED $n.$v"
    done
  done
}

run() {
  nvidia-smi >/dev/null 2>&1 || { echo "SKIP: no GPU"; exit 0; }
  export LD_LIBRARY_PATH="$dev/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64"
  w=$(mktemp -d "${TMPDIR:-/tmp}/gm_split.XXXXXX")
  for b in "$dev"/xbin/*; do
    n=$(basename "$b")
    # word splitting of the argument list is intended
    (cd "$w" && GPUMEM_OUT="$w/r.$n" GPUMEM_QUIET=1 "$b" $(args "${n%.*}")) 2>/dev/null |
      awk -v v="${n##*.}" '$2 == "kernel_ms:" { print v, $1, $3 }'
  done
}

case ${1:-} in
build) build "${2:-$root/build}" ;;
run) run ;;
*) echo "usage: bench/overhead_split.sh build BUILD_DIR | run" >&2; exit 2 ;;
esac
