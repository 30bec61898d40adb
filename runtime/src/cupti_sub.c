/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CUPTI subscription and callback dispatch. Subscribes with
 * cuptiSubscribe_v2 (CUDA 13; names a tool already holding CUPTI) or
 * cuptiSubscribe, enables the resource, driver-API and runtime-API domains,
 * and routes each callback. The runtime's own CUDA calls set a per-thread
 * guard and are not seen. Depends on CUPTI/CUDA; never on LLVM.
 */
#include "rt.h"
#include "trace_session.h"

#include <string.h>

static CUpti_SubscriberHandle g_sub;

static void on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *rd)
{
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED) gm_on_module_loaded(rd);
    else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) gm_on_context_destroy(rd->context);
}

/* Only calls that make timeline events need the (backtrace) call site. */
static int wants_site(const char *fn)
{
    static const char *const pre[] = {"cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemset",
                                      "cudaLaunch", "cudaGraphLaunch", "cuMem", "cuLaunch",
                                      "cuGraphLaunch", NULL};
    for (int i = 0; fn && pre[i]; i++)
        if (strncmp(fn, pre[i], strlen(pre[i])) == 0) return 1;
    return 0;
}

/* Enter/exit bookkeeping for API callbacks: the outermost call's name and
 * host call site, so nested driver calls are attributed to the user's call. */
static void api_enter(const CUpti_CallbackData *cb)
{
    struct gm_tls *t = gm_tls();
    if (t->api_depth++ == 0) {
        t->outer_api = cb->functionName;
        t->outer_site = wants_site(cb->functionName) ? gm_callsite_capture(cb->functionName) : 0;
        t->outer_recorded = 0;
        t->outer_corr = cb->correlationId;
    }
}

static void api_exit(void)
{
    struct gm_tls *t = gm_tls();
    if (t->api_depth > 0) t->api_depth--;
}

/* A graph instantiated (every cuGraphInstantiate* params struct starts with
 * phGraphExec, hGraph) or an executable graph destroyed: kernel time counts
 * its kernel nodes (gputime.c). */
static int on_graph_exec(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, int enter)
{
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy) {
        const cuGraphExecDestroy_params *p = cb->functionParams;
        if (enter && p) gm_gputime_graph_destroyed(p->hGraphExec);
        return 1;
    }
    if (cbid != CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2 &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams &&
        cbid != CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithParams_ptsz)
        return 0;
    const cuGraphInstantiateWithFlags_params *p = cb->functionParams;
    const CUresult *ret = cb->functionReturnValue;
    if (!enter && p && p->phGraphExec && ret && *ret == CUDA_SUCCESS)
        gm_gputime_graph_instantiated(*p->phGraphExec, p->hGraph);
    return 1;
}

static void on_api(CUpti_CallbackDomain d, CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    int enter = cb->callbackSite == CUPTI_API_ENTER;
    if (enter) api_enter(cb);
    if (d == CUPTI_CB_DOMAIN_DRIVER_API) {
        int launch = gm_is_launch_cbid(cbid);
        if (enter && !launch) gm_trace_before_call();   /* may block in the driver */
        if (launch) gm_on_launch(cbid, cb); /* kernels and graphs */
        else if (enter && (cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy ||
                           cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamDestroy_v2) && cb->functionParams)
            gm_col_stream_destroyed(((const cuStreamDestroy_v2_params *)cb->functionParams)->hStream);
        else if (!on_graph_exec(cbid, cb, enter) && !enter) {
            gm_on_capture(cbid, cb);
            gm_on_driver_mem(cbid, cb);
        }
    } else if (!enter) {
        gm_on_runtime_mem(cbid, cb);
    }
    if (!enter) api_exit();
}

static void CUPTIAPI callback(void *ud, CUpti_CallbackDomain d, CUpti_CallbackId cbid,
                              const void *data)
{
    (void)ud;
    if (!gm_st.active) return;
    if (d == CUPTI_CB_DOMAIN_RESOURCE) { /* also during our own calls: lazy loads */
        on_resource(cbid, data);
        return;
    }
    if (gm_tls()->in_runtime || gm_trace_internal()) return;
    on_api(d, cbid, data);
}

