#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds, on this (CPU) machine, everything tests/gpu/run.sh and
# bench/overhead.sh need on the GPU machine, into .devbuild/ (git-ignored;
# carry it to the GPU machine). For every example program examples/*.cu:
#   bin/NAME.off    --gm-off (native baseline: same compiler and flags)
#   bin/NAME.inst   default analyses
#   bin/NAME.rdc    default analyses, -rdc=true
#   bin/NAME.empty  --gm-analyses=empty (empty handler at every event)
#   bin/NAME.count  --gm-handler=examples/handlers/count_memops.cu --gm-analyses=none
#   bin/NAME.values --gm-analyses=values       (bench/overhead.sh only)
#   bin/NAME.alloc  --gm-analyses=allocations  (bench/overhead.sh only)
# Binaries are stripped (symbol tables only: they carry no debug info, and
# the runtime's dladdr reads .dynsym) so that all seven variants stay near
# 45 MB; GM_DEVBUILD_STRIP=0 keeps the symbols.
# Environment: GM_DEVBUILD=DIR builds into DIR instead of .devbuild/ (a
# private folder for overhead runs); GM_DEVBUILD_VARIANTS="off inst ..."
# builds only those variants (default: all seven; the overhead-only set is
# "off inst empty values alloc"); GM_DEVBUILD_FLAGS="..." adds gpumemcc
# options to every variant (e.g. -Xgm-pass=-gm-diag-no-loopinv).
# plus lib/ (libgpumem and the non-system, non-CUDA libraries the binaries
# need; binaries find it through rpath $ORIGIN/../lib). A variant that fails
# to build is reported and left out; the script then exits 1.
# Usage: tests/gpu/build.sh [BUILD_DIR (default build)] [ARCH (default sm_90)]
# Depends on: a built gpumemcc (cmake --build BUILD_DIR), ldd, strip (binutils).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || { echo "build.sh: no build directory '${1:-$root/build}'" >&2; exit 1; }
arch=${2:-sm_90}
cc=$build/bin/gpumemcc
[ -x "$cc" ] || { echo "build.sh: $cc not found: build gpumem first (cmake --build $build)" >&2; exit 1; }
dev=${GM_DEVBUILD:-$root/.devbuild}
variants=${GM_DEVBUILD_VARIANTS:-off inst rdc empty count values alloc}
rm -rf "$dev"
mkdir -p "$dev/bin" "$dev/lib" "$dev/log"
handler=$root/examples/handlers/count_memops.cu
failed=0

variant() { # NAME VARIANT SRC FLAGS...
  n=$1 v=$2 src=$3
  shift 3
  case " $variants " in *" $v "*) ;; *) return 0 ;; esac
  # word splitting of GM_DEVBUILD_FLAGS is intended
  if "$cc" -arch="$arch" -O3 ${GM_DEVBUILD_FLAGS:-} "$@" "$src" -o "$dev/bin/$n.$v" \
       -Xlinker -rpath -Xlinker '$ORIGIN/../lib' >"$dev/log/$n.$v.log" 2>&1; then
    [ "${GM_DEVBUILD_STRIP:-1}" = 0 ] || strip "$dev/bin/$n.$v"
    echo "built $n.$v"
  else
    echo "FAILED $n.$v: $(head -3 "$dev/log/$n.$v.log")"
    failed=1
  fi
}

for src in "$root"/examples/*.cu; do
  n=$(basename "$src" .cu)
  variant "$n" off "$src" --gm-off
  variant "$n" inst "$src"
  variant "$n" rdc "$src" -rdc=true
  variant "$n" empty "$src" --gm-analyses=empty
  variant "$n" values "$src" --gm-analyses=values
  variant "$n" alloc "$src" --gm-analyses=allocations
  case " $variants " in *" count "*) ;; *) continue ;; esac
  if [ -f "$handler" ]; then
    variant "$n" count "$src" --gm-handler="$handler" --gm-analyses=none
  else
    echo "FAILED $n.count: $handler does not exist yet"
    failed=1
  fi
done

# Libraries: everything from the build tree, then whatever the binaries and
# those libraries resolve outside the system and CUDA directories.
cp -L "$build"/lib/*.so* "$dev/lib/" 2>/dev/null
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
git -C "$root" rev-parse --short HEAD >"$dev/commit" 2>/dev/null
echo "$arch" >"$dev/arch"
echo "devbuild: $(ls "$dev/bin" | wc -l) binaries, $(du -sh "$dev" | cut -f1) in $dev"
[ "$(du -sm "$dev" | cut -f1)" -lt 64 ] || echo "devbuild: WARNING: over 64 MiB, too large to carry to the GPU machine"
exit $failed
