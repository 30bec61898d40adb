// SPDX-License-Identifier: Apache-2.0
// Known answers for host call sites (tests/gpu/callsites.sh): six
// cudaMalloc on six distinct lines, in three functions (one a template, one
// reached through a helper), each marked "// site N"; the report must name
// each allocation's own line and function, not a place inside the CUDA
// runtime. Allocation 3 is named with gm_name_allocation (its label).
#include <cstdio>
#include <cuda_runtime.h>

extern "C" void gm_name_allocation(const void *ptr, const char *label) __attribute__((weak));

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
        fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void touch(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = (float)i;
}

template <typename T> static __attribute__((noinline)) int alloc_in_template(T **p, size_t n)
{
    CHECK(cudaMalloc(p, n * sizeof(T))); // site 4
    return 0;
}

static __attribute__((noinline)) int alloc_pair(float **a, float **b)
{
    CHECK(cudaMalloc(a, 1 << 12)); // site 2
    CHECK(cudaMalloc(b, 1 << 13)); // site 3
    if (gm_name_allocation) gm_name_allocation(*b, "named buffer");
    return 0;
}

int main()
{
    float *p[6];
    CHECK(cudaMalloc(&p[0], 1 << 11)); // site 1
    if (alloc_pair(&p[1], &p[2])) return 1;
    if (alloc_in_template(&p[3], 1 << 12)) return 1;
    CHECK(cudaMalloc((void **)&p[4], 1 << 15)); // site 5
    CHECK(cudaMallocManaged(&p[5], 1 << 16)); // site 6
    for (int k = 0; k < 6; k++) {
        touch<<<1, 256>>>(p[k], 256);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    float h = 0;
    CHECK(cudaMemcpy(&h, p[5] + 7, sizeof h, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 6; k++) CHECK(cudaFree(p[k]));
    printf("checksum: %g\n", h);
    return 0;
}
