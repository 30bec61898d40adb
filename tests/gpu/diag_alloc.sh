#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Diagnoses the spmv --gm-analyses=allocations failure on the GPU machine
# (carry .devpack): runs spmv.alloc plainly, with the runtime's verbose
# log, under compute-sanitizer, and dumps the SASS of its kernels, all into
# $OUT. Depends on the devbuild of tests/gpu/pack.sh; no compiler.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-$root/out}
mkdir -p "$out"
[ -f .devpack/gpu.tar.gz ] && tar xzf .devpack/gpu.tar.gz
cuda=${CUDA_PATH:-/usr/local/cuda}
export LD_LIBRARY_PATH=".devbuild/lib:$cuda/lib64:$cuda/extras/CUPTI/lib64"
export PATH="$cuda/bin:$PATH"
b=.devbuild/bin/spmv.alloc
for a in "1024 8 1" "16384 8 1" "65536 16 2"; do
  echo "== $b $a"; GPUMEM_OUT="$out/r" GPUMEM_VERBOSE=1 timeout 60 $b $a; echo "rc=$?"
done >"$out/plain.txt" 2>&1
GPUMEM_OUT="$out/s" timeout 240 compute-sanitizer --tool memcheck --print-limit 20 $b 1024 8 1 >"$out/sanitizer.txt" 2>&1
echo "sanitizer rc=$?" >>"$out/sanitizer.txt"
cuobjdump -sass $b >"$out/spmv_alloc.sass" 2>&1
cuobjdump -sass .devbuild/bin/vector_add.alloc >"$out/vadd_alloc.sass" 2>&1
tail -5 "$out/plain.txt" "$out/sanitizer.txt"
