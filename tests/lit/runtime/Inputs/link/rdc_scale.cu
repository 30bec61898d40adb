// SPDX-License-Identifier: Apache-2.0
// Link-style test input: the __device__ function kern.cu calls when built
// with -DGM_LINK_RDC (relocatable device code across two objects).
__device__ float scale(float x) { return 2.0f * x; }
