#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds, on this (CPU) machine, what tests/gpu/trace/run.sh and ncu.sh need
# on the GPU machine, into .devbuild/trace/ (git-ignored; carry .devbuild):
#   bin/NAME.trace   gpumemcc --gm-analyses=trace, for every examples/*.cu
#                    and tests/gpu/trace/{known,copies,stall}.cu
#   bin/NAME.off     --gm-off builds of the same (the ncu baseline), and
#                    bin/cachemb.off (tests/gpu/trace/cachemb.cu, ncu.sh)
#   bin/gpumem-sim   the offline simulator (replays the trace files)
#   lib/             libgpumem and the non-system libraries they need
# Run it after tests/gpu/build.sh (which recreates .devbuild/).
# Environment: GM_TRACE_DEVBUILD=DIR builds into DIR instead (run.sh and
# ncu.sh read the same variable).
# Usage: tests/gpu/trace/build.sh [BUILD_DIR (default build)] [ARCH (default sm_90)]
# Depends on: a built tree (gpumemcc, libgpumem with the trace files, gpumem-sim), ldd.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || { echo "trace/build.sh: no build directory '${1:-$root/build}'" >&2; exit 1; }
arch=${2:-sm_90}
cc=$build/bin/gpumemcc
for f in "$cc" "$build/bin/gpumem-sim" "$build/lib/gpumem/handlers/trace.bc"; do
  [ -e "$f" ] || { echo "trace/build.sh: $f not found: build gpumem first" >&2; exit 1; }
done
nm -D "$build/lib/libgpumem.so" >/dev/null 2>&1 && \
  strings "$build/lib/libgpumem.so" | grep -q GPUMEM_TRACE_FILE || \
  echo "trace/build.sh: warning: libgpumem.so has no tracing (runtime/trace/trace_*.c not integrated)" >&2
dev=${GM_TRACE_DEVBUILD:-$root/.devbuild/trace}
rm -rf "$dev"
mkdir -p "$dev/bin" "$dev/lib" "$dev/log"
failed=0

variant() { # NAME VARIANT SRC FLAGS...
  n=$1 v=$2 src=$3
  shift 3
  if "$cc" -arch="$arch" -O3 "$@" "$src" -o "$dev/bin/$n.$v" \
       -Xlinker -rpath -Xlinker '$ORIGIN/../lib' >"$dev/log/$n.$v.log" 2>&1; then
    echo "built $n.$v"
  else
    echo "FAILED $n.$v: $(head -3 "$dev/log/$n.$v.log")"
    failed=1
  fi
}

for src in "$root"/examples/*.cu "$root"/tests/gpu/trace/known.cu "$root"/tests/gpu/trace/copies.cu \
           "$root"/tests/gpu/trace/stall.cu; do
  n=$(basename "$src" .cu)
  variant "$n" trace "$src" --gm-analyses=trace
  variant "$n" off "$src" --gm-off
done
# capture-rate benchmark (bench/trace/run.sh)
variant capture trace "$root/bench/trace/capture.cu" --gm-analyses=trace
variant capture off "$root/bench/trace/capture.cu" --gm-off
# cache-policy microbenchmarks (ncu.sh profiles the native build only)
variant cachemb off "$root/tests/gpu/trace/cachemb.cu" --gm-off
cp "$build/bin/gpumem-sim" "$build/runtime/tests/trace_events" "$build/bin/pipe_bench" "$dev/bin/"
cp -P "$build"/lib/*.so* "$dev/lib/" 2>/dev/null
for f in "$dev"/bin/* "$dev"/lib/*; do
  [ -f "$f" ] || continue
  ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'
done | sort -u | while read -r lib; do
  case $lib in
  /usr/local/cuda*|/lib/x86_64-linux-gnu/libc.so*|/lib/x86_64-linux-gnu/libm.so*|\
  /lib/x86_64-linux-gnu/libdl.so*|/lib/x86_64-linux-gnu/libpthread.so*|\
  /lib/x86_64-linux-gnu/librt.so*|/lib/x86_64-linux-gnu/libgcc_s.so*|\
  /lib/x86_64-linux-gnu/libstdc++.so*|*/libcuda.so*|"$dev"/*) ;;
  *) [ -e "$dev/lib/$(basename "$lib")" ] || { cp -L "$lib" "$dev/lib/"; echo "copied $lib"; } ;;
  esac
done
echo "trace devbuild: $(ls "$dev/bin" | wc -l) binaries, $(du -sh "$dev" | cut -f1) in $dev"
exit $failed
