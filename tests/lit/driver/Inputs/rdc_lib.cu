// SPDX-License-Identifier: Apache-2.0
// Driver test input: the __device__ function rdc_main.cu calls (needs -rdc).
__device__ int scale(int x) { return 3 * x; }
