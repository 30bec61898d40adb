// SPDX-License-Identifier: Apache-2.0
// Known answers for "allocations" in a data-dependent loop (the shape of
// examples/spmv.cu's spmv_csr, whose allocations build failed on the H100
// with "an illegal instruction" at 16384 rows and more): every thread of a
// warp runs its own number of iterations, gathering x through col.
// Checks: the program runs, y equals the host's result, and per allocation
// touched units, reads and writes are exact. Host CUDA only; must not
// depend on gpumem. Derivations: README.md.
#include "kat.h"
#include <stdlib.h>

extern "C" void gm_name_allocation(const void *ptr, const char *label) __attribute__((weak));
static void name(const void *p, const char *label) { if (gm_name_allocation) gm_name_allocation(p, label); }

#define R 65536                /* rows (threads) */

__global__ void csr_loop(const int *rowptr, const int *col, const float *val, const float *x,
                         float *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float sum = 0.0f;
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) sum += val[k] * x[col[k]];
    y[r] = sum;
}

static void expect_alloc(const char *label, const char *counter, unsigned long long v)
{
    printf("expect allocation %s %s %llu\n", label, counter, v);
}

int main(void)
{
    int *rowptr = (int *)malloc((R + 1) * sizeof(int));
    rowptr[0] = 0;
    for (int r = 0; r < R; r++) rowptr[r + 1] = rowptr[r] + 1 + (r * 7) % 16;   /* 1..16 per row */
    int nnz = rowptr[R];
    int *col = (int *)malloc(nnz * sizeof(int));
    float *val = (float *)malloc(nnz * sizeof(float)), *x = (float *)malloc(R * sizeof(float));
    float *y = (float *)malloc(R * sizeof(float)), *ref = (float *)malloc(R * sizeof(float));
    char *seen = (char *)calloc(R, 1);
    unsigned long long xdistinct = 0;
    for (int k = 0; k < nnz; k++) {
        col[k] = (int)((k * 40503u) % (R / 2));           /* x's first half only */
        val[k] = (float)(1 + k % 7);
        xdistinct += !seen[col[k]];
        seen[col[k]] = 1;
    }
    for (int i = 0; i < R; i++) x[i] = (float)(i % 5);
    for (int r = 0; r < R; r++) {                          /* small integers: exact sums */
        float s = 0.0f;
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++) s += val[k] * x[col[k]];
        ref[r] = s;
    }
    int *drow, *dcol;
    float *dval, *dx, *dy;
    KAT_CHECK(cudaMalloc(&drow, (R + 1) * sizeof(int)));
    KAT_CHECK(cudaMalloc(&dcol, nnz * sizeof(int)));
    KAT_CHECK(cudaMalloc(&dval, nnz * sizeof(float)));
    KAT_CHECK(cudaMalloc(&dx, R * sizeof(float)));
    KAT_CHECK(cudaMalloc(&dy, R * sizeof(float)));
    name(drow, "rowptr"), name(dcol, "col"), name(dval, "val"), name(dx, "x"), name(dy, "y");
    KAT_CHECK(cudaMemcpy(drow, rowptr, (R + 1) * sizeof(int), cudaMemcpyHostToDevice));
    KAT_CHECK(cudaMemcpy(dcol, col, nnz * sizeof(int), cudaMemcpyHostToDevice));
    KAT_CHECK(cudaMemcpy(dval, val, nnz * sizeof(float), cudaMemcpyHostToDevice));
    KAT_CHECK(cudaMemcpy(dx, x, R * sizeof(float), cudaMemcpyHostToDevice));
    csr_loop<<<R / 128, 128>>>(drow, dcol, dval, dx, dy, R);
    kat_sync();
    KAT_CHECK(cudaMemcpy(y, dy, R * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < R; r++)
        if (y[r] != ref[r]) {
            fprintf(stderr, "kat_alloc_loop: y[%d] = %g, expected %g\n", r, y[r], ref[r]);
            return 1;
        }
    void *all[5] = {drow, dcol, dval, dx, dy};
    for (int i = 0; i < 5; i++) KAT_CHECK(cudaFree(all[i]));

    /* one thread-level access per element per use (4 B units) */
    expect_alloc("rowptr", "touched_units", R + 1);
    expect_alloc("rowptr", "reads", 2ull * R);            /* rowptr[r] and rowptr[r + 1] */
    expect_alloc("col", "touched_units", nnz);
    expect_alloc("col", "reads", nnz);
    expect_alloc("val", "touched_units", nnz);
    expect_alloc("val", "reads", nnz);
    expect_alloc("val", "writes", 0);
    expect_alloc("x", "touched_units", xdistinct);
    expect_alloc("x", "largest_untouched_units", R / 2);  /* the second half */
    expect_alloc("x", "reads", nnz);
    expect_alloc("y", "touched_units", R);
    expect_alloc("y", "writes", R);
    expect_alloc("y", "reads", 0);
    return 0;
}
