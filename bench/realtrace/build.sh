#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Real traces (issue 14 items 6 and 7), CPU part, run here: builds the
# programs of bench/realtrace/programs.txt with their own Makefiles, twice
# (`gpumemcc --gm-off` for the native and ncu runs, `gpumemcc
# --gm-analyses=trace` for the traced run; bench/corpus/build.sh, no nvcc),
# a static bench_trace (bench/sim/build_static.sh), and packs everything the
# GPU machine needs into .devpack/realtrace.tar.gz (git-ignored; carry that
# path): realtrace/{off,trace}/PROGRAM/ (the program's directory without
# objects, `main` without debug sections), lib/ (libgpumem and the libraries
# it and gpumem-sim need beyond libc and libstdc++), bin/ (gpumem-sim, bench_trace), programs.txt and
# COMMIT. Refuses a pack of 60 MB or more (the device call carries 64 MiB).
# Usage: bench/realtrace/build.sh [-b BUILD_DIR] [-o OUTDIR (default out/realtrace)]
# Depends on: a built BUILD_DIR (gpumemcc, libgpumem, gpumem-sim), make,
# GNU time, clang-22 and libzstd-dev (bench_trace), strip, tar, gzip.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build out=$root/out/realtrace
while getopts b:o: f; do
  case $f in b) build=$OPTARG ;; o) out=$OPTARG ;; *) echo "usage: $0 [-b BUILD_DIR] [-o OUTDIR]" >&2; exit 2 ;; esac
done
build=$(cd "$build" 2>/dev/null && pwd) || { echo "build.sh: no build directory" >&2; exit 2; }
for f in bin/gpumemcc bin/gpumem-sim lib/libgpumem.so; do
  [ -e "$build/$f" ] || { echo "build.sh: $build/$f not built" >&2; exit 2; }
done
progs=$(grep -v '^#' "$root/bench/realtrace/programs.txt" | cut -d'|' -f1)
mkdir -p "$out"
sh "$root/bench/corpus/build.sh" -o "$out" -b "$build" -c "off trace" -j 1 $progs || exit 1
bad=$(awk -F'\t' 'NR > 1 && $3 != "ok" {print $1 " (" $2 "): " $7}' "$out/builds.tsv")
[ -z "$bad" ] || { echo "build.sh: builds failed: $bad" >&2; exit 1; }
sh "$root/bench/sim/build_static.sh" "$out/simbench" || exit 1

stage=$(mktemp -d) || exit 1
trap 'rm -rf "$stage"' EXIT
R=$stage/realtrace
mkdir -p "$R/lib" "$R/bin"
for c in off trace; do
  for p in $progs; do
    mkdir -p "$R/$c"
    cp -r "$out/$c/$p" "$R/$c/$p"
    ( cd "$R/$c/$p" && rm -f ./*.o build.log .time && strip --strip-debug main ) || exit 1
  done
done
cp -L "$build/lib/libgpumem.so" "$R/lib/"
for l in "$build"/lib/lib*.so.*; do [ -e "$l" ] && cp -L "$l" "$R/lib/"; done
[ -e "$R/lib/libzstd.so.1" ] || cp -L "$(ldd "$build/bin/gpumem-sim" | awk '/libzstd/ {print $3}')" "$R/lib/" || exit 1
cp "$build/bin/gpumem-sim" "$out/simbench/bench_trace" "$R/bin/"
cp "$root/bench/realtrace/programs.txt" "$out/builds.tsv" "$R/"
{ git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown
  git -C "$root" status --porcelain --untracked-files=no | grep -q . && echo "(with uncommitted changes)"
  date -u '+built %Y-%m-%d %H:%M UTC'; } >"$R/COMMIT"
mkdir -p "$root/.devpack"
tar czf "$root/.devpack/realtrace.tar.gz" -C "$stage" realtrace || exit 1
size=$(wc -c <"$root/.devpack/realtrace.tar.gz")
echo "build.sh: .devpack/realtrace.tar.gz, $((size / 1048576)) MiB ($size bytes), commit $(head -1 "$R/COMMIT")"
[ "$size" -lt 60000000 ] || { echo "build.sh: the pack is over 60 MB: the device call carries 64 MiB" >&2; exit 1; }
