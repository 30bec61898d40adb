#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds, on this (CPU) machine, everything every GPU suite needs and packs it
# into .devpack/gpu.tar.gz (git-ignored; name .devpack in the device tool's
# carry). Paths inside the archive are relative to the repository root, so
# tests/gpu/all.sh unpacks it at the root of the copy on the GPU machine.
# Usage: tests/gpu/pack.sh [BUILD_DIR (default build)]
# Depends on: a configured and built BUILD_DIR, clang-22, python3, tar, gzip.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$root/build}
B=$(cd "$B" && pwd) || exit 1
cd "$root"
rel=${B#$root/}
log() { echo "pack: $*"; }
log "examples (tests/gpu/build.sh)";   sh tests/gpu/build.sh "$B" >/tmp/gm-pack-examples.log 2>&1 || log "WARNING: examples build failed (see /tmp/gm-pack-examples.log)"
log "trace (tests/gpu/trace/build.sh)"; sh tests/gpu/trace/build.sh "$B" >/tmp/gm-pack-trace.log 2>&1 || log "WARNING: trace build failed (see /tmp/gm-pack-trace.log)"
log "known answers (tests/gpu/kat/build.sh)"; sh tests/gpu/kat/build.sh "$B" >/tmp/gm-pack-kat.log 2>&1 || log "WARNING: kat build failed (see /tmp/gm-pack-kat.log)"
log "runtime smoke"; sh tests/gpu/runtime_smoke.sh build "$B" >/tmp/gm-pack-rt.log 2>&1 || log "WARNING: runtime smoke build failed"
log "link styles"; sh tests/gpu/link.sh build "$B" >/tmp/gm-pack-link.log 2>&1 || log "WARNING: link styles build failed (see /tmp/gm-pack-link.log)"
log "launch selection"; sh tests/gpu/select.sh build "$B" >/tmp/gm-pack-select.log 2>&1 || log "WARNING: select build failed (see /tmp/gm-pack-select.log)"
log "call sites"; sh tests/gpu/callsites.sh build "$B" >/tmp/gm-pack-callsites.log 2>&1 || log "WARNING: callsites build failed (see /tmp/gm-pack-callsites.log)"
log "driver gpu-check"; sh tests/lit/driver/gpu-check.sh "$B" "$B/gpu-driver" >/tmp/gm-pack-drv.log 2>&1 || log "WARNING: driver gpu-check build failed"
log "pass gpu_counts (lit builds the binary)"
/usr/lib/llvm-22/bin/lit -q "$B/tests/lit" --filter 'pass/gpu_counts' >/tmp/gm-pack-pass.log 2>&1 || true
log "simulator benchmark (static, for the GPU machine's CPUs)"
sh bench/sim/build_static.sh "$root/build-simbench" >/tmp/gm-pack-simbench.log 2>&1 || log "WARNING: bench_sim build failed"
mkdir -p .devpack
list=""
for p in .devbuild build-kat build-simbench "$rel/lib" "$rel/bin" "$rel/tests/gpu" "$rel/gpu-driver" \
         "$rel/tests/lit/pass/Output/gpu_counts.cu.tmp.app"; do
  [ -e "$p" ] && list="$list $p"
done
# fuzzers and unit-test binaries are CPU tests: not carried
tar czf .devpack/gpu.tar.gz --exclude="$rel/bin/gm-fuzz-*" --exclude="$rel/bin/*_test*" --exclude="$rel/bin/bench_*" $list
echo "$rel" >.devpack/build_dir
log "packed:$list -> $(du -h .devpack/gpu.tar.gz | cut -f1)"
