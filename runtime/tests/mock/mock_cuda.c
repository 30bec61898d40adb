/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test double of the CUDA driver (built as libcuda.so.1) for running
 * libgpumem's CUPTI logic on a machine without a GPU: "device memory" is
 * host memory, module globals are named host buffers the test defines.
 * Stream operations complete at once, or with MOCK_ASYNC=1 they queue per
 * stream (kernels the test enqueues with mock_cuda_launch too) and run only
 * when something waits for them (stream/event/context synchronisation),
 * streams taken in an adversarial order (the newest runnable stream first),
 * honouring cuStreamWaitEvent: what the runtime does not order explicitly
 * may run in any order, as on a GPU. Only the entry points libgpumem uses
 * exist. Used only by runtime/tests; depends on cuda.h for types.
 */
#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MOCK_API __attribute__((visibility("default")))

struct global { char name[128]; void *mem; size_t size; };
static struct global g_globals[64];
static int g_nglobals;
static int g_sms = 132;
static CUmodule g_module = (CUmodule)0x1000;

MOCK_API void mock_cuda_define_global(const char *name, size_t size)
{
    struct global *g = &g_globals[g_nglobals++];
    strncpy(g->name, name, sizeof g->name - 1);
    g->mem = calloc(1, size);
    g->size = size;
}

MOCK_API void *mock_cuda_global(const char *name)
{
    for (int i = 0; i < g_nglobals; i++)
        if (!strcmp(g_globals[i].name, name)) return g_globals[i].mem;
    return NULL;
}

MOCK_API void mock_cuda_set_sms(int n) { g_sms = n; }

MOCK_API CUresult cuCtxGetCurrent(CUcontext *c) { *c = (CUcontext)0x10; return CUDA_SUCCESS; }
MOCK_API CUresult cuCtxGetDevice(CUdevice *d) { *d = 0; return CUDA_SUCCESS; }
MOCK_API CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    *v = a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT ? g_sms
       : a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9
       : a == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE ? 50 << 20 : 0;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuDeviceGetName(char *n, int len, CUdevice d) { (void)d; strncpy(n, "Mock H100", (size_t)len); return CUDA_SUCCESS; }
