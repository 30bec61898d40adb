#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Configures and builds tests/build/cmake-project with gpumemcc as CMake's
# CUDA compiler, in OUTDIR. Usage: cmake-build.sh GPUMEMCC OUTDIR [cmake -D...]
# Prints "skipped: no cmake" and exits 0 where cmake is not installed.
set -eu
gm=$1 out=$2
shift 2
if ! command -v cmake >/dev/null 2>&1; then
  echo "skipped: no cmake"
  exit 0
fi
src=$(cd "$(dirname "$0")/cmake-project" && pwd)
gen=
command -v ninja >/dev/null 2>&1 && gen="-G Ninja"
rm -rf "$out"
# shellcheck disable=SC2086
cmake -S "$src" -B "$out" $gen -DCMAKE_CUDA_COMPILER="$gm" "$@" >"$out.configure.log" 2>&1 ||
  { cat "$out.configure.log"; exit 1; }
cmake --build "$out" --verbose >"$out.build.log" 2>&1 || { cat "$out.build.log"; exit 1; }
grep -h 'CMAKE_CUDA_COMPILER_ID \|CMAKE_CUDA_ARCHITECTURES:' "$out/CMakeCache.txt" "$out"/CMakeFiles/*/CMakeCUDACompiler.cmake
"$out/app"
