#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Sets up, builds and runs every test: the plain build runs all of ctest
# (C unit tests, lit + FileCheck; GPU suites skip without a GPU), then an
# ASan/UBSan build (GM_SANITIZE) runs the C unit tests, the fuzz targets and
# the report's lit tests (lit_report) again. The rest of lit is not repeated
# there: clang cannot load a sanitized pass plugin. sim_oom caps the address
# space, which AddressSanitizer's shadow memory cannot live with.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure "$@"
echo "== ASan/UBSan build: C unit tests"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGM_SANITIZE=ON >/dev/null
cmake --build build-asan
ctest --test-dir build-asan --output-on-failure -E '^(lit|gpu_suites|sim_oom)$' "$@"
