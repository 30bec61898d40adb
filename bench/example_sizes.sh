# SPDX-License-Identifier: Apache-2.0
# Sourced by bench/overhead.sh and bench/large.sh: the arguments of each
# example program for timing. bench_args NAME: tens of ms per measurement;
# large_args NAME: inputs that take about a second or more natively.
bench_args() {
  case $1 in
  vector_add) echo "67108864 100" ;;
  transpose) echo "8192 100" ;;
  reduction) echo "67108864 100" ;;
  spmv) echo "2097152 16 50" ;;
  branchy) echo "67108864 100" ;;
  pointer_chase) echo "1048576 32 100000 3" ;;
  sgemm) echo "2048 10" ;;
  stencil) echo "8192 100" ;;
  *) echo "" ;;
  esac
}

large_args() {
  case $1 in
  vector_add) echo "268435456 1000" ;;
  transpose) echo "16384 200" ;;
  reduction) echo "268435456 1000" ;;
  spmv) echo "4194304 16 1000" ;;
  branchy) echo "268435456 500" ;;
  pointer_chase) echo "4194304 32 1000000 3" ;;
  sgemm) echo "4096 5" ;;
  stencil) echo "16384 500" ;;
  *) echo "" ;;
  esac
}
