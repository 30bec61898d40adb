// SPDX-License-Identifier: Apache-2.0
// Driver test input: plain C++ host code linked with CUDA objects.
int gm_test_helper(int x) { return x + 1; }
