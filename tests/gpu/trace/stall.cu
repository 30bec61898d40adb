// SPDX-License-Identifier: Apache-2.0
// A traced kernel that writes more records than the trace ring holds, so
// it must wait on the GPU for the drain, followed at once by one of the
// host calls a program makes after a launch (tests/gpu/trace/run.sh,
// stall cases). Each must return: a call that waits for the kernel must
// not keep the drain from freeing the kernel's ring space.
// Usage: stall MODE [ITERS]; MODE one of: devsync streamsync eventsync
//   pageable_d2h pageable_h2d pinned_d2h async_pageable_d2h async_pinned_d2h
//   free malloc memset hostalloc streamcreate funcattr. ITERS: loads per thread (default 128: 8,192 warps x
//   128 = 1,048,576 load records; the default ring holds 262,144).
// Depends only on CUDA.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "stall: %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

enum { BLOCKS = 1024, THREADS = 256, N = BLOCKS * THREADS };

__global__ void k_loads(const float *in, float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int k = 0; k < iters; k++) s += in[(i + k * 32) % N];
    out[i] = s;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "devsync";
    int iters = argc > 2 ? atoi(argv[2]) : 128;
    float *in, *out, *other, *pinned, *h = (float *)calloc(N, sizeof(float));
    CK(cudaMalloc(&in, N * sizeof(float)));
    CK(cudaMalloc(&out, N * sizeof(float)));
    CK(cudaMalloc(&other, N * sizeof(float)));
    CK(cudaMallocHost(&pinned, N * sizeof(float)));
    for (int i = 0; i < N; i++) h[i] = 1.0f;
    CK(cudaMemcpy(in, h, N * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaDeviceSynchronize());
    cudaEvent_t ev;
    CK(cudaEventCreate(&ev));
    k_loads<<<BLOCKS, THREADS>>>(in, out, iters);
    CK(cudaGetLastError());
    void *p = NULL;
    if (!strcmp(mode, "devsync")) CK(cudaDeviceSynchronize());
    else if (!strcmp(mode, "streamsync")) CK(cudaStreamSynchronize(0));
    else if (!strcmp(mode, "eventsync")) { CK(cudaEventRecord(ev, 0)); CK(cudaEventSynchronize(ev)); }
    else if (!strcmp(mode, "pageable_d2h")) CK(cudaMemcpy(h, out, N * sizeof(float), cudaMemcpyDeviceToHost));
    else if (!strcmp(mode, "pageable_h2d")) CK(cudaMemcpy(other, h, N * sizeof(float), cudaMemcpyHostToDevice));
    else if (!strcmp(mode, "pinned_d2h")) CK(cudaMemcpy(pinned, out, N * sizeof(float), cudaMemcpyDeviceToHost));
    else if (!strcmp(mode, "async_pageable_d2h")) CK(cudaMemcpyAsync(h, out, N * sizeof(float), cudaMemcpyDeviceToHost, 0));
    else if (!strcmp(mode, "async_pinned_d2h")) CK(cudaMemcpyAsync(pinned, out, N * sizeof(float), cudaMemcpyDeviceToHost, 0));
    else if (!strcmp(mode, "streamcreate")) { cudaStream_t s; CK(cudaStreamCreate(&s)); }
    else if (!strcmp(mode, "funcattr")) { cudaFuncAttributes a; CK(cudaFuncGetAttributes(&a, k_loads)); }
    else if (!strcmp(mode, "free")) CK(cudaFree(other));
    else if (!strcmp(mode, "malloc")) CK(cudaMalloc(&p, 1 << 20));
    else if (!strcmp(mode, "memset")) CK(cudaMemset(other, 0, N * sizeof(float)));
    else if (!strcmp(mode, "hostalloc")) CK(cudaMallocHost(&p, 1 << 20));
    else { fprintf(stderr, "stall: unknown mode %s\n", mode); return 2; }
    CK(cudaMemcpy(h, out, N * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += h[i] != (float)iters;
    printf("stall %s: checksum %s\n", mode, bad ? "WRONG" : "ok");
    return bad != 0;
}
