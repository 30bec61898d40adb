#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds a self-contained bench_sim (statically linked: libc, pthreads and
# libzstd inside, no shared libraries needed) into OUT_DIR (default
# build-simbench/, ignored by git) so it can be carried to another machine,
# e.g. the GPU machine's 16 CPUs, and run there (tests/gpu/all.sh sim-scaling,
# sim-trace: bench/sim/trace_scaling.sh).
# usage: bench/sim/build_static.sh [OUT_DIR]. Needs clang-22 (or $CC) and libzstd-dev.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build-simbench}
cc=${CC:-clang-22}
mkdir -p "$out"
srcs=$(cd "$root" && ls sim/trace/*.c sim/core/*.c sim/ref/ref.c sim/synth/synth.c common/*.c)
for b in bench_sim bench_trace; do
  (cd "$root" && $cc -std=c17 -O3 -march=x86-64-v2 -D_POSIX_C_SOURCE=200809L -Wall -Wextra \
      -Isim/include -Iinclude -Icommon/include $srcs bench/sim/$b.c -static -Wl,-Bstatic -lzstd -lpthread -o "$out/$b")
  echo "built $out/$b"
done
