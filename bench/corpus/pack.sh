#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Corpus harness: packs what bench/corpus/run.sh needs on the GPU machine
# into .devpack/corpus.tar.gz (git-ignored; name .devpack in the device
# tool's carry): for each program built by both nvcc and gpumemcc in OUTDIR,
# (and by `gpumemcc --gm-off`, where built) its directory without objects and logs (the binary `main` with its debug
# sections stripped, .nv_fatbin and symbols kept, and the input files the
# program reads), plus lib/ (libgpumem and the libraries it needs that the
# GPU machine lacks, and gm-ktime, the kernel timer), and the corpus's PROGRAMS.txt (run arguments).
# Usage: bench/corpus/pack.sh [-o OUTDIR] [-b BUILD_DIR] [PROGRAM...]
# (default: every program built by both; a pack of the whole corpus is too
# large for one device call, so pack and run it in parts)
# Depends on: tar, gzip, strip (binutils).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/out/corpus build=$root/build
while getopts o:b: f; do
  case $f in o) out=$OPTARG ;; b) build=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
corpus=${GM_CORPUS:-$root/../shared/corpus/hecbench}
want=" ${*:-} "
[ -f "$out/builds.tsv" ] || { echo "pack.sh: no $out/builds.tsv (run bench/corpus/build.sh)" >&2; exit 2; }
stage=$(mktemp -d) || exit 1
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/corpus/lib"
for c in nvcc gm off sel; do
  awk -F'\t' -v c=$c '$2 == c && $3 == "ok" {print $1}' "$out/builds.tsv" | while read -r p; do
    [ "$want" = "  " ] || case $want in *" $p "*) ;; *) continue ;; esac
    mkdir -p "$stage/corpus/$c"
    cp -r "$out/$c/$p" "$stage/corpus/$c/$p"
    ( cd "$stage/corpus/$c/$p" && rm -f ./*.o build.log .time && strip --strip-debug main )
  done
done
cp -L "$build/lib/libgpumem.so" "$build/lib/libgm-ktime.so" "$stage/corpus/lib/"
for l in "$build"/lib/lib*.so.*; do [ -e "$l" ] && cp -L "$l" "$stage/corpus/lib/"; done
cp "$out/builds.tsv" "$corpus/PROGRAMS.txt" "$stage/corpus/"
mkdir -p "$root/.devpack"
tar czf "$root/.devpack/corpus.tar.gz" -C "$stage" corpus
echo "pack.sh: $(du -h "$root/.devpack/corpus.tar.gz" | cut -f1) in .devpack/corpus.tar.gz"
