#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds the launch benchmark three times with gpumemcc: launch.inst (default
# analyses), launch.off (--gm-off) and launch.sel (default analyses with
# --gm-native-copies), into BUILD_DIR/tests/gpu/bench-launch
# (packed by tests/gpu/pack.sh with the rest of BUILD_DIR/tests/gpu).
# Usage: bench/launch/build.sh [BUILD_DIR (default build)]
# Depends on: a built gpumemcc in BUILD_DIR/bin.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:-$root/build}" && pwd)
out="$B/tests/gpu/bench-launch"
mkdir -p "$out"
cc="$B/bin/gpumemcc"
"$cc" -arch=sm_90 -O3 "$root/bench/launch/launch.cu" -o "$out/launch.inst" -lpthread
"$cc" -arch=sm_90 -O3 --gm-off "$root/bench/launch/launch.cu" -o "$out/launch.off" -lpthread
"$cc" -arch=sm_90 -O3 --gm-native-copies "$root/bench/launch/launch.cu" -o "$out/launch.sel" -lpthread
echo "launch: built $out/launch.inst $out/launch.off $out/launch.sel"
