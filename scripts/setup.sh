#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs what a fresh Debian 12 machine lacks to build and test gpumem, and
# checks for the CUDA toolkit. Idempotent; prints one line per problem.
set -eu
PKGS="clang-22 llvm-22-dev libclang-22-dev lld-22 llvm-22-tools libclang-rt-22-dev uthash-dev libzstd-dev zstd libcjson-dev binutils cmake ninja-build python3 chromium"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "gpumem setup: installing$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
CUDA="${CUDA_PATH:-/usr/local/cuda}"
for f in bin/ptxas bin/nvcc bin/fatbinary include/cuda.h include/cupti.h lib64/libcudart.so; do
  if [ ! -e "$CUDA/$f" ]; then
    echo "gpumem setup: CUDA toolkit incomplete: $CUDA/$f is missing (set CUDA_PATH to a CUDA 12.x/13.x toolkit)" >&2
    exit 1
  fi
done
echo "gpumem setup: ok (clang-22, llvm-22, CUDA at $CUDA)"
