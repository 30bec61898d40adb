#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The main job: set up, build, then show gpumem at work.
#  - with a GPU: build examples/vector_add.cu and examples/transpose.cu with
#    gpumemcc, run them, print gpumem's report;
#  - without one: replay the bundled H100 trace (examples/traces/) through the
#    cache simulator and print the per-allocation report.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
if nvidia-smi >/dev/null 2>&1; then
  out=$(mktemp -d)
  for ex in vector_add transpose; do
    build/bin/gpumemcc -O3 -arch=sm_90 "examples/$ex.cu" -o "$out/$ex"
    echo "== $ex (instrumented: coalescing, divergence)"
    GPUMEM_OUT="$out/$ex.report" "$out/$ex"
  done
else
  echo "== no GPU here: replaying the bundled H100 trace through the simulator"
  for t in examples/traces/*.gmt; do
    echo "== $t"
    build/bin/gpumem-sim --preset h100 "$t" | grep -v "^site "   # launches and allocations; drop the per-site lines
  done
fi
