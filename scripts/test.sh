#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Sets up, builds (plain and ASan/UBSan) and runs every test. GPU tests are
# skipped here when no GPU is present; tests/gpu/run.sh runs them on one.
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure "$@"
