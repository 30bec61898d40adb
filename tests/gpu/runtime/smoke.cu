// SPDX-License-Identifier: Apache-2.0
// GPU smoke test of libgpumem without the pass: a vector add whose device
// code carries a hand-written site table (mk_sitetab.py) and counts one
// event per warp at each "site" exactly as a pass-inserted memops handler
// would. The runtime must find the table at module load, allocate and reset
// the counters, and report n/32 warp executions per memory site per launch.
// Modes exercise every launch path, memory APIs, graphs, threads, exit and
// crash. Depends on the CUDA runtime and gpumem/runtime.h only.
#include <cuda.h>
#include <cuda_runtime.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/runtime.h"
#include "sitetab.inc" // __gm_sitetab__0123456789abcdef: 5 sites, memops counters

extern "C" __constant__ unsigned long long *gm_counters__memops__0123456789abcdef;
extern "C" __constant__ unsigned int __gm_replica_mask__0123456789abcdef;
__constant__ unsigned long long *gm_counters__memops__0123456789abcdef;
__constant__ unsigned int __gm_replica_mask__0123456789abcdef;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "smoke: %s: %s\n", #x, cudaGetErrorString(e_)); exit(2); } } while (0)

enum { NSITES = 5 };

static __device__ __forceinline__ void count(uint32_t site)
{
    unsigned long long *b = gm_counters__memops__0123456789abcdef;
    if (!b) return;
    unsigned active = __activemask(), lt, smid;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    if ((active & lt) == 0) {
        uint32_t r = smid & __gm_replica_mask__0123456789abcdef;
        atomicAdd(b + (uint64_t)r * NSITES + site, 1ull);
    }
}

/* Grid-stride over blocks of 256 elements, so a cooperative launch (at
 * most as many blocks as fit on the GPU at once) covers n as well: every
 * 256-element block is visited once whatever the grid, so each site still
 * counts n/32 warp executions per launch. */
__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    for (int i0 = blockIdx.x * blockDim.x; i0 < n; i0 += gridDim.x * blockDim.x) {
        int i = i0 + threadIdx.x;
        count(4);
        if (i < n) {
            count(0);
            float x = a[i];
            count(1);
            float y = b[i];
            count(2);
            c[i] = x + y;
        }
    }
}

static int n = 1 << 20;
static float *da, *db, *dc;

static void launch_runtime(void) { vecadd<<<n / 256, 256>>>(da, db, dc, n); CK(cudaGetLastError()); }

static void launch_ex(void)
{
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(n / 256);
    cfg.blockDim = dim3(256);
    CK(cudaLaunchKernelEx(&cfg, vecadd, (const float *)da, (const float *)db, dc, n));
}

static void launch_coop(void)
{
    void *args[] = {&da, &db, &dc, &n};
    int per_sm = 0, sms = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, vecadd, 256, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int blocks = per_sm * sms < n / 256 ? per_sm * sms : n / 256; /* all resident at once */
    if (blocks < 1) { fprintf(stderr, "smoke: vecadd cannot run cooperatively\n"); exit(2); }
    CK(cudaLaunchCooperativeKernel((void *)vecadd, dim3(blocks), dim3(256), args, 0, 0));
}

static void launch_driver(void)
{
    cudaFunction_t f; // the CUfunction of vecadd in the current context
    CK(cudaGetFuncBySymbol(&f, (const void *)vecadd));
    void *args[] = {&da, &db, &dc, &n};
    if (cuLaunchKernel((CUfunction)f, n / 256, 1, 1, 256, 1, 1, 0, 0, args, 0) != CUDA_SUCCESS) {
        fprintf(stderr, "smoke: cuLaunchKernel failed\n");
        exit(2);
    }
}

static void launch_graph(void)
{
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamCreate(&s));
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    vecadd<<<n / 256, 256, 0, s>>>(da, db, dc, n);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaStreamDestroy(s));
}

static void *thread_main(void *arg)
{
    (void)arg;
    for (int k = 0; k < 4; k++) launch_runtime();
    return NULL;
}

static void launch_threads(void)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, thread_main, NULL);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
}

/* One host thread per GPU (device 0 included), each with its own
 * arrays: the runtime keeps per-context state and must count every
 * device's launch. Sets *ndev; returns 0 if every device's sum equals
 * device 0's. */
static float *host_in;
static double gpu_sums[64];

static void *gpu_main(void *arg)
{
    int d = (int)(intptr_t)arg;
    float *a, *b, *c, *h = (float *)malloc(n * sizeof(float));
    CK(cudaSetDevice(d));
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&b, n * sizeof(float)));
    CK(cudaMalloc(&c, n * sizeof(float)));
    CK(cudaMemcpy(a, host_in, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, host_in, n * sizeof(float), cudaMemcpyHostToDevice));
    vecadd<<<n / 256, 256>>>(a, b, c, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, c, n * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    gpu_sums[d] = s;
    CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(c));
    free(h);
    return NULL;
}

static int launch_gpus(float *h, int *ndev)
{
    pthread_t t[64];
    CK(cudaGetDeviceCount(ndev));
    if (*ndev > 64) *ndev = 64;
    host_in = h;
    for (int d = 0; d < *ndev; d++) pthread_create(&t[d], NULL, gpu_main, (void *)(intptr_t)d);
    for (int d = 0; d < *ndev; d++) pthread_join(t[d], NULL);
    CK(cudaSetDevice(0));
    for (int d = 1; d < *ndev; d++)
        if (gpu_sums[d] != gpu_sums[0]) return 1;
    return 0;
}

static double checksum(void)
{
    float *h = (float *)malloc(n * sizeof(float));
    CK(cudaMemcpy(h, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    free(h);
    return s;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)(i % 1000);
    CK(cudaMalloc(&da, n * sizeof(float)));
    CK(cudaMalloc(&db, n * sizeof(float)));
    CK(cudaMallocManaged(&dc, n * sizeof(float)));
    gm_name_allocation(da, "input a");
    CK(cudaMemcpy(da, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpyAsync(db, h, n * sizeof(float), cudaMemcpyHostToDevice, 0));
    CK(cudaMemset(dc, 0, n * sizeof(float)));
    void *unused;
    CK(cudaMallocAsync(&unused, 4096, 0));
    CK(cudaFreeAsync(unused, 0));
    int launches = 0;
    if (!strcmp(mode, "all") || !strcmp(mode, "paths")) {
        launch_runtime(), launch_ex(), launch_coop(), launch_driver();
        launches += 4;
    }
    if (!strcmp(mode, "all") || !strcmp(mode, "graph")) launch_graph(); /* not observed */
    if (!strcmp(mode, "all") || !strcmp(mode, "threads")) {
        launch_threads();
        launches += 16;
    }
    if (!strcmp(mode, "exit") || !strcmp(mode, "crash") || !strcmp(mode, "abort")) {
        launch_runtime();
        launches += 1;
    }
    if (!strcmp(mode, "gpus")) {
        int ndev = 0, bad = launch_gpus(h, &ndev);
        printf("smoke: gpus %d sums %s\n", ndev, bad ? "differ" : "equal");
        launches += ndev;
    }
    CK(cudaDeviceSynchronize());
    printf("smoke: mode %s launches %d checksum %.1f\n", mode, launches, checksum());
    fflush(stdout);
    if (!strcmp(mode, "exit")) exit(7);
    if (!strcmp(mode, "crash")) raise(SIGSEGV);
    if (!strcmp(mode, "abort")) abort();
    CK(cudaFree(da));
    CK(cudaFree(dc)); /* db is leaked on purpose */
    free(h);
    return 0;
}
