/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test double of CUPTI (built as libcupti.so.13): records the subscriber's
 * callback so a test can deliver callbacks itself (mock_cupti_fire), and
 * answers cuptiSubscribe_v2 with "held by Nsight Compute" when
 * MOCK_CUPTI_HELD=1. Activity API: every kernel launch delivered as a
 * callback gets a correlation id and, at cuptiActivityFlushAll, a kernel
 * record of 1.5 ms (a graph launch: MOCK_GRAPH_RECORDS of them, default 3,
 * the kernels of mock_cuda's graph); MOCK_NO_ACTIVITY=1 refuses to enable
 * it. Used only by runtime/tests; depends on cupti.h types.
 */
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MOCK_API __attribute__((visibility("default")))

static CUpti_CallbackFunc g_cb;
static void *g_ud;

MOCK_API CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *s, CUpti_CallbackFunc cb, void *ud)
{
    if (getenv("MOCK_CUPTI_HELD")) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    *s = (CUpti_SubscriberHandle)0x1;
    g_cb = cb, g_ud = ud;
    return CUPTI_SUCCESS;
}

MOCK_API CUptiResult cuptiSubscribe_v2(CUpti_SubscriberHandle *s, CUpti_CallbackFunc cb, void *ud,
                                       CUpti_SubscriberParams *p)
{
    if (getenv("MOCK_CUPTI_HELD")) {
        if (p && p->oldSubscriberName) strncpy(p->oldSubscriberName, "Nsight Compute", p->oldSubscriberSize);
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    }
    return cuptiSubscribe(s, cb, ud);
}

MOCK_API CUptiResult cuptiEnableDomain(uint32_t e, CUpti_SubscriberHandle s, CUpti_CallbackDomain d)
{
    (void)e, (void)s, (void)d;
    return CUPTI_SUCCESS;
}
/* Driver-API callbacks switched off by the subscriber are not delivered. */
static unsigned char g_off[CUPTI_DRIVER_TRACE_CBID_SIZE];

MOCK_API CUptiResult cuptiEnableCallback(uint32_t e, CUpti_SubscriberHandle s, CUpti_CallbackDomain d,
                                         CUpti_CallbackId c)
{
    (void)s;
    if (d == CUPTI_CB_DOMAIN_DRIVER_API && c < CUPTI_DRIVER_TRACE_CBID_SIZE) g_off[c] = !e;
    return CUPTI_SUCCESS;
}

MOCK_API int mock_cupti_enabled(CUpti_CallbackDomain d, CUpti_CallbackId c)
{
    return d != CUPTI_CB_DOMAIN_DRIVER_API || c >= CUPTI_DRIVER_TRACE_CBID_SIZE || !g_off[c];
}

/* Names of the driver callbacks the tests use (others: unknown). */
#define NAME(n) {CUPTI_DRIVER_TRACE_CBID_##n, #n}
static const struct { CUpti_CallbackId id; const char *name; } g_names[] = {
    NAME(cuMemAlloc_v2), NAME(cuMemFree_v2), NAME(cuMemcpyHtoD_v2), NAME(cuMemsetD8_v2),
    NAME(cuMemcpyDtoD_v2), NAME(cuLaunchKernel), NAME(cuLaunchKernelEx), NAME(cuLaunchKernel_ptsz),
    NAME(cuGraphLaunch), NAME(cuStreamDestroy_v2), NAME(cuGetErrorString), NAME(cuEventRecord),
    NAME(cuStreamIsCapturing), NAME(cuCtxGetDevice), NAME(cuStreamWaitEvent),
};

MOCK_API CUptiResult cuptiGetCallbackName(CUpti_CallbackDomain d, uint32_t c, const char **name)
{
    for (size_t i = 0; d == CUPTI_CB_DOMAIN_DRIVER_API && i < sizeof g_names / sizeof g_names[0]; i++)
        if (g_names[i].id == c) {
            *name = g_names[i].name;
            return CUPTI_SUCCESS;
        }
    *name = NULL;
    return CUPTI_ERROR_INVALID_PARAMETER;
}
MOCK_API CUptiResult cuptiGetResultString(CUptiResult r, const char **s) { (void)r; *s = "mock"; return CUPTI_SUCCESS; }
MOCK_API CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle s) { (void)s; return CUPTI_SUCCESS; }

