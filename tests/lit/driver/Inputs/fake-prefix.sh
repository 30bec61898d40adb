#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Driver tests: builds a throw-away install prefix DIR holding a copy of
# gpumemcc and empty stand-ins for the pass plugin, handler bitcode and the
# link preinclude, so
# command-line tests check paths relative to the executable without needing
# the real pass. Usage: fake-prefix.sh DIR PATH-TO-GPUMEMCC
set -eu
rm -rf "$1"
mkdir -p "$1/bin" "$1/lib/gpumem/handlers" "$1/lib/gpumem/include" "$1/include/gpumem"
cp "$2" "$1/bin/gpumemcc"
: > "$1/lib/gpumem/GpumemPass.so"
: > "$1/lib/gpumem/include/gpumem_link.h"
for h in coalescing divergence values; do : > "$1/lib/gpumem/handlers/$h.bc"; done