MOCK_API CUresult cuDeviceTotalMem(size_t *b, CUdevice d) { (void)d; *b = 1ull << 34; return CUDA_SUCCESS; }
/* handles below 0x100 are "CUkernels": cuFuncGetModule rejects them, as CUDA 13 does */
MOCK_API CUresult cuFuncGetModule(CUmodule *m, CUfunction f)
{
    if ((uintptr_t)f < 0x100) return CUDA_ERROR_INVALID_HANDLE;
    *m = g_module;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuFuncGetName(const char **n, CUfunction f) { (void)f; (void)n; return CUDA_ERROR_INVALID_HANDLE; }
MOCK_API CUresult cuKernelGetFunction(CUfunction *f, CUkernel k)
{
    *f = (CUfunction)((uintptr_t)k + 0x100);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuKernelGetLibrary(CUlibrary *l, CUkernel k) { (void)k; *l = (CUlibrary)0x2000; return CUDA_SUCCESS; }
MOCK_API CUresult cuKernelGetName(const char **n, CUkernel k) { (void)k; *n = "mock_kernel"; return CUDA_SUCCESS; }
/* MOCK_NATIVE=1: the module and the library hold an uninstrumented copy
 * K__gm_native of every kernel (gpumemcc --gm-native-copies), CUfunction
 * 0x7000 + n / CUkernel 0x80 + n, n from the name (mock_cuda_is_native). */
static int native_name(const char *name)
{
    size_t n = strlen(name), s = strlen("__gm_native");
    return getenv("MOCK_NATIVE") && n > s && !strcmp(name + n - s, "__gm_native");
}
MOCK_API CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    if (m != g_module || !native_name(name)) return CUDA_ERROR_NOT_FOUND;
    *f = (CUfunction)(uintptr_t)(0x7000 + strlen(name) % 64);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuLibraryGetKernel(CUkernel *k, CUlibrary l, const char *name)
{
    (void)l;
    if (!native_name(name)) return CUDA_ERROR_NOT_FOUND;
    *k = (CUkernel)(uintptr_t)(0x80 + strlen(name) % 64);
    return CUDA_SUCCESS;
}
MOCK_API int mock_cuda_is_native(const void *handle)
{
    uintptr_t h = (uintptr_t)handle;
    return (h >= 0x7000 && h < 0x7040) || (h >= 0x80 && h < 0xc0) || (h >= 0x180 && h < 0x1c0);
}
/* Function attributes: only the dynamic shared memory limit matters (48 KiB
 * unless raised), per CUfunction; a CUkernel's are its function's. */
static struct { CUfunction f; int max_dyn; } g_attr[64];
static int g_nattr;
static int *max_dyn_of(CUfunction f)
{
    if ((uintptr_t)f < 0x100) f = (CUfunction)((uintptr_t)f + 0x100);
    for (int i = 0; i < g_nattr; i++)
        if (g_attr[i].f == f) return &g_attr[i].max_dyn;
    if (g_nattr == 64) abort();
    g_attr[g_nattr].f = f, g_attr[g_nattr].max_dyn = 48 << 10;
    return &g_attr[g_nattr++].max_dyn;
}
MOCK_API CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
    *v = a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ? *max_dyn_of(f)
       : a == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT ? -1 : 0;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
    if (a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) *max_dyn_of(f) = v;
    return CUDA_SUCCESS;
}
/* What the driver checks at launch: 1 if `shmem` bytes of dynamic shared memory may be used. */
MOCK_API int mock_cuda_launch_ok(const void *f, unsigned shmem)
{
    return shmem <= (unsigned)*max_dyn_of((CUfunction)(uintptr_t)f);
}

static CUresult get_global(CUdeviceptr *dp, size_t *sz, const char *name)
{
    for (int i = 0; i < g_nglobals; i++) {
        if (strcmp(g_globals[i].name, name)) continue;
        if (dp) *dp = (CUdeviceptr)(uintptr_t)g_globals[i].mem;
        if (sz) *sz = g_globals[i].size;
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_NOT_FOUND;
}
MOCK_API CUresult cuLibraryGetGlobal(CUdeviceptr *dp, size_t *sz, CUlibrary l, const char *name) { (void)l; return get_global(dp, sz, name); }
MOCK_API CUresult cuModuleGetGlobal(CUdeviceptr *dp, size_t *sz, CUmodule m, const char *name)
{
    return m == g_module ? get_global(dp, sz, name) : CUDA_ERROR_INVALID_HANDLE;
}
static long g_live; /* device buffers allocated and not freed */
MOCK_API long mock_cuda_live_buffers(void) { return g_live; }
MOCK_API CUresult cuMemAlloc(CUdeviceptr *p, size_t n)
{
    void *m = calloc(1, n ? n : 1);
    *p = (CUdeviceptr)(uintptr_t)m;
    g_live += m != NULL;
    return m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
MOCK_API CUresult cuMemFree(CUdeviceptr p) { g_live -= p != 0; free((void *)(uintptr_t)p); return CUDA_SUCCESS; }
/* ---- streams and events ------------------------------------------------ */

struct mock_event { unsigned long recorded, done; };
enum { OP_FN = 1, OP_COPY, OP_SET, OP_RECORD, OP_WAIT };
struct op {
    int kind;
    void (*fn)(void *);
    void *arg, *dst;
    const void *src;
    size_t n;
    unsigned char v;
    struct mock_event *ev;
    unsigned long gen;
    struct op *next;
};
struct queue { CUstream s; struct op *head, **tail; };
static struct queue g_q[64];
static int g_nq;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static long g_executed; /* operations run so far */

static int async_mode(void)
{
    static int mode = -1;
    if (mode < 0) mode = getenv("MOCK_ASYNC") != NULL;
    return mode;
}

static struct queue *queue_of(CUstream s)
{
    for (int i = 0; i < g_nq; i++)
        if (g_q[i].s == s) return &g_q[i];
    if (g_nq == 64) { fprintf(stderr, "mock: too many streams\n"); abort(); }
    struct queue *q = &g_q[g_nq++];
    q->s = s, q->head = NULL, q->tail = &q->head;
    return q;
}

static void execute(struct op *o)
{
    switch (o->kind) {
    case OP_FN: o->fn(o->arg); break;
    case OP_COPY: memcpy(o->dst, o->src, o->n); break;
    case OP_SET: memset(o->dst, o->v, o->n); break;
    case OP_RECORD: if (o->gen > o->ev->done) o->ev->done = o->gen; break;
    default: break;
    }
    g_executed++;
}

static int runnable(const struct op *o) { return o->kind != OP_WAIT || o->ev->done >= o->gen; }

/* Runs one operation at the head of the newest stream that can run; 0 if none can. */
static int step(void)
{
    for (int i = g_nq; i-- > 0;) {
        struct op *o = g_q[i].head;
        if (!o || !runnable(o)) continue;
        g_q[i].head = o->next;
        if (!g_q[i].head) g_q[i].tail = &g_q[i].head;
        execute(o);
        free(o);
        return 1;
    }
    return 0;
}

static int queue_empty(const void *q) { return ((const struct queue *)q)->head == NULL; }
static int event_done(const void *e) { const struct mock_event *v = e; return v->done >= v->recorded; }
static int all_empty(const void *unused)
{
    (void)unused;
    for (int i = 0; i < g_nq; i++) if (g_q[i].head) return 0;
    return 1;
}

/* mock_cuda_hold(1): only the calling thread and threads that called
 * mock_cuda_app_thread (the program's) may run stream work until
 * mock_cuda_hold(0); other threads' (the runtime's collector) waits block:
 * a test counts what is queued while the collector cannot make progress. */
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static int g_hold;
static pthread_t g_holder;
static _Thread_local int t_app;
MOCK_API void mock_cuda_app_thread(void) { t_app = 1; }
MOCK_API void mock_cuda_hold(int on)
{
    pthread_mutex_lock(&g_mu);
    g_hold = on;
    g_holder = pthread_self();
    pthread_cond_broadcast(&g_cv);
    pthread_mutex_unlock(&g_mu);
}

/* Runs operations until cond holds; a wait that can never end is a test failure. */
static void run_until(int (*cond)(const void *), const void *arg)
{
    while (g_hold && !t_app && !pthread_equal(g_holder, pthread_self())) pthread_cond_wait(&g_cv, &g_mu);
    while (!cond(arg))
        if (!step()) { fprintf(stderr, "mock: deadlock: waiting for work that can never run\n"); abort(); }
}

static void enqueue(CUstream s, struct op o)
{
    if (!async_mode()) {
        if (o.kind == OP_RECORD) o.ev->done = o.gen;
        if (o.kind != OP_WAIT) execute(&o);
        return;
    }
    struct op *p = malloc(sizeof *p);
    *p = o;
    p->next = NULL;
    struct queue *q = queue_of(s);
    *q->tail = p;
    q->tail = &p->next;
}

/* A "kernel": fn(arg) runs on stream s in stream order. */
MOCK_API void mock_cuda_launch(CUstream s, void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&g_mu);
    enqueue(s, (struct op){.kind = OP_FN, .fn = fn, .arg = arg});
    pthread_mutex_unlock(&g_mu);
}
/* cuStreamDestroy: the stream's queued work goes on under a dead handle;
 * the handle may come back as a new stream, not ordered after it. */
MOCK_API void mock_cuda_stream_destroy(CUstream s)
{
    static uintptr_t dead = 0xdead0000;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < g_nq; i++)
        if (g_q[i].s == s) g_q[i].s = (CUstream)dead++;
    pthread_mutex_unlock(&g_mu);
}
/* cuCtxSynchronize as the program calls it (cudaDeviceSynchronize). */
MOCK_API void mock_cuda_sync_all(void)
{
    pthread_mutex_lock(&g_mu);
    run_until(all_empty, NULL);
    pthread_mutex_unlock(&g_mu);
}
MOCK_API long mock_cuda_pending(void)
{
    long n = 0;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < g_nq; i++) for (struct op *o = g_q[i].head; o; o = o->next) n++;
    pthread_mutex_unlock(&g_mu);
    return n;
}

