// SPDX-License-Identifier: Apache-2.0
// Example: sparse matrix-vector product y = A x in CSR (one thread per row)
// and ELL (column-major, padded with column -1, one thread per row). The
// matrix is generated deterministically: row r has 1 + (hash % (2*avg))
// non-zeros at pseudo-random columns; values and x are small integers, so
// every float sum is exact. Usage: spmv [rows] [avg_nnz_per_row] [iters].
// Depends only on CUDA.
#include "example_util.h"

__global__ void spmv_csr(const int *rowptr, const int *col, const float *val,
                         const float *x, float *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float sum = 0.0f;
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) sum += val[k] * x[col[k]];
    y[r] = sum;
}

__global__ void spmv_ell(const int *col, const float *val, const float *x,
                         float *y, int rows, int width)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float sum = 0.0f;
    for (int k = 0; k < width; k++) {
        int c = col[(size_t)k * rows + r];
        if (c >= 0) sum += val[(size_t)k * rows + r] * x[c];
    }
    y[r] = sum;
}

struct csr { int rows, nnz, width; int *rowptr, *col; float *val; };

static void make_csr(struct csr *m, int rows, int avg)
{
    uint64_t seed = 12345;
    m->rows = rows;
    m->rowptr = (int *)ex_malloc(((size_t)rows + 1) * sizeof(int));
    m->rowptr[0] = 0;
    m->width = 0;
    for (int r = 0; r < rows; r++) {
        int k = 1 + (int)(ex_rand(&seed) % (uint32_t)(2 * avg));
        m->rowptr[r + 1] = m->rowptr[r] + k;
        if (k > m->width) m->width = k;
    }
    m->nnz = m->rowptr[rows];
    m->col = (int *)ex_malloc((size_t)m->nnz * sizeof(int));
    m->val = (float *)ex_malloc((size_t)m->nnz * sizeof(float));
    for (int k = 0; k < m->nnz; k++) {
        m->col[k] = (int)(ex_rand(&seed) % (uint32_t)rows);
        m->val[k] = (float)(1 + ex_rand(&seed) % 15);
    }
}

/* ELL arrays (column-major, width x rows) from the CSR matrix. */
static void make_ell(const struct csr *m, int **col, float **val)
{
    size_t cells = (size_t)m->width * m->rows;
    *col = (int *)ex_malloc(cells * sizeof(int));
    *val = (float *)ex_malloc(cells * sizeof(float));
    for (size_t i = 0; i < cells; i++) {
        (*col)[i] = -1;
        (*val)[i] = 0.0f;
    }
    for (int r = 0; r < m->rows; r++)
        for (int k = m->rowptr[r]; k < m->rowptr[r + 1]; k++) {
            size_t cell = (size_t)(k - m->rowptr[r]) * m->rows + r;
            (*col)[cell] = m->col[k];
            (*val)[cell] = m->val[k];
        }
}

static void *to_dev(const void *h, size_t bytes)
{
    void *d;
    EX_CHECK(cudaMalloc(&d, bytes));
    EX_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

struct ctx { struct csr d; int *ecol; float *eval, *x, *y; int which; };

static void launch(void *p)
{
    struct ctx *c = (struct ctx *)p;
    int blocks = (c->d.rows + 127) / 128;
    if (c->which == 0)
        spmv_csr<<<blocks, 128>>>(c->d.rowptr, c->d.col, c->d.val, c->x, c->y, c->d.rows);
    else
        spmv_ell<<<blocks, 128>>>(c->ecol, c->eval, c->x, c->y, c->d.rows, c->d.width);
}

int main(int argc, char **argv)
{
    ex_usage(argc, argv, 3, "[rows (default 262144)] [avg_nnz_per_row (default 16)] [iters (default 10)]");
    int rows = (int)ex_arg(argc, argv, 1, 1 << 18, "rows");
    int avg = (int)ex_arg(argc, argv, 2, 16, "avg_nnz_per_row");
    int iters = (int)ex_arg(argc, argv, 3, 10, "iters");
    if ((long long)rows * 2 * avg > INT_MAX) {   /* int row pointers */
        fprintf(stderr, "%s: rows * 2 * avg_nnz_per_row must stay below 2^31\n", argv[0]);
        return 1;
    }
    struct csr m;
    make_csr(&m, rows, avg);
    int *hecol;
    float *heval, *hx = (float *)ex_malloc((size_t)rows * sizeof(float));
    make_ell(&m, &hecol, &heval);
    for (int i = 0; i < rows; i++) hx[i] = (float)(i % 16);
    struct ctx c = {m, 0, 0, 0, 0, 0};
    size_t cells = (size_t)m.width * rows;
    c.d.rowptr = (int *)to_dev(m.rowptr, ((size_t)rows + 1) * sizeof(int));
    c.d.col = (int *)to_dev(m.col, (size_t)m.nnz * sizeof(int));
    c.d.val = (float *)to_dev(m.val, (size_t)m.nnz * sizeof(float));
    c.ecol = (int *)to_dev(hecol, cells * sizeof(int));
    c.eval = (float *)to_dev(heval, cells * sizeof(float));
    c.x = (float *)to_dev(hx, (size_t)rows * sizeof(float));
    EX_CHECK(cudaMalloc((void **)&c.y, (size_t)rows * sizeof(float)));
    static const char *names[2] = {"spmv_csr", "spmv_ell"};
    for (c.which = 0; c.which < 2; c.which++) {
        EX_CHECK(cudaMemset(c.y, 0, (size_t)rows * sizeof(float)));
        float ms = ex_time_ms(launch, &c, iters);
        ex_report(names[c.which], ex_fnv_dev(EX_FNV_INIT, c.y, (size_t)rows * sizeof(float)), ms, iters + 1);
    }
    void *all[7] = {c.d.rowptr, c.d.col, c.d.val, c.ecol, c.eval, c.x, c.y};
    for (int i = 0; i < 7; i++) EX_CHECK(cudaFree(all[i]));
    free(m.rowptr); free(m.col); free(m.val); free(hecol); free(heval); free(hx);
    return 0;
}