static const char *result_text(CUptiResult r)
{
    const char *s = NULL;
    gm_cu.cuptiGetResultString(r, &s);
    return s ? s : "unknown CUPTI error";
}

static CUptiResult subscribe(char *holder, size_t len)
{
    holder[0] = '\0';
    if (!gm_cu.cuptiSubscribe_v2) return gm_cu.cuptiSubscribe(&g_sub, callback, NULL);
#ifdef CUpti_SubscriberParams_STRUCT_SIZE
    CUpti_SubscriberParams p;
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    p.subscriberName = "gpumem";
    p.oldSubscriberName = holder;
    p.oldSubscriberSize = len;
    return gm_cu.cuptiSubscribe_v2(&g_sub, callback, NULL, &p);
#else
    (void)len;
    return gm_cu.cuptiSubscribe(&g_sub, callback, NULL);
#endif
}

/* Driver calls the runtime never records, made many times per launch by
 * the runtime itself (events, stream ordering, context queries) and by the
 * CUDA runtime library: their callbacks are switched off, so that they do
 * not pay CUPTI's dispatch. Prefixes of driver API names. */
static const char *const g_quiet[] = {
    "cuEvent", "cuStreamWaitEvent", "cuStreamIsCapturing", "cuStreamGetCapture", "cuStreamQuery",
    "cuStreamSynchronize", "cuStreamGetCtx", "cuStreamGetFlags", "cuStreamGetPriority",
    "cuStreamGetId", "cuCtxGet", "cuCtxSetCurrent", "cuCtxPushCurrent", "cuCtxPopCurrent",
    "cuCtxSynchronize", "cuDeviceGet", "cuGetProcAddress",
    "cuFuncGet", "cuKernelGet", "cuLibraryGetGlobal", "cuModuleGetGlobal", "cuOccupancy",
    "cuPointerGetAttribute", "cuDriverGetVersion", NULL};

static void quiet_driver_calls(void)
{
    for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; id++) {
        const char *name = NULL;
        if (gm_is_launch_cbid(id) ||
            gm_cu.cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, id, &name) != CUPTI_SUCCESS || !name)
            continue;
        for (int i = 0; g_quiet[i]; i++)
            if (strncmp(name, g_quiet[i], strlen(g_quiet[i])) == 0) {
                gm_cu.cuptiEnableCallback(0, g_sub, CUPTI_CB_DOMAIN_DRIVER_API, id);
                break;
            }
    }
}

int gm_cupti_start(void)
{
    char holder[256];
    CUptiResult r = subscribe(holder, sizeof holder);
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        gm_warn("CUPTI is held by %s; gpumem steps aside (program runs uninstrumented)",
                holder[0] ? holder : "another tool (ncu, nsys, a debugger or sanitizer)");
        return -1;
    }
    if (r != CUPTI_SUCCESS) {
        gm_warn("cannot subscribe to CUPTI (%s); program runs uninstrumented", result_text(r));
        return -1;
    }
    CUpti_CallbackDomain doms[] = {CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CB_DOMAIN_DRIVER_API,
                                   CUPTI_CB_DOMAIN_RUNTIME_API};
    for (unsigned i = 0; i < 3; i++) {
        if ((r = gm_cu.cuptiEnableDomain(1, g_sub, doms[i])) != CUPTI_SUCCESS) {
            gm_warn("cannot enable CUPTI domain %d (%s); program runs uninstrumented",
                    (int)doms[i], result_text(r));
            gm_cu.cuptiUnsubscribe(g_sub);
            return -1;
        }
    }
    quiet_driver_calls();
    gm_gputime_start();
    gm_st.active = 1;
    return 0;
}

void gm_cupti_stop(void)
{
    if (!gm_st.active) return;
    gm_st.active = 0;
    /* no CUPTI call here: at exit the CUDA libraries may already be gone */
}
