// SPDX-License-Identifier: Apache-2.0
// Launch-bound benchmark (issue 8 item 1): host time per kernel launch for
// many small kernels, and whether kernels on different streams overlap.
// Built twice by bench/launch/build.sh (gpumemcc with the default analyses,
// and --gm-off); bench/launch/run.sh runs both on the GPU machine.
//   launch MODE [LAUNCHES]
//   MODE 1stream : LAUNCHES axpy kernels (16k floats) on one stream
//        4streams: the same, round-robin over 4 streams
//        4threads: 4 host threads, each LAUNCHES/4 on its own stream
//        alternate: axpy and scale (two kernels of one module) alternating
//                  on one stream: each launch changes the counters' owner
//        overlap : 4 spin kernels (one block each, ~20 ms) on 4 streams,
//                  then the same 4 on one stream; prints the ratio
//        exact1  : one axpy and one scale launch, synchronised (reference)
//        exact   : LAUNCHES rounds of axpy and scale, the two kernels of
//                  one module alternating over 4 streams, left in flight at
//                  return: the report's counts must be LAUNCHES x exact1's
// Prints one line: "MODE ... host_us_per_launch X wall_us_per_launch Y".
// Host time is the launch loop only; wall time includes the final
// synchronisation. Depends on the CUDA runtime only.
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "launch: %s: %s\n", #x, cudaGetErrorString(e_)); exit(2); } } while (0)

enum { N = 16384, THREADS = 256 };

__global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void scale(float a, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i];
}

// Spins for `cycles` clock cycles (a time, not a work amount: instrumented
// or not it takes as long), then stores once.
__global__ void spin(long long cycles, int *out)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
    if (threadIdx.x == 0) out[blockIdx.x] = 1;
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static float *g_x, *g_y;
static int g_alternate;

static void loop(cudaStream_t *s, int ns, int launches)
{
    for (int i = 0; i < launches; i++) {
        if (g_alternate && i % 2) scale<<<N / THREADS, THREADS, 0, s[i % ns]>>>(0.9999f, g_y, N);
        else axpy<<<N / THREADS, THREADS, 0, s[i % ns]>>>(1.0001f, g_x, g_y, N);
    }
}

struct targ { int launches; cudaStream_t s; double host_us; };

static void *thread_main(void *p)
{
    struct targ *a = (struct targ *)p;
    double t0 = now_us();
    loop(&a->s, 1, a->launches);
    a->host_us = now_us() - t0;
    return NULL;
}

static void axpy_mode(const char *mode, int launches)
{
    cudaStream_t s[4];
    for (int i = 0; i < 4; i++) CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    loop(s, 1, 100); /* warm-up: module load, first-launch work */
    CK(cudaDeviceSynchronize());
    double t0 = now_us(), host;
    if (!strcmp(mode, "4threads")) {
        pthread_t t[4];
        struct targ a[4];
        for (int i = 0; i < 4; i++) {
            a[i].launches = launches / 4, a[i].s = s[i];
            pthread_create(&t[i], NULL, thread_main, &a[i]);
        }
        for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
        host = now_us() - t0;
    } else {
        loop(s, !strcmp(mode, "4streams") ? 4 : 1, launches);
        host = now_us() - t0;
    }
    CK(cudaDeviceSynchronize());
    double wall = now_us() - t0;
    CK(cudaGetLastError());
    printf("%s launches %d host_us_per_launch %.2f wall_us_per_launch %.2f\n", mode, launches,
           host / launches, wall / launches);
    for (int i = 0; i < 4; i++) CK(cudaStreamDestroy(s[i]));
}

static double spin_run(cudaStream_t *s, int ns, long long cycles, int *out)
{
    CK(cudaDeviceSynchronize());
    double t0 = now_us();
    for (int i = 0; i < 4; i++) spin<<<1, 32, 0, s[i % ns]>>>(cycles, out + i);
    CK(cudaDeviceSynchronize());
    return now_us() - t0;
}

static void overlap_mode(void)
{
    cudaStream_t s[4];
    int *out, clock_khz = 0;
    for (int i = 0; i < 4; i++) CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    CK(cudaMalloc(&out, 4 * sizeof(int)));
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    long long cycles = (long long)clock_khz * 20; /* about 20 ms */
    spin_run(s, 4, cycles / 20, out);             /* warm-up */
    double par = spin_run(s, 4, cycles, out), ser = spin_run(s, 1, cycles, out);
    printf("overlap 4 spin kernels: 4 streams %.0f us, 1 stream %.0f us, overlap %.2fx "
           "(4.00 = fully concurrent, 1.00 = serialised)\n", par, ser, ser / par);
    CK(cudaFree(out));
    for (int i = 0; i < 4; i++) CK(cudaStreamDestroy(s[i]));
}

/* Returns without synchronising or freeing: kernels are still in flight
 * when main returns (the runtime must collect them at exit). */
static void exact_mode(int rounds)
{
    cudaStream_t s[4];
    for (int i = 0; i < 4; i++) CK(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
    for (int r = 0; r < rounds; r++) {
        axpy<<<N / THREADS, THREADS, 0, s[r % 4]>>>(1.0001f, g_x, g_y, N);
        scale<<<N / THREADS, THREADS, 0, s[(r + 1) % 4]>>>(0.9999f, g_y, N);
    }
    CK(cudaGetLastError());
    printf("exact rounds %d launched\n", rounds);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "1stream";
    int launches = argc > 2 ? atoi(argv[2]) : 20000;
    if (launches < 1) { fprintf(stderr, "launch: LAUNCHES must be at least 1\n"); return 2; }
    CK(cudaMalloc(&g_x, N * sizeof(float)));
    CK(cudaMalloc(&g_y, N * sizeof(float)));
    CK(cudaMemset(g_x, 0, N * sizeof(float)));
    CK(cudaMemset(g_y, 0, N * sizeof(float)));
    if (!strcmp(mode, "exact1")) {
        exact_mode(1);
        CK(cudaDeviceSynchronize());
    } else if (!strcmp(mode, "exact")) {
        exact_mode(launches);
        return 0;
    } else if (!strcmp(mode, "overlap")) overlap_mode();
    else if (!strcmp(mode, "1stream") || !strcmp(mode, "4streams") || !strcmp(mode, "4threads") ||
             (g_alternate = !strcmp(mode, "alternate")))
        axpy_mode(mode, launches);
    else { fprintf(stderr, "launch: unknown mode %s (1stream 4streams 4threads alternate overlap exact1 exact)\n", mode); return 2; }
    CK(cudaFree(g_x));
    CK(cudaFree(g_y));
    return 0;
}
