#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds, on this (CPU) machine, what the GPU suites need and packs it into
# .devpack/gpu.tar.gz (git-ignored; name .devpack/gpu.tar.gz and
# .devpack/build_dir in the device tool's carry). Paths inside the archive
# are relative to the repository root, so tests/gpu/all.sh unpacks it at
# the root of the copy on the GPU machine.
# With SUITE names (those of tests/gpu/all.sh) only what they need is built
# and packed: the device tool carries at most 64 MiB with the tree, and the
# whole pack is close to that (e.g. `pack.sh build kat pass loopinv`).
# Usage: tests/gpu/pack.sh [BUILD_DIR (a CMake build directory; default build)] [SUITE...]
#   (default: runtime link kat examples pass select trace trace-capture
#    driver callsites, and the simulator benchmark)
# Depends on: a configured and built BUILD_DIR, clang-22, python3, tar, gzip.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$root/build
# the first argument is BUILD_DIR when it is a CMake build directory
[ $# -gt 0 ] && [ -f "$1/CMakeCache.txt" ] && { B=$1; shift; }
B=$(cd "$B" && pwd) || exit 1
cd "$root"
rel=${B#$root/}
suites=${*:-"runtime link kat examples pass select trace trace-capture driver callsites sim-scaling"}
log() { echo "pack: $*"; }
step() { # NAME LOG COMMAND...: run a build step once
  name=$1 l=$2; shift 2
  case " $built " in *" $name "*) return 0 ;; esac
  built="$built $name"
  log "$name"
  "$@" >"$l" 2>&1 || log "WARNING: $name failed (see $l)"
}
# tests/gpu/build.sh starts .devbuild afresh: its suites go before trace's
first="" rest=""
for s in $suites; do
  case $s in examples|overhead|loopinv) first="$first $s" ;; *) rest="$rest $s" ;; esac
done
suites="$first $rest"
built="" list=""
add() { for p in "$@"; do case " $list " in *" $p "*) ;; *) list="$list $p" ;; esac; done; }
for s in $suites; do
  case $s in
  examples|overhead) step examples /tmp/gm-pack-examples.log sh tests/gpu/build.sh "$B"; add .devbuild ;;
  loopinv) step examples /tmp/gm-pack-examples.log sh tests/gpu/build.sh "$B"
           step no-loopinv /tmp/gm-pack-nl.log env GM_DEVBUILD_FLAGS=-Xgm-pass=-gm-diag-no-loopinv \
             GM_DEVBUILD=.perfbuild-nl GM_DEVBUILD_VARIANTS="off inst" sh tests/gpu/build.sh "$B"
           add .devbuild .perfbuild-nl ;;
  trace|trace-capture) step trace /tmp/gm-pack-trace.log sh tests/gpu/trace/build.sh "$B"; add .devbuild/trace ;;
  kat) step kat /tmp/gm-pack-kat.log sh tests/gpu/kat/build.sh "$B"; add build-kat ;;
  runtime) step runtime /tmp/gm-pack-rt.log sh tests/gpu/runtime_smoke.sh build "$B"
           add "$rel/lib" "$rel/tests/gpu/runtime_smoke" ;;
  link) step link /tmp/gm-pack-link.log sh tests/gpu/link.sh build "$B"
        add "$rel/bin" "$rel/lib" "$rel/tests/gpu/link" ;;
  select) step select /tmp/gm-pack-select.log sh tests/gpu/select.sh build "$B"
          add "$rel/bin" "$rel/lib" "$rel/tests/gpu/select" ;;
  callsites) step callsites /tmp/gm-pack-callsites.log sh tests/gpu/callsites.sh build "$B"
             add "$rel/bin" "$rel/lib" "$rel/tests/gpu/callsites" ;;
  driver) step driver /tmp/gm-pack-drv.log sh tests/lit/driver/gpu-check.sh "$B" "$B/gpu-driver"
          add "$rel/gpu-driver" ;;
  pass) step pass /tmp/gm-pack-pass.log /usr/lib/llvm-22/bin/lit -q "$B/tests/lit" --filter 'pass/gpu_counts'
        add "$rel/lib" "$rel/tests/lit/pass/Output/gpu_counts.cu.tmp.app" ;;
  sim-scaling|sim-trace) step simbench /tmp/gm-pack-simbench.log sh bench/sim/build_static.sh "$root/build-simbench"
                         add build-simbench ;;
  *) log "no pack rule for suite '$s' (pack everything: run without suite names)"; exit 2 ;;
  esac
done
packed=""
for p in $list; do  # existing paths, none inside another one packed (tar would add it twice)
  [ -e "$p" ] || continue
  inner=0
  for q in $list; do case $p in "$q"/*) inner=1 ;; esac; done
  [ $inner = 0 ] && packed="$packed $p"
done
mkdir -p .devpack
# fuzzers, unit tests and benchmarks of BUILD_DIR/bin run on the CPU: not carried
tar czf .devpack/gpu.tar.gz --exclude="$rel/bin/gm-fuzz-*" --exclude="$rel/bin/*_test*" \
    --exclude="$rel/bin/bench_*" --exclude="$rel/lib/*.a" $packed
echo "$rel" >.devpack/build_dir
log "packed:$packed -> $(du -h .devpack/gpu.tar.gz | cut -f1)"
