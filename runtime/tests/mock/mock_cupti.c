/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test double of CUPTI (built as libcupti.so.13): records the subscriber's
 * callback so a test can deliver callbacks itself (mock_cupti_fire), and
 * answers cuptiSubscribe_v2 with "held by Nsight Compute" when
 * MOCK_CUPTI_HELD=1. Used only by runtime/tests; depends on cupti.h types.
 */
#include <cupti.h>
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

MOCK_API int mock_cupti_fire(CUpti_CallbackDomain d, CUpti_CallbackId id, const void *data)
{
    if (!g_cb) return -1;
    if (!mock_cupti_enabled(d, id)) return 0;
    g_cb(g_ud, d, id, data);
    return 0;
}
