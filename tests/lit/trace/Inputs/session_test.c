/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The tracer's runtime side end to end on a CPU (runtime/trace_session.c
 * with trace_cuda.c over the fake libcuda in fake_cuda.c): a module with a
 * site table and the trace globals, two allocations, three launches of one
 * kernel. Between gm_trace_launch_begin and _end, CPU threads play the
 * warps: when the module's buffer pointer is set they write records with the
 * handler's protocol (gpumem/trace.h), 4 threads x 5000 records per launch.
 * Prints what begin returned per launch; the tracer prints its own reports.
 * With the argument "fork" the program forks first and both processes do
 * all this, each printing "process PID" (two processes of one program,
 * each with its own trace files through %p). Test input only.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gpumem/abi.h"
#include "gpumem/sitetab.h"
#include "gpumem/trace.h"
#include "rt_core.h"
#include "trace_session.h"

void fake_cuda_set_global(const char *name, void *addr, size_t size);

#define A(p) ((_Atomic uint64_t *)(p))
#define A32(p) ((_Atomic uint32_t *)(p))
#define PER 5000
#define NP 4
#define BASE 0x7f0000000000ull

static uint64_t g_buf;      /* gm_trace_buf__00000000000000ab */
static uint32_t g_module;   /* gm_trace_module__00000000000000ab */

static const char STRS[] = "\0session.cu\0kern\0gm_trace_buf\0gm_trace_buf__00000000000000ab\0"
                           "gm_trace_module\0gm_trace_module__00000000000000ab";
enum { S_FILE = 1, S_FUNC = 12, S_BUF = 17, S_BUFSYM = 30, S_MOD = 61, S_MODSYM = 77 };

static size_t sitetab(unsigned char *out)
{
    struct gm_sitetab_header h = { .magic = GM_SITETAB_MAGIC, .version = GM_SITETAB_VERSION,
                                   .header_size = sizeof h, .modid = 0xab, .nsites = 2,
                                   .nglobals = 2, .abi_version = GM_ABI_VERSION,
                                   .source_str = S_FILE };
    struct gm_site s[2] = { { .event = GM_EVENT_MEM, .space = GM_SPACE_GLOBAL, .when = GM_WHEN_BEFORE,
                              .info = 4 | (1u << 16) | GM_INFO_LOAD, .func_str = S_FUNC,
                              .file_str = S_FILE, .line = 10, .column = 3 } };
    s[1] = s[0];
    s[1].line = 11;
    struct gm_sitetab_global g[2] = { { .name_str = S_BUF, .sym_str = S_BUFSYM, .size = 8 },
                                      { .name_str = S_MOD, .sym_str = S_MODSYM, .size = 4 } };
    h.sites_off = sizeof h;
    h.globals_off = h.sites_off + sizeof s;
    h.strings_off = h.globals_off + sizeof g;
    h.strings_size = sizeof STRS;
    memcpy(out, &h, sizeof h);
    memcpy(out + h.sites_off, s, sizeof s);
    memcpy(out + h.globals_off, g, sizeof g);
    memcpy(out + h.strings_off, STRS, sizeof STRS);
    return h.strings_off + sizeof STRS;
}

/* One warp memory instruction with the handler's reservation protocol. */
static void produce(struct gm_trace_buf *b, uint32_t p, uint32_t seq)
{
    uint64_t nrec = atomic_fetch_add(A(&b->records), 1);
    if (b->max_records && nrec >= b->max_records) return;
    uint64_t w;
    for (uint32_t polls = 0;; polls++) {
        w = atomic_load(A(&b->write_index));
        uint64_t r = atomic_load(A(&b->read_index));
        if (w + 1 <= r + b->capacity) {
            if (atomic_compare_exchange_strong(A(&b->write_index), &w, w + 1)) break;
            continue;
        }
        if (b->mode == GM_TRACE_MODE_DROP || (b->spin_limit && polls >= b->spin_limit)) {
            atomic_fetch_add(A(&b->dropped), 1);
            return;
        }
    }
    struct gm_trace_rec *r = (void *)((char *)b + GM_TRACE_BUF_HDR_SIZE +
                                      (w % b->capacity) * GM_TRACE_REC_SIZE);
    memset(r, 0, sizeof *r);
    r->base = BASE + ((uint64_t)(p * PER + seq) * 128) % (1u << 20);
    r->site = seq % 2;
    r->active = 0xffffffffu;
    r->cta_x = seq;
    r->smid = (uint16_t)p;
    r->module = (uint16_t)g_module;
    r->width = 4;
    r->kind = GM_TRACE_LOAD;
    r->space = GM_SPACE_GLOBAL;
    for (int k = 0; k < 32; k++) r->delta[k] = k * 4;
    atomic_store_explicit(A32(&r->commit), (uint32_t)(w + 1), memory_order_release);
}

static void *warp(void *arg)
{
    uint32_t p = (uint32_t)(uintptr_t)arg;
    struct gm_trace_buf *b = (struct gm_trace_buf *)(uintptr_t)g_buf;
    for (uint32_t s = 0; b && s < PER; s++) produce(b, p, s);
    return NULL;
}

int main(int argc, char **argv)
{
    static unsigned char tab[4096];
    char err[256];
    pid_t child = -1;
    if (argc > 1 && !strcmp(argv[1], "fork")) {
        if ((child = fork()) < 0) return 1;
        printf("process %ld\n", (long)getpid());
    }
    struct gm_modreg reg = { 0 };
    struct gm_alloc_table allocs;
    size_t n = sitetab(tab);
    if (gm_modreg_add_table(&reg, "__gm_sitetab__00000000000000ab", tab, n, err, sizeof err) != 0) {
        printf("site table rejected: %s\n", err);
        return 1;
    }
    fake_cuda_set_global("gm_trace_buf__00000000000000ab", &g_buf, sizeof g_buf);
    fake_cuda_set_global("gm_trace_module__00000000000000ab", &g_module, sizeof g_module);
    gm_alloc_init(&allocs);
    gm_alloc_add(&allocs, BASE, 1u << 20, GM_ALLOC_DEVICE, 0);
    gm_alloc_add(&allocs, BASE + (2u << 20), 4096, GM_ALLOC_DEVICE, 0);
    for (int l = 0; l < 3; l++) {
        struct gm_trace_launch_args a = { .func = (CUfunction)0x10, .name = "_Z4kernv",
                                          .grid = { 80, 1, 1 }, .block = { 256, 1, 1 },
                                          .stream = (CUstream)0x5, .modules = &reg,
                                          .allocs = &allocs };
        if (l == 0) g_buf = 0x5555;     /* a stale value: begin must set or clear it */
        int traced = gm_trace_launch_begin(&a);
        printf("launch %d: traced=%d buffer=%s module=%u\n", l, traced,
               g_buf == 0 ? "null" : g_buf == 0x5555 ? "stale" : "set", g_module);
        if (g_buf == 0x5555) g_buf = 0;     /* untouched: the module's own zero */
        pthread_t th[NP];
        for (uint32_t p = 0; p < NP; p++) pthread_create(&th[p], NULL, warp, (void *)(uintptr_t)p);
        for (uint32_t p = 0; p < NP; p++) pthread_join(th[p], NULL);
        gm_trace_launch_end();
    }
    gm_trace_shutdown();
    gm_alloc_destroy(&allocs);
    gm_modreg_destroy(&reg);
    int status = 0;
    if (child > 0 && (waitpid(child, &status, 0) != child || status != 0)) return 1;
    return 0;
}
