# SPDX-License-Identifier: Apache-2.0
# Sourced by tests/gpu/run.sh and tests/gpu/ncu_compare.sh: the arguments of
# each example for the GPU checks (small and quick, so ncu stays fast; the
# count expectations of run.sh assume them). Defines args_of NAME.
args_of() {
  case $1 in
  vector_add) echo "1048576 1" ;;
  transpose) echo "512 1" ;;
  reduction) echo "1048576 1" ;;
  spmv) echo "16384 8 1" ;;
  branchy) echo "1048576 1" ;;
  pointer_chase) echo "65536 33 1000 1" ;;
  sgemm) echo "256 1" ;;
  stencil) echo "512 1" ;;
  *) echo "" ;;
  esac
}