static CUresult sticky(void)
{
    static int fail = -1;
    if (fail < 0) fail = getenv("MOCK_SYNC_FAIL") != NULL;
    return fail ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

MOCK_API CUresult cuMemcpyHtoD(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return CUDA_SUCCESS; }
/* synchronous copies see every earlier operation done (as with the legacy stream) */
MOCK_API CUresult cuMemcpyDtoH(void *d, CUdeviceptr s, size_t n)
{
    mock_cuda_sync_all();
    memcpy(d, (void *)(uintptr_t)s, n);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuMemcpyDtoHAsync(void *d, CUdeviceptr s, size_t n, CUstream st)
{
    pthread_mutex_lock(&g_mu);
    enqueue(st, (struct op){.kind = OP_COPY, .dst = d, .src = (const void *)(uintptr_t)s, .n = n});
    pthread_mutex_unlock(&g_mu);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
    pthread_mutex_lock(&g_mu);
    enqueue(s, (struct op){.kind = OP_SET, .dst = (void *)(uintptr_t)d, .v = v, .n = n});
    pthread_mutex_unlock(&g_mu);
    return CUDA_SUCCESS;
}
static long g_host_live; /* pinned blocks */
MOCK_API long mock_cuda_pinned_blocks(void) { return g_host_live; }
MOCK_API CUresult cuMemAllocHost(void **p, size_t n)
{
    if (getenv("MOCK_NO_PINNED")) return CUDA_ERROR_OUT_OF_MEMORY;
    *p = calloc(1, n ? n : 1);
    g_host_live++;
    return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
MOCK_API CUresult cuMemFreeHost(void *p) { g_host_live--; free(p); return CUDA_SUCCESS; }
/* MOCK_SYNC_FAIL set: every kernel "faults" (the sticky error of a bad access) */
MOCK_API CUresult cuStreamSynchronize(CUstream s)
{
    pthread_mutex_lock(&g_mu);
    if (async_mode()) run_until(queue_empty, queue_of(s));
    pthread_mutex_unlock(&g_mu);
    return sticky();
}
MOCK_API CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int f)
{
    (void)f;
    struct mock_event *v = (struct mock_event *)e;
    pthread_mutex_lock(&g_mu);
    enqueue(s, (struct op){.kind = OP_WAIT, .ev = v, .gen = v->recorded});
    pthread_mutex_unlock(&g_mu);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st)
{
    *st = (uintptr_t)s == 0xcafe ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuGetErrorString(CUresult r, const char **s) { (void)r; *s = "mock error"; return CUDA_SUCCESS; }
/* events: the mock's "kernel" takes 1.5 ms */
static long g_events; /* created and not destroyed */
MOCK_API long mock_cuda_events(void) { return g_events; }
MOCK_API CUresult cuEventCreate(CUevent *e, unsigned int f)
{
    (void)f;
    *e = (CUevent)calloc(1, sizeof(struct mock_event));
    g_events++;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuEventRecord(CUevent e, CUstream s)
{
    struct mock_event *v = (struct mock_event *)e;
    pthread_mutex_lock(&g_mu);
    v->recorded++;
    enqueue(s, (struct op){.kind = OP_RECORD, .ev = v, .gen = v->recorded});
    pthread_mutex_unlock(&g_mu);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuEventQuery(CUevent e)
{
    pthread_mutex_lock(&g_mu);
    int done = event_done(e);
    pthread_mutex_unlock(&g_mu);
    return !done ? CUDA_ERROR_NOT_READY : sticky();
}
MOCK_API CUresult cuEventSynchronize(CUevent e)
{
    pthread_mutex_lock(&g_mu);
    run_until(event_done, e);
    pthread_mutex_unlock(&g_mu);
    return sticky();
}
MOCK_API CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
    if (!event_done(a) || !event_done(b)) return CUDA_ERROR_NOT_READY;
    *ms = 1.5f;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuEventDestroy(CUevent e) { g_events--; free(e); return CUDA_SUCCESS; }
MOCK_API CUresult cuCtxPushCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
MOCK_API CUresult cuCtxPopCurrent(CUcontext *c) { *c = (CUcontext)0x10; return CUDA_SUCCESS; }
/* ---- what the tracer (runtime/trace/trace_cuda.c) resolves besides ---- */
MOCK_API CUresult cuCtxSetCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
MOCK_API CUresult cuCtxGetStreamPriorityRange(int *lo, int *hi) { *lo = 0; *hi = -1; return CUDA_SUCCESS; }
MOCK_API CUresult cuStreamCreateWithPriority(CUstream *s, unsigned f, int p)
{
    static uintptr_t next = 0x900;
    (void)f; (void)p;
    pthread_mutex_lock(&g_mu);
    *s = (CUstream)next++;
    pthread_mutex_unlock(&g_mu);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuStreamDestroy(CUstream s) { (void)s; return CUDA_SUCCESS; }
MOCK_API CUresult cuMemHostAlloc(void **p, size_t n, unsigned f)
{
    (void)f;
    return cuMemAllocHost(p, n);
}
MOCK_API CUresult cuMemcpyHtoDAsync(CUdeviceptr d, const void *s, size_t n, CUstream st)
{
    pthread_mutex_lock(&g_mu);
    enqueue(st, (struct op){.kind = OP_COPY, .dst = (void *)(uintptr_t)d, .src = s, .n = n});
    pthread_mutex_unlock(&g_mu);
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuKernelGetAttribute(int *v, CUfunction_attribute a, CUkernel k, CUdevice d)
{
    (void)a; (void)k; (void)d;
    *v = 0;
    return CUDA_SUCCESS;
}
MOCK_API CUresult cuGetErrorName(CUresult r, const char **s) { (void)r; *s = "CUDA_ERROR_MOCK"; return CUDA_SUCCESS; }

/* ---- graphs: one graph (MOCK_GRAPH) of two kernel nodes, a memset node
 * and a child graph of one kernel node: 3 kernels in all. */
#define MOCK_GRAPH ((CUgraph)0x66)
#define MOCK_CHILD ((CUgraph)0x67)
static const struct { CUgraphNode node; CUgraph in; CUgraphNodeType type; } g_nodes[] = {
    {(CUgraphNode)0x601, MOCK_GRAPH, CU_GRAPH_NODE_TYPE_KERNEL},
    {(CUgraphNode)0x602, MOCK_GRAPH, CU_GRAPH_NODE_TYPE_MEMSET},
    {(CUgraphNode)0x603, MOCK_GRAPH, CU_GRAPH_NODE_TYPE_GRAPH},
    {(CUgraphNode)0x604, MOCK_GRAPH, CU_GRAPH_NODE_TYPE_KERNEL},
    {(CUgraphNode)0x671, MOCK_CHILD, CU_GRAPH_NODE_TYPE_KERNEL},
};
#define MOCK_NNODES (sizeof g_nodes / sizeof g_nodes[0])

MOCK_API CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *n)
{
    size_t k = 0;
    for (size_t i = 0; i < MOCK_NNODES; i++)
        if (g_nodes[i].in == g) {
            if (nodes && k < *n) nodes[k] = g_nodes[i].node;
            k++;
        }
    if (!k && g != MOCK_GRAPH && g != MOCK_CHILD) return CUDA_ERROR_INVALID_VALUE;
    *n = k;
    return CUDA_SUCCESS;
}

MOCK_API CUresult cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType *t)
{
    for (size_t i = 0; i < MOCK_NNODES; i++)
        if (g_nodes[i].node == node) {
            *t = g_nodes[i].type;
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_VALUE;
}

MOCK_API CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph *g)
{
    if (node != (CUgraphNode)0x603) return CUDA_ERROR_INVALID_VALUE;
    *g = MOCK_CHILD;
    return CUDA_SUCCESS;
}