/* ---- activity API: kernel records ---------------------------------------- */
static CUpti_BuffersCallbackRequestFunc g_req;
static CUpti_BuffersCallbackCompleteFunc g_done;
static int g_kernels_on;
static uint32_t g_corr;
static CUpti_ActivityKernel10 *g_recs; /* made, not yet delivered */
static size_t g_nrecs, g_caprecs;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER; /* guards the records and ids */

MOCK_API CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
                                                    CUpti_BuffersCallbackCompleteFunc done)
{
    g_req = req, g_done = done;
    return CUPTI_SUCCESS;
}
MOCK_API CUptiResult cuptiActivityEnable(CUpti_ActivityKind k)
{
    if (getenv("MOCK_NO_ACTIVITY")) return CUPTI_ERROR_NOT_SUPPORTED;
    if (k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) g_kernels_on = 1;
    return CUPTI_SUCCESS;
}
MOCK_API CUptiResult cuptiActivityGetNextRecord(uint8_t *buf, size_t valid, CUpti_Activity **rec)
{
    uint8_t *next = *rec ? (uint8_t *)*rec + sizeof(CUpti_ActivityKernel10) : buf;
    if (next + sizeof(CUpti_ActivityKernel10) > buf + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *rec = (CUpti_Activity *)next;
    return CUPTI_SUCCESS;
}
MOCK_API CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
    (void)flag;
    pthread_mutex_lock(&g_mu);
    while (g_nrecs && g_req && g_done) {
        uint8_t *buf = NULL;
        size_t size = 0, maxr = 0, n = 0;
        g_req(&buf, &size, &maxr);
        if (!buf) break;
        n = size / sizeof *g_recs < g_nrecs ? size / sizeof *g_recs : g_nrecs;
        memcpy(buf, g_recs, n * sizeof *g_recs);
        memmove(g_recs, g_recs + n, (g_nrecs - n) * sizeof *g_recs);
        g_nrecs -= n;
        g_done(NULL, 0, buf, size, n * sizeof *g_recs);
    }
    pthread_mutex_unlock(&g_mu);
    return CUPTI_SUCCESS;
}

static int is_launch(CUpti_CallbackDomain d, CUpti_CallbackId id)
{
    return d == CUPTI_CB_DOMAIN_DRIVER_API &&
           (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
            id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz || id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch);
}

/* The kernel of a launch that succeeded: 1.5 ms, as the mock's events said. */
static void make_record(uint32_t corr)
{
    if (g_nrecs == g_caprecs) {
        size_t nc = g_caprecs ? g_caprecs * 2 : 64;
        void *p = realloc(g_recs, nc * sizeof *g_recs);
        if (!p) return;
        g_recs = p, g_caprecs = nc;
    }
    CUpti_ActivityKernel10 *k = &g_recs[g_nrecs++];
    memset(k, 0, sizeof *k);
    k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k->start = 1000000000ull * g_nrecs;
    k->end = k->start + 1500000;
    k->correlationId = corr;
}

MOCK_API int mock_cupti_fire(CUpti_CallbackDomain d, CUpti_CallbackId id, const void *data)
{
    if (!g_cb) return -1;
    if (!mock_cupti_enabled(d, id)) return 0;
    CUpti_CallbackData *cb = (CUpti_CallbackData *)(uintptr_t)data; /* the test's own struct */
    int api = d == CUPTI_CB_DOMAIN_DRIVER_API || d == CUPTI_CB_DOMAIN_RUNTIME_API;
    pthread_mutex_lock(&g_mu);
    if (api && cb->callbackSite == CUPTI_API_ENTER) cb->correlationId = ++g_corr;
    pthread_mutex_unlock(&g_mu);
    g_cb(g_ud, d, id, data);
    if (api && cb->callbackSite == CUPTI_API_EXIT && g_kernels_on && is_launch(d, id) &&
        (!cb->functionReturnValue || *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS))
    {
        const char *gr = getenv("MOCK_GRAPH_RECORDS");
        int n = id != CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ? 1 : gr ? atoi(gr) : 3;
        pthread_mutex_lock(&g_mu);
        for (int i = 0; i < n; i++) make_record(cb->correlationId);
        pthread_mutex_unlock(&g_mu);
    }
    return 0;
}
